import {
  webhookEventLabels,
  webhookEventNames,
  type Webhook,
  type WebhookDelivery,
} from '@latchkey/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dismissToast } from '@/hooks/use-toast.ts';
import { findToast } from '@/test/find-toast.ts';
import { stubResizeObserver } from '@/test/jsdom-stubs.ts';
import { renderWithProviders, signedInAuth } from '@/test/render-with-providers.tsx';
import { jsonResponse, pagedResponse, stubRefusingOwnerApi } from '@/test/stub-owner-api.ts';
import { SENDING_LABEL } from '@/components/webhooks/webhook-deliveries-dialog.tsx';
import { WebhooksPage } from './webhooks-page.tsx';

const webhook = (overrides: Partial<Webhook> = {}): Webhook => ({
  id: 1,
  url: 'https://discord.com/api/webhooks/1/abc',
  secret: 'whsec_…wxyz',
  events: ['user_login'],
  isActive: true,
  applicationId: null,
  application: null,
  format: 'auto',
  disabledReason: null,
  createdAt: '2025-03-14T12:00:00.000Z',
  updatedAt: '2025-03-14T12:00:00.000Z',
  ...overrides,
});

const delivery = (index: number, overrides: Partial<WebhookDelivery> = {}): WebhookDelivery => ({
  id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
  event: 'user_login',
  status: 'succeeded',
  attempts: 1,
  lastStatus: 204,
  lastError: null,
  lastDurationMs: 31,
  nextAttemptAt: null,
  createdAt: '2025-03-14T12:00:00.000Z',
  completedAt: '2025-03-14T12:00:01.000Z',
  isSending: false,
  ...overrides,
});

type Answer = { status: number; body?: unknown; text?: string } | 'network-error';

/**
 * A stand-in for the owner API of packages/contracts/src/webhooks.ts, holding its webhooks in
 * memory so lists refresh after mutations as they would. `failNext` answers the next request
 * to `METHOD /path` with an error instead.
 */
function stubWebhooksApi({
  webhooks = [] as Webhook[],
  deliveries = [] as WebhookDelivery[],
} = {}) {
  const state = { webhooks: [...webhooks] };
  const { sent, refuseNext } = stubRefusingOwnerApi(({ method, url, body }) => {
    const path = url.pathname;
    if (path === '/api/applications') return jsonResponse(200, []);
    if (path === '/api/webhooks' && method === 'GET') return jsonResponse(200, state.webhooks);
    if (path === '/api/webhooks' && method === 'POST') {
      const request = body as Partial<Webhook>;
      const created = webhook({
        ...request,
        id: 100 + state.webhooks.length,
        secret: 'whsec_…new1',
        application: null,
      });
      state.webhooks = [created, ...state.webhooks];
      return jsonResponse(201, created);
    }
    if (path === '/api/test-webhook') {
      return jsonResponse(200, {
        success: true,
        message: 'Test webhook queued for 1 webhook. Check your chat channel.',
        queued: 1,
      });
    }
    const deliveryRetry = /^\/api\/webhooks\/(\d+)\/deliveries\/([\w-]+)\/retry$/.exec(path);
    if (deliveryRetry && method === 'POST') return jsonResponse(200, { success: true });
    const deliveryList = /^\/api\/webhooks\/(\d+)\/deliveries$/.exec(path);
    if (deliveryList) {
      const page = Number(url.searchParams.get('page') ?? 1);
      const pageSize = Number(url.searchParams.get('pageSize') ?? 50);
      return pagedResponse(deliveries.slice((page - 1) * pageSize, page * pageSize), {
        page,
        pageSize,
        total: deliveries.length,
      });
    }
    const secret = /^\/api\/webhooks\/(\d+)\/secret$/.exec(path);
    if (secret) return jsonResponse(200, { secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' });
    const one = /^\/api\/webhooks\/(\d+)$/.exec(path);
    if (one) {
      const id = Number(one[1]);
      const existing = state.webhooks.find((candidate) => candidate.id === id);
      if (!existing) return jsonResponse(404, { message: 'Webhook not found', code: 'NOT_FOUND' });
      if (method === 'DELETE') {
        state.webhooks = state.webhooks.filter((candidate) => candidate.id !== id);
        return jsonResponse(200, { success: true });
      }
      if (method === 'PUT') {
        const updated = {
          ...existing,
          ...(body as Partial<Webhook>),
          updatedAt: '2025-03-15T12:00:00.000Z',
        };
        state.webhooks = state.webhooks.map((candidate) =>
          candidate.id === id ? updated : candidate,
        );
        return jsonResponse(200, updated);
      }
    }
    return jsonResponse(404, { message: 'Not found', code: 'NOT_FOUND' });
  });

  return {
    sent: (method: string, path: string) =>
      sent.filter((request) => request.method === method && request.path === path),
    failNext: (method: string, path: string, answer: Answer) =>
      refuseNext(
        method,
        path,
        answer === 'network-error'
          ? new TypeError('Failed to fetch')
          : answer.text !== undefined
            ? new Response(answer.text, { status: answer.status })
            : jsonResponse(answer.status, answer.body),
      ),
  };
}

/** The words a control's aria-describedby names: its problem, its hint. */
function describedBy(control: HTMLElement): (string | null | undefined)[] {
  return (control.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent);
}

function renderPage() {
  return renderWithProviders(<WebhooksPage />, {
    path: '/webhooks',
    auth: signedInAuth(),
    toaster: true,
  });
}

/** The page with no webhooks yet, and its Create Webhook dialog open. */
async function openCreateDialog() {
  renderPage();
  await screen.findByRole('heading', { name: 'No webhooks configured' });
  fireEvent.click(screen.getByRole('button', { name: 'Create Webhook' }));
  return within(await screen.findByRole('dialog', { name: 'Create Webhook' }));
}

describe('WebhooksPage', { timeout: 30_000 }, () => {
  // Radix measures switches, checkboxes and menus; jsdom has none of it and sizes are not tested.
  beforeEach(() => {
    stubResizeObserver();
    dismissToast();
  });
  afterEach(() => vi.unstubAllGlobals());

  it("says 'No webhooks configured' when the owner has none", async () => {
    stubWebhooksApi();
    renderPage();
    expect(await screen.findByRole('heading', { name: 'No webhooks configured' })).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows a load failure in the server words and recovers on Try Again', async () => {
    const api = stubWebhooksApi({ webhooks: [webhook()] });
    api.failNext('GET', '/api/webhooks', {
      status: 500,
      body: { message: 'Database unavailable', code: 'INTERNAL' },
    });
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Error loading webhooks' })).toBeTruthy();
    expect(screen.getByText('Database unavailable')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByTestId('webhook-row-1')).toBeTruthy();
  });

  it("shows at most 3 event badges then '+N more', the status, its reason and the date", async () => {
    stubWebhooksApi({
      webhooks: [
        webhook({
          id: 1,
          events: ['user_login', 'login_failed', 'hwid_mismatch', 'account_expired', 'session_end'],
          applicationId: 7,
          application: { name: 'Orbit Client' },
          format: 'slack',
        }),
        webhook({
          id: 2,
          url: 'https://hooks.example.com/gone',
          events: ['user_register', 'login_blocked_ip', 'login_blocked_hwid'],
          isActive: false,
          disabledReason: 'The endpoint answered 410 Gone',
        }),
      ],
    });
    renderPage();

    const busy = within(await screen.findByTestId('webhook-row-1'));
    expect(busy.getByText('https://discord.com/api/webhooks/1/abc')).toBeTruthy();
    expect(busy.getByRole('button', { name: 'Copy webhook URL' })).toBeTruthy();
    for (const label of ['User Login', 'Login Failed', 'HWID Mismatch']) {
      expect(busy.getByText(label)).toBeTruthy();
    }
    expect(busy.queryByText('Account Expired')).toBeNull();
    expect(busy.getByText('+2 more').getAttribute('title')).toBe('Account Expired, Session Ended');
    expect(busy.getByText('Orbit Client')).toBeTruthy();
    expect(busy.getByText('Slack format')).toBeTruthy();
    expect(busy.getByText('Active')).toBeTruthy();
    expect(busy.getByText('3/14/2025')).toBeTruthy();

    const gone = within(screen.getByTestId('webhook-row-2'));
    expect(gone.getByText('User Registration')).toBeTruthy();
    expect(gone.getByText('IP Blocked')).toBeTruthy();
    expect(gone.getByText('HWID Blocked')).toBeTruthy();
    expect(gone.queryByText(/more$/)).toBeNull();
    expect(gone.getByText('All applications')).toBeTruthy();
    expect(gone.getByText('Inactive')).toBeTruthy();
    expect(gone.getByText('The endpoint answered 410 Gone')).toBeTruthy();
  });

  it('refuses a blank URL and no events at once, each at its field, and sends nothing', async () => {
    const api = stubWebhooksApi();
    const dialog = await openCreateDialog();
    const url = dialog.getByLabelText(/Webhook URL/);
    fireEvent.change(url, { target: { value: '   ' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Create Webhook' }));

    expect(dialog.getAllByRole('alert').map(({ textContent }) => textContent)).toEqual([
      'Please provide a webhook URL',
      'Choose at least one event',
    ]);
    expect(url.getAttribute('aria-invalid')).toBe('true');
    expect(describedBy(url)).toContain('Please provide a webhook URL');
    expect(describedBy(dialog.getByRole('checkbox', { name: 'User Login' }))).toEqual([
      'Choose at least one event',
    ]);
    await waitFor(() => expect(document.activeElement).toBe(url));
    expect(api.sent('POST', '/api/webhooks')).toEqual([]);
  });

  it("refuses a webhook without events with 'Choose at least one event', at the events", async () => {
    const api = stubWebhooksApi();
    const dialog = await openCreateDialog();
    fireEvent.change(dialog.getByLabelText(/Webhook URL/), {
      target: { value: 'https://hooks.example.com/latchkey' },
    });
    fireEvent.click(dialog.getByRole('button', { name: 'Create Webhook' }));

    expect(dialog.getByRole('alert').textContent).toBe('Choose at least one event');
    expect(describedBy(dialog.getByRole('group', { name: 'Events' }))).toEqual([
      'Choose at least one event',
    ]);
    const boxes = dialog.getAllByRole('checkbox');
    for (const box of boxes) expect(box.getAttribute('aria-invalid')).toBe('true');
    // The first box takes the focus: Space ticks it.
    await waitFor(() => expect(document.activeElement).toBe(boxes[0]));
    expect(dialog.getByLabelText(/Webhook URL/).hasAttribute('aria-invalid')).toBe(false);
    expect(api.sent('POST', '/api/webhooks')).toEqual([]);

    // Ticking an event forgets the problem.
    fireEvent.click(dialog.getByRole('checkbox', { name: 'User Login' }));
    expect(dialog.queryByRole('alert')).toBeNull();
    expect(boxes[0]!.hasAttribute('aria-invalid')).toBe(false);
  });

  it("places the server's refusal at the field it names, and focuses it", async () => {
    const api = stubWebhooksApi();
    const dialog = await openCreateDialog();
    const url = dialog.getByLabelText(/Webhook URL/);
    fireEvent.change(url, { target: { value: 'https://hooks.example.com/latchkey' } });
    fireEvent.click(dialog.getByRole('checkbox', { name: 'User Login' }));
    api.failNext('POST', '/api/webhooks', {
      status: 400,
      body: {
        message: 'URL must be at most 2048 characters',
        code: 'BAD_REQUEST',
        fields: [
          { field: 'url', message: 'Must be at most 2048 characters' },
          { field: 'events.0', message: 'Is not one of the allowed values' },
        ],
      },
    });
    fireEvent.click(dialog.getByRole('button', { name: 'Create Webhook' }));

    await waitFor(() => expect(url.getAttribute('aria-invalid')).toBe('true'));
    expect(describedBy(url)).toContain('Must be at most 2048 characters');
    expect(describedBy(dialog.getByRole('checkbox', { name: 'User Login' }))).toEqual([
      'Is not one of the allowed values',
    ]);
    await waitFor(() => expect(document.activeElement).toBe(url));
    expect(screen.getByRole('dialog', { name: 'Create Webhook' })).toBeTruthy();
    expect(api.sent('POST', '/api/webhooks')).toHaveLength(1);
  });

  it('creates a webhook with the chosen events, toasts, closes and lists it', async () => {
    const api = stubWebhooksApi();
    const dialog = await openCreateDialog();
    // Every event is offered with its label: the ten authentication events, the licence and
    // device events (licence checkout included), password_reset, email_verified and session_end.
    // One box per event the contracts name.
    expect(dialog.getAllByRole('checkbox')).toHaveLength(webhookEventNames.length);
    expect(dialog.getByRole('checkbox', { name: 'E-mail Verified' })).toBeTruthy();
    expect(dialog.getByRole('checkbox', { name: 'Device Released' })).toBeTruthy();
    expect(dialog.getByRole('checkbox', { name: 'Licence Checkout' })).toBeTruthy();
    fireEvent.change(dialog.getByLabelText(/Webhook URL/), {
      target: { value: '  https://hooks.example.com/latchkey  ' },
    });
    fireEvent.click(dialog.getByRole('checkbox', { name: 'Session Ended' }));
    fireEvent.click(dialog.getByRole('checkbox', { name: 'User Login' }));
    fireEvent.click(dialog.getByRole('button', { name: 'Create Webhook' }));

    expect(await findToast('Webhook created successfully')).toBeTruthy();
    expect(api.sent('POST', '/api/webhooks').map((request) => request.body)).toEqual([
      {
        url: 'https://hooks.example.com/latchkey',
        events: ['user_login', 'session_end'],
        isActive: true,
        applicationId: null,
        format: 'auto',
      },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const row = within(await screen.findByTestId('webhook-row-100'));
    expect(row.getByText('https://hooks.example.com/latchkey')).toBeTruthy();
    expect(row.getByText('Session Ended')).toBeTruthy();
  });

  it("shows the server's refusal, or 'Failed to create webhook', and keeps the dialog open", async () => {
    const api = stubWebhooksApi();
    const dialog = await openCreateDialog();
    fireEvent.change(dialog.getByLabelText(/Webhook URL/), {
      target: { value: 'https://10.0.0.8/hook' },
    });
    fireEvent.click(dialog.getByRole('checkbox', { name: 'User Login' }));
    api.failNext('POST', '/api/webhooks', {
      status: 400,
      body: { message: 'Webhook URLs may not point at private networks', code: 'VALIDATION' },
    });
    fireEvent.click(dialog.getByRole('button', { name: 'Create Webhook' }));
    expect(await findToast('Webhook URLs may not point at private networks')).toBeTruthy();
    expect(screen.getByText('Error', { selector: 'li *' })).toBeTruthy();
    // A refusal that names no field stays the toast's.
    expect(dialog.queryByRole('alert')).toBeNull();

    api.failNext('POST', '/api/webhooks', 'network-error');
    fireEvent.click(dialog.getByRole('button', { name: 'Create Webhook' }));
    expect(await findToast('Failed to create webhook')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Create Webhook' })).toBeTruthy();
  });

  it('edits a webhook from its saved values, keeping the secret when left blank', async () => {
    const api = stubWebhooksApi({
      webhooks: [webhook({ events: ['login_failed'], format: 'discord' })],
    });
    renderPage();
    fireEvent.click(
      within(await screen.findByTestId('webhook-row-1')).getByRole('button', {
        name: 'Edit webhook',
      }),
    );
    const dialog = within(await screen.findByRole('dialog', { name: 'Edit Webhook' }));
    const url = dialog.getByLabelText(/Webhook URL/) as HTMLInputElement;
    expect(url.value).toBe('https://discord.com/api/webhooks/1/abc');
    expect(
      dialog.getByRole('checkbox', { name: 'Login Failed' }).getAttribute('aria-checked'),
    ).toBe('true');
    expect(dialog.getByText(/Current secret: whsec_…wxyz/)).toBeTruthy();

    api.failNext('PUT', '/api/webhooks/1', { status: 502, text: 'Bad gateway' });
    fireEvent.click(dialog.getByRole('switch', { name: 'Active' }));
    fireEvent.click(dialog.getByRole('button', { name: 'Save Changes' }));
    expect(await findToast('Failed to update webhook')).toBeTruthy();

    fireEvent.change(url, { target: { value: 'https://discord.com/api/webhooks/2/def' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Save Changes' }));
    expect(await findToast('Webhook updated successfully')).toBeTruthy();
    expect(api.sent('PUT', '/api/webhooks/1').at(-1)?.body).toEqual({
      url: 'https://discord.com/api/webhooks/2/def',
      events: ['login_failed'],
      isActive: false,
      applicationId: null,
      format: 'discord',
    });
    const row = within(await screen.findByTestId('webhook-row-1'));
    expect(await row.findByText('https://discord.com/api/webhooks/2/def')).toBeTruthy();
    expect(row.getByText('Inactive')).toBeTruthy();
  });

  it('deletes only after confirming, and says so', async () => {
    const api = stubWebhooksApi({ webhooks: [webhook()] });
    renderPage();
    const deleteButton = within(await screen.findByTestId('webhook-row-1')).getByRole('button', {
      name: 'Delete webhook',
    });

    fireEvent.click(deleteButton);
    const confirm = within(await screen.findByRole('alertdialog', { name: 'Delete webhook?' }));
    expect(confirm.getByText('https://discord.com/api/webhooks/1/abc')).toBeTruthy();
    fireEvent.click(confirm.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(api.sent('DELETE', '/api/webhooks/1')).toEqual([]);

    api.failNext('DELETE', '/api/webhooks/1', {
      status: 404,
      body: { message: 'Webhook not found', code: 'NOT_FOUND' },
    });
    fireEvent.click(deleteButton);
    fireEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', {
        name: 'Delete Webhook',
      }),
    );
    expect(await findToast('Webhook not found')).toBeTruthy();

    fireEvent.click(
      within(await screen.findByTestId('webhook-row-1')).getByRole('button', {
        name: 'Delete webhook',
      }),
    );
    fireEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', {
        name: 'Delete Webhook',
      }),
    );
    expect(await findToast('Webhook deleted successfully')).toBeTruthy();
    expect(api.sent('DELETE', '/api/webhooks/1')).toHaveLength(2);
    expect(await screen.findByRole('heading', { name: 'No webhooks configured' })).toBeTruthy();
  });

  it("offers one test per event and toasts the server's message, or the fallback", async () => {
    const api = stubWebhooksApi({ webhooks: [webhook()] });
    renderPage();
    await screen.findByTestId('webhook-row-1');
    const trigger = screen.getByRole('button', { name: 'Test Webhook' });

    fireEvent.keyDown(trigger, { key: 'Enter' });
    const items = await screen.findAllByRole('menuitem');
    // Every event the contracts name, in their order (the end of a session last).
    expect(items.map((item) => item.textContent)).toEqual(
      webhookEventNames.map((event) => webhookEventLabels[event]),
    );
    fireEvent.click(screen.getByRole('menuitem', { name: 'Session Ended' }));
    expect(
      await findToast('Test webhook queued for 1 webhook. Check your chat channel.'),
    ).toBeTruthy();
    expect(api.sent('POST', '/api/test-webhook').map((request) => request.body)).toEqual([
      { event: 'session_end' },
    ]);

    api.failNext('POST', '/api/test-webhook', { status: 500, text: 'Internal Server Error' });
    await waitFor(() => expect((trigger as HTMLButtonElement).disabled).toBe(false));
    fireEvent.keyDown(trigger, { key: 'Enter' });
    fireEvent.click(await screen.findByRole('menuitem', { name: 'User Login' }));
    expect(await findToast('Failed to send test webhook')).toBeTruthy();
  });

  it('shows the delivery log with statuses and paging, and retries one delivery', async () => {
    const deliveries = [
      delivery(1, {
        event: 'login_failed',
        status: 'failed',
        attempts: 8,
        lastStatus: 500,
        lastError: 'Internal Server Error',
        completedAt: '2025-03-15T12:00:00.000Z',
      }),
      delivery(2, {
        event: 'hwid_mismatch',
        status: 'pending',
        attempts: 2,
        lastStatus: null,
        lastDurationMs: null,
        lastError: 'connect ECONNREFUSED',
        nextAttemptAt: '2025-03-14T12:30:00.000Z',
        completedAt: null,
        isSending: true,
      }),
      ...Array.from({ length: 23 }, (_, index) => delivery(index + 3)),
    ];
    const api = stubWebhooksApi({ webhooks: [webhook()], deliveries });
    renderPage();
    fireEvent.click(
      within(await screen.findByTestId('webhook-row-1')).getByRole('button', {
        name: 'Delivery log',
      }),
    );
    const dialog = within(await screen.findByRole('dialog', { name: 'Delivery Log' }));
    expect(await dialog.findByText('Showing 1–20 of 25')).toBeTruthy();
    expect(api.sent('GET', '/api/webhooks/1/deliveries?pageSize=20')).toHaveLength(1);

    const failed = within(dialog.getByTestId(`delivery-row-${deliveries[0]!.id}`));
    expect(failed.getByText('Login Failed')).toBeTruthy();
    expect(failed.getByText('Failed')).toBeTruthy();
    expect(failed.getByText('8')).toBeTruthy();
    expect(failed.getByText('HTTP 500')).toBeTruthy();
    expect(failed.getByText('Internal Server Error')).toBeTruthy();
    const pending = within(dialog.getByTestId(`delivery-row-${deliveries[1]!.id}`));
    expect(pending.getByText('Pending')).toBeTruthy();
    expect(pending.getByText('connect ECONNREFUSED')).toBeTruthy();
    // Its attempt is being sent: said beside its status, and no retry until it is done.
    expect(pending.getByText(SENDING_LABEL)).toBeTruthy();
    expect(
      pending
        .getByRole('button', { name: 'Retry HWID Mismatch delivery' })
        .hasAttribute('disabled'),
    ).toBe(true);
    expect(failed.queryByText(SENDING_LABEL)).toBeNull();
    // Its time and its next attempt.
    expect(pending.getAllByText(/Mar 14, 2025/, { selector: 'td' })).toHaveLength(2);
    expect(
      within(dialog.getByTestId(`delivery-row-${deliveries[2]!.id}`)).getByText('Succeeded'),
    ).toBeTruthy();

    fireEvent.click(failed.getByRole('button', { name: 'Retry Login Failed delivery' }));
    expect(await findToast('Delivery queued to be sent again')).toBeTruthy();
    const retryPath = `/api/webhooks/1/deliveries/${deliveries[0]!.id}/retry`;
    expect(api.sent('POST', retryPath)).toHaveLength(1);
    // The log is read again after a retry, so its new state shows.
    await waitFor(() =>
      expect(api.sent('GET', '/api/webhooks/1/deliveries?pageSize=20')).toHaveLength(2),
    );

    fireEvent.click(dialog.getByRole('button', { name: /Next/ }));
    expect(await dialog.findByText('Showing 21–25 of 25')).toBeTruthy();
    expect(api.sent('GET', '/api/webhooks/1/deliveries?page=2&pageSize=20')).toHaveLength(1);
  });

  it("says 'No deliveries yet' under a Refresh that reads the log again", async () => {
    const api = stubWebhooksApi({ webhooks: [webhook()] });
    renderPage();
    fireEvent.click(
      within(await screen.findByTestId('webhook-row-1')).getByRole('button', {
        name: 'Delivery log',
      }),
    );
    const dialog = within(await screen.findByRole('dialog', { name: 'Delivery Log' }));
    expect(await dialog.findByRole('heading', { name: 'No deliveries yet' })).toBeTruthy();
    expect(dialog.queryByRole('navigation', { name: 'Delivery log pages' })).toBeNull();
    expect(api.sent('GET', '/api/webhooks/1/deliveries?pageSize=20')).toHaveLength(1);

    fireEvent.click(dialog.getByRole('button', { name: 'Refresh' }));
    await waitFor(() =>
      expect(api.sent('GET', '/api/webhooks/1/deliveries?pageSize=20')).toHaveLength(2),
    );
  });

  it('shows the secret masked, reveals it on request, and copies the revealed secret', async () => {
    const writeText = vi.fn(async () => {});
    // jsdom has no clipboard.
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const api = stubWebhooksApi({ webhooks: [webhook()] });
    renderPage();
    fireEvent.click(
      within(await screen.findByTestId('webhook-row-1')).getByRole('button', {
        name: 'Signing secret',
      }),
    );
    const dialog = within(await screen.findByRole('dialog', { name: 'Signing Secret' }));
    expect(dialog.getByTestId('webhook-secret').textContent).toBe('whsec_…wxyz');
    expect(dialog.queryByRole('button', { name: 'Copy secret' })).toBeNull();
    expect(api.sent('GET', '/api/webhooks/1/secret')).toEqual([]);

    fireEvent.click(dialog.getByRole('button', { name: 'Reveal' }));
    await waitFor(() =>
      expect(dialog.getByTestId('webhook-secret').textContent).toBe(
        'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      ),
    );
    fireEvent.click(dialog.getByRole('button', { name: 'Copy secret' }));
    await waitFor(() =>
      expect(writeText).toHaveBeenCalledWith('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'),
    );

    fireEvent.click(dialog.getByRole('button', { name: 'Hide' }));
    expect(dialog.getByTestId('webhook-secret').textContent).toBe('whsec_…wxyz');
  });

  it('shows how to verify the signature with standardwebhooks', async () => {
    stubWebhooksApi();
    renderPage();
    await screen.findByRole('heading', { name: 'No webhooks configured' });
    expect(screen.getByText('Verify our signature')).toBeTruthy();
    expect(screen.getByText(/new Webhook\(secret\)/, { selector: 'code' }).textContent).toMatch(
      /webhook\.verify\(req\.body, req\.headers\)/,
    );
  });
});
