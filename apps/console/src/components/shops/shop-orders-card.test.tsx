import type { ShopOrder } from '@latchkey/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { findToast } from '@/test/find-toast.ts';
import { stubResizeObserver, stubScrollIntoView } from '@/test/jsdom-stubs.ts';
import { renderSignedIn } from '@/test/render-with-providers.tsx';
import { resetEachTest } from '@/test/reset-each-test.ts';
import { createShopOrder, createShopOrderDetail } from '@/test/shop-test-data.ts';
import {
  jsonResponse,
  neverAnswered,
  orbit,
  pagedResponse,
  recordOwnerApi,
} from '@/test/stub-owner-api.ts';
import { ShopPanel } from './shop-panel.tsx';

const ORDERS = '/api/applications/7/orders';

function stubOrdersApi(initial: ShopOrder[]) {
  let orders = [...initial];
  return recordOwnerApi(({ method, url }) => {
    if (url.pathname === '/api/applications/7/shop-connections') return jsonResponse(200, []);
    if (url.pathname === '/api/applications/7/plans') return jsonResponse(200, []);
    if (url.pathname === ORDERS) {
      const search = url.searchParams.get('search') ?? '';
      const status = url.searchParams.get('status');
      return pagedResponse(
        orders.filter(
          (order) =>
            (!status || order.status === status) &&
            (order.providerOrderId.includes(search) || (order.buyerEmail ?? '').includes(search)),
        ),
      );
    }
    const order = orders.find(({ id }) => url.pathname.startsWith(`${ORDERS}/${id}`));
    if (order && method === 'POST' && url.pathname.endsWith('/process')) {
      const processed: ShopOrder = {
        ...order,
        status: 'paid',
        licenseIds: ['50000000-0000-4000-8000-000000000777'],
      };
      orders = orders.map((row) => (row.id === order.id ? processed : row));
      return jsonResponse(200, processed);
    }
    if (order && method === 'GET') return jsonResponse(200, createShopOrderDetail(order));
    if (url.pathname.startsWith('/api/applications/7/licenses/')) {
      return jsonResponse(200, { key: 'ABCD-EFGH-IJKL-WXYZ' });
    }
    return undefined;
  });
}

const renderPanel = () => renderSignedIn(<ShopPanel application={orbit} />);

describe('ShopOrdersCard', () => {
  resetEachTest(stubResizeObserver, stubScrollIntoView);

  it('shows a skeleton while the first page loads', async () => {
    recordOwnerApi(() => neverAnswered());
    renderPanel();
    expect(await screen.findByRole('status', { name: 'Loading orders' })).toBeTruthy();
  });

  it('lists orders with their amount in their currency, and tells no match from none', async () => {
    const api = stubOrdersApi([
      createShopOrder(1),
      createShopOrder(2, { amount: 1500, currency: 'JPY', status: 'refunded' }),
      createShopOrder(3, {
        amount: null,
        currency: null,
        buyerEmail: null,
        status: 'awaiting_email',
        licenseIds: [],
      }),
    ]);
    renderPanel();
    const table = await screen.findByRole('region', { name: 'Orders' });
    const first = within(screen.getByTestId(`shop-order-row-${createShopOrder(1).id}`));
    expect(first.getByText('$19.00')).toBeTruthy();
    expect(first.getByText('Paid')).toBeTruthy();
    expect(within(table).getByText('¥1,500')).toBeTruthy();
    expect(within(table).getByText('Awaiting e-mail')).toBeTruthy();
    expect(within(table).getByText('Not known yet')).toBeTruthy();

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search orders' }), {
      target: { value: 'nobody' },
    });
    expect(await screen.findByRole('heading', { name: 'No matching orders' })).toBeTruthy();
    expect(api.sent('GET', ORDERS).some(({ path }) => path.includes('search=nobody'))).toBe(true);
  });

  it('opens an order waiting for a mapping, processes it, and reveals its key on request', async () => {
    const waiting = createShopOrder(4, { status: 'needs_mapping', licenseIds: [] });
    const api = stubOrdersApi([waiting]);
    renderPanel();
    fireEvent.click(await screen.findByRole('button', { name: 'Open order order-4' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Order' }));
    expect(await dialog.findByText('product:dynamic')).toBeTruthy();
    expect(dialog.getByText('No key was minted for this order.')).toBeTruthy();
    fireEvent.click(dialog.getByRole('button', { name: 'Process Order' }));
    expect(await findToast('Order processed: its keys are minted')).toBeTruthy();
    expect(api.sent('POST', `${ORDERS}/${waiting.id}/process`)).toHaveLength(1);
    expect(await dialog.findByText('••••-••••-••••-WXYZ')).toBeTruthy();
    expect(dialog.queryByRole('button', { name: 'Process Order' })).toBeNull();

    fireEvent.click(dialog.getByRole('button', { name: 'Reveal key' }));
    expect(await dialog.findByText('ABCD-EFGH-IJKL-WXYZ')).toBeTruthy();
    await waitFor(() =>
      expect(api.sent('GET').some(({ path }) => path.endsWith('/key'))).toBe(true),
    );
  });
});
