import { consolePagePaths } from '@latchkey/contracts/console-pages';
import { expect, type Page } from '@playwright/test';
import { consoleOriginHeaders } from './owners.ts';

/** What the seeded owner has, for pages whose address or content depends on it. */
export interface SeededConsole {
  applicationId: number;
  applicationName: string;
  /** The vendor who seeded it (a name of its own per test: the checks run side by side). */
  checkerName: string;
}

export interface ConsolePage {
  /** Names the checks and the screenshot files. */
  name: string;
  /** The console route (a path pattern in App.tsx, or '*' for the 404 page) this covers. */
  route: string;
  signedIn: boolean;
  /** Checked signed in as the run's site owner (support/site-owner.ts) instead of a vendor. */
  isSiteOwner?: boolean;
  path: (seed: SeededConsole) => string;
  /** The page's level-1 heading, proof it rendered rather than a spinner or the 404 page. */
  heading: (seed: SeededConsole) => string | RegExp;
  /** The page shows a table whose rows have actions (the seeded data fills it). */
  hasRowActions?: boolean;
  /** Brings the page into the state to check after it loaded (e.g. opens a tab). */
  prepare?: (page: Page, seed: SeededConsole) => Promise<void>;
}

const NOT_FOUND_HEADING = '404 Page Not Found';

/**
 * Every page of the console, signed out and signed in. The layout and accessibility checks run
 * on each; a page added to the console's routes must be added here (a check compares the two).
 */
export const CONSOLE_PAGES: readonly ConsolePage[] = [
  {
    name: 'landing',
    route: '/',
    signedIn: false,
    path: () => '/',
    heading: () => /Protect your software/,
  },
  {
    name: 'sign-in',
    route: '/firebase-login',
    signedIn: false,
    path: () => '/firebase-login',
    heading: () => 'Create Your Account',
  },
  {
    name: 'not-found-signed-out',
    route: '*',
    signedIn: false,
    path: () => '/no-such-page',
    heading: () => NOT_FOUND_HEADING,
  },
  { name: 'home', route: '/', signedIn: true, path: () => '/', heading: () => /Welcome back/ },
  {
    name: 'dashboard-applications',
    hasRowActions: true,
    route: '/dashboard',
    signedIn: true,
    path: () => '/dashboard',
    heading: () => 'Dashboard',
  },
  {
    name: 'dashboard-users',
    hasRowActions: true,
    route: '/dashboard',
    signedIn: true,
    path: () => '/dashboard',
    heading: () => 'Dashboard',
    prepare: async (page, seed) => {
      await page.getByTestId(`application-row-${seed.applicationId}`).click();
      await page.getByRole('tab', { name: `Users (${seed.applicationName})` }).click();
      await expect(
        page.getByRole('heading', { name: `Users of ${seed.applicationName}` }),
      ).toBeVisible();
    },
  },
  {
    name: 'application-overview',
    route: '/app/:id?',
    signedIn: true,
    path: (seed) => `/app/${seed.applicationId}`,
    heading: (seed) => seed.applicationName,
  },
  {
    name: 'application-users',
    hasRowActions: true,
    route: '/app/:id?',
    signedIn: true,
    path: (seed) => `/app/${seed.applicationId}`,
    heading: (seed) => seed.applicationName,
    prepare: async (page) => {
      await page.getByRole('tab', { name: /^Users/ }).click();
      await expect(page.getByRole('cell', { name: 'carol', exact: true })).toBeVisible();
    },
  },
  {
    name: 'webhooks',
    hasRowActions: true,
    route: '/webhooks',
    signedIn: true,
    path: () => '/webhooks',
    heading: () => 'Webhooks',
  },
  {
    name: 'blacklist',
    hasRowActions: true,
    route: '/blacklist',
    signedIn: true,
    path: () => '/blacklist',
    heading: () => 'Blacklist',
  },
  {
    name: 'activity-logs',
    route: '/activity-logs',
    signedIn: true,
    path: () => '/activity-logs',
    heading: () => 'Activity Logs',
  },
  {
    name: 'integration',
    route: '/integration',
    signedIn: true,
    // With an application chosen, so the checks cover the code box, tabs and badges.
    path: (seed) => `/integration?app=${seed.applicationId}`,
    heading: () => 'Integration Examples',
  },
  {
    name: 'docs',
    route: '/docs',
    signedIn: true,
    path: () => '/docs',
    heading: () => 'Documentation',
  },
  {
    name: 'code-editor',
    route: '/code-editor',
    signedIn: true,
    path: () => '/code-editor',
    heading: () => 'Code Editor',
  },
  {
    name: 'code-editor-template',
    route: '/code-editor',
    signedIn: true,
    path: () => '/code-editor',
    heading: () => 'Code Editor',
    prepare: async (page, seed) => {
      await page.getByRole('combobox', { name: 'Application' }).click();
      await page.getByRole('option', { name: seed.applicationName, exact: true }).click();
      await expect(page.getByRole('button', { name: 'Edit Template' })).toBeEnabled();
    },
  },
  {
    name: 'code-editor-history',
    route: '/code-editor',
    signedIn: true,
    path: () => '/code-editor',
    heading: () => 'Code Editor',
    prepare: async (page) => {
      await saveDocumentVersion(page);
      await expect(
        page.getByRole('list', { name: 'Versions of authentication.ts' }).getByRole('listitem'),
      ).not.toHaveCount(1);
    },
  },
  {
    name: 'code-editor-restore-dialog',
    route: '/code-editor',
    signedIn: true,
    path: () => '/code-editor',
    heading: () => 'Code Editor',
    prepare: async (page) => {
      await saveDocumentVersion(page);
      await page.getByRole('button', { name: 'Restore version 1' }).click();
      await expect(page.getByRole('alertdialog')).toBeVisible();
    },
  },
  {
    // A vendor without admin permissions: the no-permission text.
    name: 'user-management-no-permission',
    route: '/user-management',
    signedIn: true,
    path: () => '/user-management',
    heading: () => 'User Management',
  },
  {
    name: 'user-management-accounts',
    route: '/user-management',
    signedIn: true,
    isSiteOwner: true,
    path: () => '/user-management',
    heading: () => 'User Management',
    prepare: async (page) => {
      await expect(page.getByRole('list', { name: 'Users' })).toBeVisible();
    },
  },
  {
    name: 'user-management-edit-dialog',
    route: '/user-management',
    signedIn: true,
    isSiteOwner: true,
    path: () => '/user-management',
    heading: () => 'User Management',
    prepare: async (page, seed) => {
      // The vendor who seeded the console, so the dialog shows a non-owner's permissions;
      // searched for, since a whole run's accounts may fill more than the first page.
      await page.getByRole('searchbox', { name: 'Search users' }).fill(seed.checkerName);
      await page.getByRole('button', { name: `Edit ${seed.checkerName}`, exact: true }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
    },
  },
  {
    name: 'user-management-overview',
    route: '/user-management',
    signedIn: true,
    isSiteOwner: true,
    path: () => '/user-management',
    heading: () => 'User Management',
    prepare: async (page) => {
      await page.getByRole('tab', { name: 'Site Overview' }).click();
      await expect(page.getByRole('region', { name: 'Site overview' })).toBeVisible();
    },
  },
  {
    name: 'user-management-audit',
    route: '/user-management',
    signedIn: true,
    isSiteOwner: true,
    path: () => '/user-management',
    heading: () => 'User Management',
    prepare: async (page) => {
      await page.getByRole('tab', { name: 'Audit Trail' }).click();
      await expect(page.getByRole('heading', { name: 'Audit Trail' })).toBeVisible();
    },
  },
  {
    // A vendor without Manage API Tokens (not among a new account's defaults): the
    // no-permission text. The list and its dialogs are checked by api-tokens.spec.ts.
    name: 'api-tokens-no-permission',
    route: '/api-tokens',
    signedIn: true,
    path: () => '/api-tokens',
    heading: () => 'API Tokens',
  },
  {
    // The site owner holds it by role: the list, and the header with every link at 1280 px.
    name: 'api-tokens',
    route: '/api-tokens',
    signedIn: true,
    isSiteOwner: true,
    path: () => '/api-tokens',
    heading: () => 'API Tokens',
    prepare: async (page) => {
      await expect(page.getByRole('status', { name: 'Loading API tokens' })).toHaveCount(0);
      await expect(page.getByRole('heading', { name: 'Error loading API tokens' })).toHaveCount(0);
    },
  },
  {
    name: 'welcome',
    route: '/firebase-login',
    signedIn: true,
    path: () => '/firebase-login',
    heading: () => /^Welcome, /,
  },
  {
    name: 'not-found-signed-in',
    route: '*',
    signedIn: true,
    path: () => '/no-such-page',
    heading: () => NOT_FOUND_HEADING,
  },
];

/** A saved version of authentication.ts, so the code editor shows a history; then reloads. */
async function saveDocumentVersion(page: Page): Promise<void> {
  const saved = await page.request.put('/api/code-files/authentication.ts', {
    headers: consoleOriginHeaders(page),
    data: { content: `// layout check ${Date.now()}\n` },
  });
  expect(saved.status()).toBe(200);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Code Editor', level: 1 })).toBeVisible();
}

/**
 * The console's routes as its router declares them, from the contracts' table of pages: signed
 * out, the landing page, the sign-in page and the catch-all ('*', the 404 page; the signed-in
 * pages only redirect to sign in there); signed in, every page and the catch-all.
 */
export function declaredConsoleRoutes(): { signedIn: boolean; route: string }[] {
  const everyPage = Object.values(consolePagePaths);
  return [
    ...[consolePagePaths.home, consolePagePaths.firebaseLogin, '*'].map((route) => ({
      signedIn: false,
      route,
    })),
    ...[...everyPage, '*'].map((route) => ({ signedIn: true, route })),
  ];
}
