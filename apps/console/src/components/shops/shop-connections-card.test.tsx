import type { CreatedShopConnection, ShopConnection } from '@latchkey/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { findToast } from '@/test/find-toast.ts';
import { stubResizeObserver, stubScrollIntoView } from '@/test/jsdom-stubs.ts';
import { openDialog } from '@/test/open-dialog.ts';
import { renderSignedIn } from '@/test/render-with-providers.tsx';
import { resetEachTest } from '@/test/reset-each-test.ts';
import { createShopConnection, createShopOrder } from '@/test/shop-test-data.ts';
import {
  createPlan,
  jsonResponse,
  orbit,
  pagedResponse,
  recordOwnerApi,
} from '@/test/stub-owner-api.ts';
import { SHOP_SECRET_SHOWN_ONCE } from './shop-connected-dialog.tsx';
import { ShopPanel } from './shop-panel.tsx';

const BASE = '/api/applications/7';
const CONNECTIONS = `${BASE}/shop-connections`;
const pro = createPlan(1, { name: 'Pro' });

/** A stand-in owner API with `connections` in memory; POST answers `created`. */
function stubShopApi(
  initial: ShopConnection[] = [],
  { created }: { created?: (body: Record<string, unknown>) => CreatedShopConnection } = {},
) {
  let connections = [...initial];
  return recordOwnerApi(({ method, url, body }) => {
    if (url.pathname === `${BASE}/plans`) return jsonResponse(200, [pro]);
    if (url.pathname === `${BASE}/orders`) return pagedResponse([]);
    if (url.pathname === CONNECTIONS && method === 'GET') return jsonResponse(200, connections);
    if (url.pathname === CONNECTIONS && method === 'POST' && created) {
      const answer = created(body as Record<string, unknown>);
      connections = [...connections, { ...answer }];
      return jsonResponse(201, answer);
    }
    const one = connections.find(({ id }) => url.pathname.startsWith(`${CONNECTIONS}/${id}`));
    if (one && method === 'DELETE') {
      connections = connections.filter(({ id }) => id !== one.id);
      return jsonResponse(200, { success: true, message: 'Shop connection deleted' });
    }
    if (one && method === 'PUT') {
      const changes = body as Partial<ShopConnection> & { rotateUrlToken?: boolean };
      const updated = {
        ...one,
        ...(changes.products ? { products: changes.products } : {}),
        ...(changes.rotateUrlToken ? { webhookUrl: `${one.webhookUrl}-new` } : {}),
        updatedAt: '2026-11-03T00:00:00.000Z',
      };
      connections = connections.map((row) => (row.id === one.id ? updated : row));
      return jsonResponse(200, updated);
    }
    if (one && url.pathname.endsWith('/test-event')) {
      return jsonResponse(200, {
        statusCode: 200,
        order: createShopOrder(9, { providerOrderId: 'test_ab12', testMode: true }),
      });
    }
    return undefined;
  });
}

const renderPanel = () => renderSignedIn(<ShopPanel application={orbit} />);

async function choose(
  dialog: ReturnType<typeof within>,
  combobox: string | RegExp,
  option: string,
) {
  fireEvent.click(dialog.getByRole('combobox', { name: combobox }));
  fireEvent.click(await screen.findByRole('option', { name: option }));
}

describe('ShopConnectionsCard', () => {
  resetEachTest(stubResizeObserver, stubScrollIntoView);

  it('says no shop is connected, and offers to connect one', async () => {
    stubShopApi();
    renderPanel();
    expect(await screen.findByRole('heading', { name: 'No shops connected' })).toBeTruthy();
    expect(
      screen.getByText("No shop is connected yet. Connect one to sell this application's plans."),
    ).toBeTruthy();
    expect(screen.getAllByRole('button', { name: 'Connect a Shop' })).toHaveLength(2);
    expect(await screen.findByRole('heading', { name: 'No orders yet' })).toBeTruthy();
  });

  it('connects a Sellix shop: the secret is required, the mapping sent, the URL shown', async () => {
    const api = stubShopApi([], {
      created: (body) => ({
        ...createShopConnection(1, {
          name: String(body.name),
          products: body.products as ShopConnection['products'],
        }),
        secret: null,
      }),
    });
    renderPanel();
    await screen.findByRole('heading', { name: 'No shops connected' });
    const dialog = await openDialog('Connect a Shop');
    await choose(dialog, 'Shop', 'Sellix');
    // The provider's own steps: the event Sellix asks with.
    expect(dialog.getAllByText('product:dynamic').length).toBeGreaterThan(0);
    expect(dialog.queryByLabelText(/^API key/)).toBeNull();
    fireEvent.change(dialog.getByRole('textbox', { name: /^Name/ }), {
      target: { value: 'Sellix store' },
    });
    fireEvent.click(dialog.getByRole('button', { name: 'Connect a Shop' }));
    // Checked before sending, said at the secret.
    expect(await dialog.findByText('Please paste the signing secret the shop shows')).toBeTruthy();
    expect(dialog.getByLabelText(/^Signing secret/).getAttribute('aria-invalid')).toBe('true');
    expect(api.sent('POST')).toHaveLength(0);

    fireEvent.change(dialog.getByLabelText(/^Signing secret/), { target: { value: 'shhh-123' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Add Product' }));
    const row = within(dialog.getByRole('group', { name: 'Product 1' }));
    fireEvent.click(dialog.getByRole('button', { name: 'Connect a Shop' }));
    expect(await dialog.findByText('Product 1: productId is required')).toBeTruthy();
    fireEvent.change(row.getByRole('textbox', { name: 'Product ID' }), {
      target: { value: 'prod-pro' },
    });
    await choose(dialog, /^Plan/, 'Pro (Lifetime)');
    fireEvent.change(row.getByRole('spinbutton', { name: 'Keys per unit' }), {
      target: { value: '2' },
    });
    fireEvent.click(dialog.getByRole('button', { name: 'Connect a Shop' }));

    const connected = within(await screen.findByRole('dialog', { name: 'Shop Connected' }));
    expect(api.sent('POST', CONNECTIONS)[0]!.body).toEqual({
      provider: 'sellix',
      name: 'Sellix store',
      testMode: false,
      secret: 'shhh-123',
      apiKey: null,
      products: [{ productId: 'prod-pro', planId: pro.id, quantity: 2 }],
    });
    expect(
      (connected.getByRole('textbox', { name: 'URL to paste' }) as HTMLInputElement).value,
    ).toBe(createShopConnection(1).webhookUrl);
    expect(connected.queryByText(SHOP_SECRET_SHOWN_ONCE)).toBeNull();
    expect(await findToast('Shop connected successfully')).toBeTruthy();
    fireEvent.click(connected.getByRole('button', { name: 'Done' }));
    const item = within(await screen.findByRole('listitem', { name: 'Sellix store' }));
    expect(item.getByText('1 product mapped · Secret ends in …c0de')).toBeTruthy();
  });

  it("shows Lemon Squeezy's generated secret once, with a copy button", async () => {
    stubShopApi([], {
      created: (body) => ({
        ...createShopConnection(2, { provider: 'lemonsqueezy', name: String(body.name) }),
        secret: 'generated-secret-0123456789',
      }),
    });
    renderPanel();
    await screen.findByRole('heading', { name: 'No shops connected' });
    const dialog = await openDialog('Connect a Shop');
    await choose(dialog, 'Shop', 'Lemon Squeezy');
    expect(dialog.getByLabelText('Signing secret (optional)')).toBeTruthy();
    fireEvent.change(dialog.getByRole('textbox', { name: /^Name/ }), {
      target: { value: 'Lemons' },
    });
    fireEvent.click(dialog.getByRole('button', { name: 'Connect a Shop' }));
    const connected = within(await screen.findByRole('dialog', { name: 'Shop Connected' }));
    expect(connected.getByText(SHOP_SECRET_SHOWN_ONCE)).toBeTruthy();
    expect(
      (connected.getByRole('textbox', { name: 'Signing secret' }) as HTMLInputElement).value,
    ).toBe('generated-secret-0123456789');
    expect(connected.getByRole('button', { name: 'Copy secret' })).toBeTruthy();
  });

  it('shows a refusal that names a field at that field, and toasts any other', async () => {
    const api = stubShopApi([], {
      created: () => ({ ...createShopConnection(3), secret: null }),
    });
    renderPanel();
    await screen.findByRole('heading', { name: 'No shops connected' });
    const dialog = await openDialog('Connect a Shop');
    await choose(dialog, 'Shop', 'Gumroad');
    // Gumroad signs nothing: no secret to paste.
    expect(dialog.queryByLabelText(/^Signing secret/)).toBeNull();
    fireEvent.change(dialog.getByRole('textbox', { name: /^Name/ }), {
      target: { value: 'Gum' },
    });
    api.refuseNext(
      'POST',
      CONNECTIONS,
      400,
      'products: A mapped plan was not found in this application',
    );
    fireEvent.click(dialog.getByRole('button', { name: 'Connect a Shop' }));
    expect(await dialog.findByText('A mapped plan was not found in this application')).toBeTruthy();
    expect(
      dialog.getByRole('group', { name: 'Products and Plans' }).getAttribute('aria-invalid'),
    ).toBe('true');

    api.refuseNext('POST', CONNECTIONS, 500, 'Database is restarting');
    fireEvent.click(dialog.getByRole('button', { name: 'Connect a Shop' }));
    expect(await findToast('Database is restarting')).toBeTruthy();
    expect(dialog.queryByText('A mapped plan was not found in this application')).toBeNull();
  });

  it('deletes after a confirmation that says the orders stay', async () => {
    const api = stubShopApi([createShopConnection(1)]);
    renderPanel();
    const item = within(await screen.findByRole('listitem', { name: 'Store 1' }));
    fireEvent.click(item.getByRole('button', { name: 'Delete' }));
    const confirm = within(
      await screen.findByRole('alertdialog', { name: 'Delete shop connection?' }),
    );
    expect(confirm.getByText(/Its orders and the licence keys they minted stay/)).toBeTruthy();
    fireEvent.click(confirm.getByRole('button', { name: 'Delete Connection' }));
    expect(await findToast('Shop connection deleted successfully')).toBeTruthy();
    expect(api.sent('DELETE')).toHaveLength(1);
    expect(await screen.findByRole('heading', { name: 'No shops connected' })).toBeTruthy();
  });

  it('gives Gumroad a new URL after a confirmation; others have no such action', async () => {
    const api = stubShopApi([
      createShopConnection(1),
      createShopConnection(2, { provider: 'gumroad', name: 'Gum', secretHint: null }),
    ]);
    renderPanel();
    const sellix = within(await screen.findByRole('listitem', { name: 'Store 1' }));
    expect(sellix.queryByRole('button', { name: 'New URL' })).toBeNull();
    const gum = within(screen.getByRole('listitem', { name: 'Gum' }));
    fireEvent.click(gum.getByRole('button', { name: 'New URL' }));
    fireEvent.click(
      within(await screen.findByRole('alertdialog', { name: 'Make a new URL?' })).getByRole(
        'button',
        { name: 'Make New URL' },
      ),
    );
    expect(await findToast('New URL made: paste it into Gumroad as the Ping URL')).toBeTruthy();
    expect(api.sent('PUT')[0]!.body).toEqual({ rotateUrlToken: true });
    await waitFor(() => expect(gum.getByTestId('shop-webhook-url').textContent).toMatch(/-new$/));
  });

  it('sends a test event of a mapped product and toasts the order it made', async () => {
    const api = stubShopApi([
      createShopConnection(1, {
        products: [{ productId: 'prod-pro', planId: pro.id, quantity: 1 }],
        ordersNeedingMapping: 2,
      }),
    ]);
    renderPanel();
    const item = within(await screen.findByRole('listitem', { name: 'Store 1' }));
    expect(item.getByText('2 orders need mapping')).toBeTruthy();
    fireEvent.click(item.getByRole('button', { name: 'Send Test Event' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Send Test Event' }));
    expect(dialog.getByRole('combobox', { name: /^Product/ }).textContent).toBe('prod-pro → Pro');
    fireEvent.change(dialog.getByRole('textbox', { name: /^Buyer e-mail/ }), {
      target: { value: 'buyer@example.com' },
    });
    fireEvent.click(dialog.getByRole('button', { name: 'Send Test Event' }));
    expect(await findToast('Test order test_ab12: Paid, 1 key.')).toBeTruthy();
    expect(api.sent('POST')[0]!.body).toEqual({
      productId: 'prod-pro',
      buyerEmail: 'buyer@example.com',
    });
  });
});
