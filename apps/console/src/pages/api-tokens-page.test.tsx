import {
  API_TOKEN_EXPIRY_PAST,
  API_TOKEN_IP_INVALID,
  API_TOKEN_NAME_REQUIRED,
  API_TOKEN_SCOPES_REQUIRED,
  apiTokenScopes,
  type ApiToken,
  type CreateApiTokenRequest,
  type CreatedApiToken,
  type UserPermissions,
} from '@latchkey/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOKEN_SHOWN_ONCE_WARNING } from '@/components/api-tokens/created-api-token-dialog.tsx';
import { API_TOKENS_QUERY_KEY } from '@/hooks/use-api-tokens.ts';
import { dismissToast } from '@/hooks/use-toast.ts';
import { findToast } from '@/test/find-toast.ts';
import { fakeMediaQueryList, stubResizeObserver } from '@/test/jsdom-stubs.ts';
import {
  createCurrentUser,
  renderWithProviders,
  signedInAuth,
} from '@/test/render-with-providers.tsx';
import {
  createApplication,
  jsonResponse,
  neverAnswered,
  stubOwnerApi,
  type SentRequest,
} from '@/test/stub-owner-api.ts';
import {
  ApiTokensPage,
  NO_API_TOKENS_PERMISSION,
  TOKEN_CARDS_MEDIA_QUERY,
} from './api-tokens-page.tsx';

const NOW = new Date('2026-06-10T12:00:00.000Z');
const TOKEN_TEXT = 'lk_AbCdEfGh0123456789abcdefghijklmnXYZ123';

const token = (overrides: Partial<ApiToken> = {}): ApiToken => ({
  id: '00000000-0000-4000-8000-000000000001',
  name: 'Shop sync',
  prefix: 'lk_AbCdEfGh',
  scopes: ['applications:read'],
  applicationIds: null,
  expiresAt: null,
  allowedIps: null,
  createdAt: '2026-03-14T12:00:00.000Z',
  lastUsedAt: null,
  lastUsedIp: null,
  ...overrides,
});

const APPLICATIONS = [
  createApplication({ id: 7, name: 'Orbit' }),
  createApplication({ id: 8, name: 'Nebula' }),
];

type Answer = { status: number; body: unknown } | 'never';

/**
 * The owner API of packages/contracts/src/api-tokens.ts, its tokens held in memory so the list
 * refreshes after a mutation as it would. `failNext` answers the next `METHOD /path` instead.
 */
function stubTokensApi(tokens: ApiToken[] = []) {
  const state = { tokens: [...tokens] };
  const failures = new Map<string, Answer>();
  const sent = stubOwnerApi(({ method, url, body }) => {
    const failure = failures.get(`${method} ${url.pathname}`);
    if (failure) {
      failures.delete(`${method} ${url.pathname}`);
      return failure === 'never' ? neverAnswered() : jsonResponse(failure.status, failure.body);
    }
    if (url.pathname === '/api/applications') return jsonResponse(200, APPLICATIONS);
    if (url.pathname === '/api/api-tokens' && method === 'GET') {
      return jsonResponse(200, state.tokens);
    }
    if (url.pathname === '/api/api-tokens' && method === 'POST') {
      const request = body as CreateApiTokenRequest;
      const created: CreatedApiToken = {
        ...token({
          id: '00000000-0000-4000-8000-000000000099',
          name: request.name,
          scopes: request.scopes,
          applicationIds: request.applicationIds ?? null,
          expiresAt: request.expiresAt ?? null,
          allowedIps: request.allowedIps ?? null,
          createdAt: NOW.toISOString(),
        }),
        token: TOKEN_TEXT,
      };
      const { token: _text, ...listed } = created;
      state.tokens = [listed, ...state.tokens];
      return jsonResponse(201, created);
    }
    const one = /^\/api\/api-tokens\/([\w-]+)$/.exec(url.pathname);
    if (one && method === 'DELETE') {
      if (!state.tokens.some((candidate) => candidate.id === one[1])) {
        return jsonResponse(404, { message: 'API token not found', code: 'NOT_FOUND' });
      }
      state.tokens = state.tokens.filter((candidate) => candidate.id !== one[1]);
      return jsonResponse(200, { success: true, message: 'API token revoked' });
    }
    return undefined;
  });
  return {
    sent: (method: string, path: string): SentRequest[] =>
      sent.filter((request) => request.method === method && request.path === path),
    sentTo: (prefix: string) => sent.filter((request) => request.path.startsWith(prefix)),
    failNext: (method: string, path: string, answer: Answer) =>
      failures.set(`${method} ${path}`, answer),
  };
}

/** The words a control's aria-describedby names, its problem first. */
function describedBy(control: HTMLElement): (string | null | undefined)[] {
  return (control.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent);
}

function renderPage(userPermissions: UserPermissions = { role: 'owner', permissions: [] }) {
  return renderWithProviders(<ApiTokensPage />, {
    path: '/api-tokens',
    auth: signedInAuth(createCurrentUser({ userPermissions })),
    toaster: true,
  });
}

/** Makes the phone's media query match, as on a 390 px screen. */
function stubPhoneScreen() {
  vi.spyOn(window, 'matchMedia').mockImplementation((query: string) =>
    fakeMediaQueryList(query, query === TOKEN_CARDS_MEDIA_QUERY),
  );
}

async function openCreateDialog() {
  fireEvent.click((await screen.findAllByRole('button', { name: 'Create Token' }))[0]!);
  return within(await screen.findByRole('dialog', { name: 'Create API Token' }));
}

describe('ApiTokensPage', { timeout: 30_000 }, () => {
  const writeText = vi.fn(async (_text: string) => {});

  beforeEach(() => {
    // Only the clock: "5 minutes ago" and "Expired" are read against a fixed now, while the
    // timers the queries and waitFor use keep running.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    stubResizeObserver();
    // jsdom has no clipboard.
    writeText.mockClear();
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    dismissToast();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('shows a skeleton while the tokens load', async () => {
    const api = stubTokensApi();
    api.failNext('GET', '/api/api-tokens', 'never');
    renderPage();
    expect(await screen.findByRole('status', { name: 'Loading API tokens' })).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it("says 'No API tokens yet' with a Create Token button when there are none", async () => {
    stubTokensApi();
    renderPage();
    expect(await screen.findByRole('heading', { name: 'No API tokens yet' })).toBeTruthy();
    expect(screen.getByText(/call the management API on your behalf/)).toBeTruthy();
    // The page's own button and the empty state's.
    expect(screen.getAllByRole('button', { name: 'Create Token' })).toHaveLength(2);
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows a load failure in the server words and recovers on Try Again', async () => {
    const api = stubTokensApi([token()]);
    api.failNext('GET', '/api/api-tokens', {
      status: 500,
      body: { message: 'Database unavailable', code: 'INTERNAL' },
    });
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Error loading API tokens' })).toBeTruthy();
    expect(screen.getByText('Database unavailable')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByTestId(`api-token-row-${token().id}`)).toBeTruthy();
  });

  it('lists each token: prefix, at most 3 scopes, applications by name, dates and last use', async () => {
    stubTokensApi([
      token({
        id: '00000000-0000-4000-8000-000000000001',
        name: 'Shop sync',
        scopes: [
          'applications:read',
          'users:read',
          'users:write',
          'licenses:read',
          'licenses:write',
        ],
        applicationIds: [7, 99],
        expiresAt: '2026-01-31T12:00:00.000Z',
        lastUsedAt: '2026-06-10T11:55:00.000Z',
        lastUsedIp: '203.0.113.7',
      }),
      token({
        id: '00000000-0000-4000-8000-000000000002',
        name: 'CI deploy',
        prefix: 'lk_ZyXwVuTs',
        scopes: ['webhooks:read', 'webhooks:write'],
        expiresAt: '2027-01-31T12:00:00.000Z',
      }),
      token({ id: '00000000-0000-4000-8000-000000000003', name: 'Forever' }),
    ]);
    renderPage();

    const shop = within(
      await screen.findByTestId('api-token-row-00000000-0000-4000-8000-000000000001'),
    );
    expect(shop.getByText('Shop sync')).toBeTruthy();
    expect(shop.getByText('lk_AbCdEfGh…')).toBeTruthy();
    for (const scope of ['applications:read', 'users:read', 'users:write']) {
      expect(shop.getByText(scope)).toBeTruthy();
    }
    expect(shop.queryByText('licenses:read')).toBeNull();
    expect(shop.getByText('+2 more').getAttribute('title')).toBe('licenses:read, licenses:write');
    // Named from the application list; one no longer in it by its id.
    expect(await shop.findByText('Orbit, App 99')).toBeTruthy();
    expect(shop.getByText('3/14/2026')).toBeTruthy();
    expect(shop.getByText('Expired')).toBeTruthy();
    expect(shop.getByText('5 minutes ago')).toBeTruthy();
    expect(shop.getByText('from 203.0.113.7')).toBeTruthy();
    expect(shop.getByRole('button', { name: 'Revoke Shop sync' })).toBeTruthy();

    const ci = within(screen.getByTestId('api-token-row-00000000-0000-4000-8000-000000000002'));
    expect(ci.getByText('lk_ZyXwVuTs…')).toBeTruthy();
    expect(ci.queryByText(/more$/)).toBeNull();
    expect(ci.getByText('All applications')).toBeTruthy();
    expect(ci.getByText('1/31/2027')).toBeTruthy();
    expect(ci.queryByText('Expired')).toBeNull();
    expect(ci.getByText('Never used')).toBeTruthy();

    const forever = within(
      screen.getByTestId('api-token-row-00000000-0000-4000-8000-000000000003'),
    );
    expect(forever.getByText('Never')).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'API tokens' })).toBeNull();
  });

  it('shows the tokens as cards on a phone', async () => {
    stubPhoneScreen();
    stubTokensApi([
      token({ applicationIds: [8], lastUsedAt: '2026-06-09T12:00:00.000Z', lastUsedIp: '::1' }),
    ]);
    renderPage();
    const list = await screen.findByRole('list', { name: 'API tokens' });
    const card = within(within(list).getByRole('listitem', { name: 'Shop sync' }));
    expect(card.getByText('lk_AbCdEfGh…')).toBeTruthy();
    expect(card.getByText('applications:read')).toBeTruthy();
    expect(await card.findByText('Nebula')).toBeTruthy();
    expect(card.getByText('yesterday')).toBeTruthy();
    expect(card.getByText('Never')).toBeTruthy();
    expect(card.getByRole('button', { name: 'Revoke Shop sync' })).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('creates a token, lists it, and shows its text once with Copy and the warning', async () => {
    const api = stubTokensApi();
    renderPage();
    await screen.findByRole('heading', { name: 'No API tokens yet' });
    const dialog = await openCreateDialog();

    expect(dialog.getAllByRole('checkbox', { name: /^[a-z]+:(read|write)$/ })).toHaveLength(
      apiTokenScopes.length,
    );
    expect(dialog.getByText('Add and remove blacklist entries')).toBeTruthy();
    fireEvent.change(dialog.getByLabelText(/^Name/), { target: { value: '  Shop sync  ' } });
    fireEvent.click(dialog.getByRole('checkbox', { name: 'users:write' }));
    fireEvent.click(dialog.getByRole('checkbox', { name: 'applications:read' }));
    fireEvent.click(dialog.getByRole('checkbox', { name: 'Restrict to applications' }));
    fireEvent.click(await dialog.findByRole('checkbox', { name: 'Nebula' }));
    fireEvent.change(dialog.getByLabelText(/^Expires/), { target: { value: '2026-12-31' } });
    fireEvent.change(dialog.getByLabelText(/^Allowed IPs/), {
      target: { value: '203.0.113.7\n 198.51.100.0/24, 2001:db8::/48\n\n' },
    });
    fireEvent.click(dialog.getByRole('button', { name: 'Create Token' }));

    expect(await findToast('API token created successfully')).toBeTruthy();
    expect(api.sent('POST', '/api/api-tokens').map((request) => request.body)).toEqual([
      {
        name: 'Shop sync',
        scopes: ['applications:read', 'users:write'],
        applicationIds: [8],
        // The end of that day in the viewer's time zone.
        expiresAt: new Date('2026-12-31T23:59:59.999').toISOString(),
        allowedIps: ['203.0.113.7', '198.51.100.0/24', '2001:db8::/48'],
      },
    ]);

    const shown = within(await screen.findByRole('dialog', { name: 'Copy Your API Token' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Create API Token' })).toBeNull(),
    );
    const field = shown.getByLabelText('Token') as HTMLInputElement;
    expect(field.value).toBe(TOKEN_TEXT);
    expect(field.readOnly).toBe(true);
    expect(
      screen.getByRole('dialog', {
        name: 'Copy Your API Token',
        description: TOKEN_SHOWN_ONCE_WARNING,
      }),
    ).toBeTruthy();

    fireEvent.click(shown.getByRole('button', { name: 'Copy' }));
    expect(await findToast('API token copied to clipboard')).toBeTruthy();
    expect(screen.getByText('Copied', { selector: 'li *' })).toBeTruthy();
    expect(writeText).toHaveBeenCalledWith(TOKEN_TEXT);

    // The list behind already has it, by its prefix only.
    const row = within(
      await screen.findByTestId('api-token-row-00000000-0000-4000-8000-000000000099'),
    );
    expect(row.getByText('lk_AbCdEfGh…')).toBeTruthy();

    fireEvent.click(shown.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // Gone from the page with its dialog.
    expect(screen.queryByDisplayValue(TOKEN_TEXT)).toBeNull();
    expect(document.body.textContent).not.toContain(TOKEN_TEXT);
  });

  it("checks the fields with the contract's messages, each at its field, before sending anything", async () => {
    const api = stubTokensApi();
    renderPage();
    await screen.findByRole('heading', { name: 'No API tokens yet' });
    const dialog = await openCreateDialog();
    const submit = () => fireEvent.click(dialog.getByRole('button', { name: 'Create Token' }));
    const name = dialog.getByLabelText(/^Name/);

    // The name and the scopes at once, the name focused.
    submit();
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(describedBy(name)[0]).toBe(API_TOKEN_NAME_REQUIRED);
    const scopeBoxes = dialog.getAllByRole('checkbox', { name: /^[a-z]+:(read|write)$/ });
    for (const box of scopeBoxes) expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(describedBy(scopeBoxes[0]!)).toContain(API_TOKEN_SCOPES_REQUIRED);
    expect(describedBy(dialog.getByRole('group', { name: /^Scopes/ }))).toEqual([
      API_TOKEN_SCOPES_REQUIRED,
    ]);
    await waitFor(() => expect(document.activeElement).toBe(name));

    fireEvent.change(name, { target: { value: 'Bot' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Select all' }));
    expect(dialog.getAllByRole('checkbox', { checked: true })).toHaveLength(apiTokenScopes.length);
    expect(dialog.queryByRole('alert')).toBeNull();

    // A restriction with no application, a bad address and a past day, all at once.
    fireEvent.click(dialog.getByRole('checkbox', { name: 'Restrict to applications' }));
    const orbit = await dialog.findByRole('checkbox', { name: 'Orbit' });
    const allowedIps = dialog.getByLabelText(/^Allowed IPs/);
    fireEvent.change(allowedIps, { target: { value: '203.0.113.7, 999.1.1.1' } });
    const expires = dialog.getByLabelText(/^Expires/);
    fireEvent.change(expires, { target: { value: '2026-06-09' } });
    submit();
    expect(orbit.getAttribute('aria-invalid')).toBe('true');
    expect(describedBy(orbit)).toEqual([
      'Choose at least one application, or leave the restriction out',
    ]);
    expect(describedBy(allowedIps)[0]).toBe(API_TOKEN_IP_INVALID('999.1.1.1'));
    expect(allowedIps.getAttribute('aria-invalid')).toBe('true');
    expect(describedBy(expires)[0]).toBe(API_TOKEN_EXPIRY_PAST);
    expect(expires.getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(orbit));
    expect(api.sent('POST', '/api/api-tokens')).toEqual([]);

    // Leaving the restriction out forgets its problem; mending a field forgets its own.
    fireEvent.click(dialog.getByRole('checkbox', { name: 'Restrict to applications' }));
    fireEvent.change(allowedIps, { target: { value: '' } });
    expect(dialog.getAllByRole('alert').map(({ textContent }) => textContent)).toEqual([
      API_TOKEN_EXPIRY_PAST,
    ]);

    fireEvent.change(expires, { target: { value: '2026-06-11' } });
    api.failNext('POST', '/api/api-tokens', {
      status: 404,
      body: { message: 'Application not found', code: 'NOT_FOUND' },
    });
    submit();
    expect(await findToast('Application not found')).toBeTruthy();
    expect(screen.getByText('Error', { selector: 'li *' })).toBeTruthy();
    // A refusal that names no field stays the toast's.
    expect(dialog.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Create API Token' })).toBeTruthy();
    expect(api.sent('POST', '/api/api-tokens')).toHaveLength(1);
  });

  it("places the server's refusal at the fields it names: the expiry at its day", async () => {
    const api = stubTokensApi();
    renderPage();
    await screen.findByRole('heading', { name: 'No API tokens yet' });
    const dialog = await openCreateDialog();
    fireEvent.change(dialog.getByLabelText(/^Name/), { target: { value: 'Bot' } });
    fireEvent.click(dialog.getByRole('checkbox', { name: 'activity:read' }));
    const expires = dialog.getByLabelText(/^Expires/);
    fireEvent.change(expires, { target: { value: '2026-06-11' } });
    const allowedIps = dialog.getByLabelText(/^Allowed IPs/);
    fireEvent.change(allowedIps, { target: { value: '203.0.113.7' } });
    api.failNext('POST', '/api/api-tokens', {
      status: 400,
      body: {
        message: 'The expiry must be in the future',
        code: 'BAD_REQUEST',
        fields: [
          { field: 'expiresAt', message: API_TOKEN_EXPIRY_PAST },
          { field: 'allowedIps.0', message: 'Not from this network' },
        ],
      },
    });
    fireEvent.click(dialog.getByRole('button', { name: 'Create Token' }));

    await waitFor(() => expect(expires.getAttribute('aria-invalid')).toBe('true'));
    expect(describedBy(expires)[0]).toBe(API_TOKEN_EXPIRY_PAST);
    expect(describedBy(allowedIps)[0]).toBe('Not from this network');
    await waitFor(() => expect(document.activeElement).toBe(expires));
    expect(screen.getByRole('dialog', { name: 'Create API Token' })).toBeTruthy();
  });

  it('waits with the submit button while the token is being created', async () => {
    const api = stubTokensApi();
    api.failNext('POST', '/api/api-tokens', 'never');
    renderPage();
    await screen.findByRole('heading', { name: 'No API tokens yet' });
    const dialog = await openCreateDialog();
    fireEvent.change(dialog.getByLabelText(/^Name/), { target: { value: 'Bot' } });
    fireEvent.click(dialog.getByRole('checkbox', { name: 'activity:read' }));
    fireEvent.click(dialog.getByRole('button', { name: 'Create Token' }));
    await waitFor(() =>
      expect(
        (dialog.getByRole('button', { name: 'Create Token' }) as HTMLButtonElement).disabled,
      ).toBe(true),
    );
    fireEvent.click(dialog.getByRole('button', { name: 'Create Token' }));
    expect(api.sent('POST', '/api/api-tokens')).toHaveLength(1);
  });

  it('revokes only after a confirmation that names the token, then refreshes the list', async () => {
    const api = stubTokensApi([token()]);
    renderPage();
    const revoke = within(await screen.findByTestId(`api-token-row-${token().id}`)).getByRole(
      'button',
      { name: 'Revoke Shop sync' },
    );

    fireEvent.click(revoke);
    const confirm = within(await screen.findByRole('alertdialog', { name: 'Revoke API token?' }));
    expect(confirm.getByText('Shop sync')).toBeTruthy();
    expect(confirm.getByText(/stops working at once/)).toBeTruthy();
    fireEvent.click(confirm.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(api.sent('DELETE', `/api/api-tokens/${token().id}`)).toEqual([]);

    fireEvent.click(revoke);
    fireEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Revoke Token' }),
    );
    expect(await findToast('API token revoked successfully')).toBeTruthy();
    expect(api.sent('DELETE', `/api/api-tokens/${token().id}`)).toHaveLength(1);
    expect(await screen.findByRole('heading', { name: 'No API tokens yet' })).toBeTruthy();
  });

  it("shows the server's refusal of a revocation, or 'Failed to revoke API token'", async () => {
    const api = stubTokensApi([token()]);
    renderPage();
    const revoke = async () => {
      fireEvent.click(
        within(await screen.findByTestId(`api-token-row-${token().id}`)).getByRole('button', {
          name: 'Revoke Shop sync',
        }),
      );
      fireEvent.click(
        within(await screen.findByRole('alertdialog')).getByRole('button', {
          name: 'Revoke Token',
        }),
      );
    };
    api.failNext('DELETE', `/api/api-tokens/${token().id}`, {
      status: 404,
      body: { message: 'API token not found', code: 'NOT_FOUND' },
    });
    await revoke();
    expect(await findToast('API token not found')).toBeTruthy();
    api.failNext('DELETE', `/api/api-tokens/${token().id}`, { status: 502, body: null });
    await revoke();
    expect(await findToast('Failed to revoke API token')).toBeTruthy();
  });

  it('says so to an account without Manage API Tokens, and asks nothing', () => {
    const api = stubTokensApi([token()]);
    const { queryClient } = renderPage({
      role: 'admin',
      permissions: ['manage_users', 'edit_code'],
    });
    expect(screen.getByRole('heading', { level: 1, name: 'API Tokens' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe(NO_API_TOKENS_PERMISSION);
    expect(screen.queryByRole('button', { name: 'Create Token' })).toBeNull();
    // No query was created, so none can be sent later either.
    expect(queryClient.getQueryCache().findAll({ queryKey: API_TOKENS_QUERY_KEY })).toEqual([]);
    expect(api.sentTo('/api/')).toEqual([]);
  });

  it('lists the tokens for a holder of Manage API Tokens who is not the owner', async () => {
    stubTokensApi([token()]);
    renderPage({ role: 'admin', permissions: ['manage_api_tokens'] });
    expect(await screen.findByTestId(`api-token-row-${token().id}`)).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
