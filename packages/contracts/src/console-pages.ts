/**
 * The console's pages by their path patterns (wouter's syntax: `:name` one segment, `:name?`
 * an optional one). The console's router declares its routes from this table, and the server
 * answers a page outside it with the console's 404 page and the status 404, so a crawler or
 * a link checker is told the truth.
 *
 * Kept free of zod and of the other contracts: the console's first paint imports it.
 */
export const consolePagePaths = {
  /** The landing page signed out, Home signed in. */
  home: '/',
  firebaseLogin: '/firebase-login',
  dashboard: '/dashboard',
  // The optional id: /app and /app/ show 'Invalid application ID', not 404.
  application: '/app/:id?',
  webhooks: '/webhooks',
  blacklist: '/blacklist',
  activityLogs: '/activity-logs',
  integration: '/integration',
  docs: '/docs',
  codeEditor: '/code-editor',
  userManagement: '/user-management',
  apiTokens: '/api-tokens',
} as const;

export type ConsolePage = keyof typeof consolePagePaths;

const escapeForRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A pattern as wouter matches it (through regexparam): case-insensitive, an optional trailing
 * slash, each parameter one segment.
 */
function patternToRegExp(pattern: string): RegExp {
  const segments = pattern
    .split('/')
    .filter(Boolean)
    .map((segment) => {
      if (segment.startsWith(':')) return segment.endsWith('?') ? '(?:/[^/]+?)?' : '/[^/]+?';
      return `/${escapeForRegExp(segment)}`;
    });
  return new RegExp(`^${segments.join('')}/?$`, 'i');
}

const consolePagePatterns = Object.values(consolePagePaths).map(patternToRegExp);

/** Whether the console has a page at `path` (no query string). */
export function isConsolePagePath(path: string): boolean {
  return consolePagePatterns.some((pattern) => pattern.test(path));
}
