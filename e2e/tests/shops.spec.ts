import { createHmac } from 'node:crypto';
import type { Application, Plan, ShopConnection } from '@latchkey/contracts';
import { chooseOption } from './support/controls.ts';
import {
  checkDialog,
  checkLayout,
  forEachTheme,
  forEachViewport,
} from './support/layout-checks.ts';
import { createApplication, ownerPost } from './support/owner-api.ts';
import { consoleOriginHeaders, signInAsNewOwner } from './support/owners.ts';
import { toast } from './support/toast.ts';
import { expect, test, type Locator, type Page } from './support/test.ts';

const SELLIX_SECRET = 'sellix-webhook-secret-0123456789';

/** An application with one plan, its management page open on the Shop tab. */
async function seed(page: Page, ownerName: string) {
  await signInAsNewOwner(page, ownerName);
  const application = await createApplication(page, 'Shop Desk');
  const plan = await ownerPost<Plan>(page, `/api/applications/${application.id}/plans`, {
    name: 'Pro Monthly',
    durationDays: 30,
  });
  return { application, plan };
}

async function openShopTab(page: Page, application: Application) {
  await page.goto(`/app/${application.id}`);
  await page.getByRole('tab', { name: 'Shop' }).click();
}

/** Maps the next empty product row of a connection's dialog to the plan. */
async function mapProduct(page: Page, dialog: Locator, row: number, productId: string) {
  await dialog.getByRole('button', { name: 'Add Product' }).click();
  const product = dialog.getByRole('group', { name: `Product ${row}` });
  await product.getByLabel('Product ID').fill(productId);
  await chooseOption(
    page,
    product.getByRole('combobox', { name: /^Plan/ }),
    'Pro Monthly (30 days)',
  );
}

/** Delivers a Sellix dynamic-product event as Sellix signs it, straight to the connection's URL. */
async function deliverSellixEvent(
  page: Page,
  webhookUrl: string,
  productId: string,
  orderId: string,
  /** More of the order (its total and currency). */
  order: Record<string, unknown> = {},
) {
  const body = JSON.stringify({
    event: 'product:dynamic',
    data: { uniqid: orderId, customer_email: 'late.buyer@example.com', quantity: 1, ...order },
  });
  const response = await page.request.post(new URL(webhookUrl).pathname, {
    headers: {
      'content-type': 'application/json',
      'x-sellix-signature': createHmac('sha512', SELLIX_SECRET).update(body).digest('hex'),
      'x-sellix-product-id': productId,
    },
    data: body,
  });
  expect(response.status()).toBe(200);
  return response.text();
}

test.describe('shop tab of the application page', () => {
  test('connects shops, sends a test order, and processes an order once its product is mapped', async ({
    page,
    context,
  }) => {
    test.setTimeout(120_000);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const { application } = await seed(page, 'Sally Shop');
    await openShopTab(page, application);
    await expect(page.getByRole('heading', { name: 'No shops connected' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'No orders yet' })).toBeVisible();

    // A Sellix shop: its secret typed in, a product mapped to the plan.
    await page.getByRole('button', { name: 'Connect a Shop' }).first().click();
    const connect = page.getByRole('dialog', { name: 'Connect a Shop' });
    await chooseOption(page, connect.getByRole('combobox', { name: 'Shop' }), 'Sellix');
    await connect.getByLabel(/^Name/).fill('Sellix Store');
    await connect.getByRole('button', { name: 'Connect a Shop' }).click();
    await expect(connect.getByText('Please paste the signing secret the shop shows')).toBeVisible();
    await connect.getByLabel(/^Signing secret/).fill(SELLIX_SECRET);
    await mapProduct(page, connect, 1, 'prod-pro');
    await connect.getByRole('button', { name: 'Connect a Shop' }).click();
    await expect(toast(page, 'Shop connected successfully')).toBeVisible();
    const connected = page.getByRole('dialog', { name: 'Shop Connected' });
    const sellixUrl = await connected.getByRole('textbox', { name: 'URL to paste' }).inputValue();
    expect(sellixUrl).toMatch(/\/api\/shops\/[A-Za-z0-9_-]{10,64}$/);
    await expect(connected.getByRole('textbox', { name: 'Signing secret' })).toHaveCount(0);
    await connected.getByRole('button', { name: 'Done' }).click();

    const sellix = page.getByRole('listitem', { name: 'Sellix Store' });
    await expect(sellix.getByTestId('shop-webhook-url')).toHaveText(sellixUrl);
    await expect(sellix).toContainText('1 product mapped');

    // A test event: a paid order with one key.
    await sellix.getByRole('button', { name: 'Send Test Event' }).click();
    const testing = page.getByRole('dialog', { name: 'Send Test Event' });
    await testing.getByLabel(/^Buyer e-mail/).fill('buyer@example.com');
    await testing.getByRole('button', { name: 'Send Test Event' }).click();
    await expect(toast(page, /^Test order test_[0-9a-f]+: Paid, 1 key\.$/)).toBeVisible();
    const orders = page.getByRole('region', { name: 'Orders' });
    const paidRow = orders.getByRole('row', { name: /buyer@example\.com/ });
    await expect(paidRow).toContainText('Paid');
    await expect(paidRow).toContainText('$19.00');
    await expect(paidRow.getByRole('cell').last()).toHaveText('1');

    // Its detail: the key (masked, revealed on request) and the event that made it.
    await paidRow.getByRole('button', { name: /^Open order test_/ }).click();
    const detail = page.getByRole('dialog', { name: 'Order' });
    await expect(detail.getByRole('list', { name: 'Keys' }).getByRole('listitem')).toHaveCount(1);
    await expect(detail.getByRole('list', { name: 'Events' })).toContainText('product:dynamic');
    await expect(detail.getByRole('list', { name: 'Events' })).toContainText('minted 1 key');
    const key = detail.getByRole('list', { name: 'Keys' }).locator('code');
    const masked = await key.textContent();
    await detail.getByRole('button', { name: 'Reveal key' }).click();
    await expect(key).not.toHaveText(masked!);
    await page.keyboard.press('Escape');

    // A Lemon Squeezy shop: its signing secret generated, shown once.
    await page.getByRole('button', { name: 'Connect a Shop' }).first().click();
    await chooseOption(page, connect.getByRole('combobox', { name: 'Shop' }), 'Lemon Squeezy');
    await connect.getByLabel(/^Name/).fill('Lemon Store');
    await connect.getByRole('button', { name: 'Connect a Shop' }).click();
    await expect(
      connected.getByText(/only time the generated signing secret is shown/),
    ).toBeVisible();
    const secret = await connected.getByRole('textbox', { name: 'Signing secret' }).inputValue();
    expect(secret.length).toBeGreaterThanOrEqual(32);
    await connected.getByRole('button', { name: 'Copy secret' }).click();
    await expect(toast(page, 'Secret copied to clipboard')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await connected.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByRole('listitem', { name: 'Lemon Store' })).toContainText(
      'Lemon Squeezy',
    );

    // Sellix sells a product mapped to no plan: the order waits, the buyer is told it comes by mail.
    const waitingId = `sx-${Date.now()}`;
    expect(await deliverSellixEvent(page, sellixUrl, 'prod-new', waitingId)).toMatch(
      /licence key will be sent to you by e-mail/,
    );
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(sellix).toContainText('1 order needs mapping');
    await sellix.getByRole('button', { name: 'Show Them' }).click();
    await expect(page.getByRole('combobox', { name: 'Status' })).toHaveText('Needs mapping');
    await expect(orders.getByRole('row', { name: new RegExp(waitingId) })).toContainText(
      'Needs mapping',
    );

    // Mapped, then processed: paid, with its key.
    await sellix.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Shop Connection' });
    await mapProduct(page, edit, 2, 'prod-new');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await expect(toast(page, 'Shop connection updated successfully')).toBeVisible();
    await expect(sellix).toContainText('2 products mapped');

    await orders.getByRole('button', { name: `Open order ${waitingId}` }).click();
    await detail.getByRole('button', { name: 'Process Order' }).click();
    await expect(toast(page, 'Order processed: its keys are minted')).toBeVisible();
    await expect(detail.getByText('Paid', { exact: true })).toBeVisible();
    await expect(detail.getByRole('list', { name: 'Keys' }).getByRole('listitem')).toHaveCount(1);
    await expect(detail.getByRole('button', { name: 'Process Order' })).toHaveCount(0);
    await page.keyboard.press('Escape');
    await chooseOption(page, page.getByRole('combobox', { name: 'Status' }), 'Paid');
    await expect(orders.getByRole('row', { name: new RegExp(waitingId) })).toContainText('Paid');
    await expect(sellix).not.toContainText('needs mapping');
  });

  test('at 390 and 1280 px in both themes: the tab, its dialogs, the phone cards and the Sales card; axe clean', async ({
    page,
  }, testInfo) => {
    test.setTimeout(180_000);
    const { application, plan } = await seed(page, 'Lola Layout');
    const base = `/api/applications/${application.id}`;
    const connection = await ownerPost<ShopConnection>(page, `${base}/shop-connections`, {
      provider: 'sellix',
      name: 'Sellix Store',
      secret: SELLIX_SECRET,
      products: [{ productId: 'prod-pro', planId: plan.id, quantity: 1 }],
    });
    const sent = await page.request.post(`${base}/shop-connections/${connection.id}/test-event`, {
      headers: consoleOriginHeaders(page),
      data: { productId: 'prod-pro', buyerEmail: 'buyer@example.com' },
    });
    expect(sent.status()).toBe(200);
    await deliverSellixEvent(page, connection.webhookUrl, 'prod-unmapped', 'sx-layout');
    // A live sale, which the dashboard's Sales card sums (the test event is left out of it).
    await deliverSellixEvent(page, connection.webhookUrl, 'prod-pro', 'sx-sold', {
      total: 19.99,
      currency: 'USD',
    });

    const problems: string[] = [];
    await forEachTheme(page, async (theme) => {
      await forEachViewport(page, async (viewport) => {
        const label = `shops-${viewport.name}-${theme}`;
        await openShopTab(page, application);
        await expect(page.getByRole('listitem', { name: 'Sellix Store' })).toContainText(
          '1 order needs mapping',
        );
        const orders = page.getByRole(viewport.name === 'phone' ? 'list' : 'region', {
          name: 'Orders',
        });
        // On a phone each order is a card that still says its id, status and buyer.
        await expect(orders).toContainText('sx-layout');
        await expect(orders).toContainText('Needs mapping');
        await expect(orders).toContainText('buyer@example.com');
        await checkLayout(page, label, problems, { testInfo });

        await orders.getByRole('button', { name: 'Open order sx-layout' }).click();
        const detail = page.getByRole('dialog', { name: 'Order' });
        await expect(detail.getByRole('button', { name: 'Process Order' })).toBeVisible();
        await expect(detail.getByRole('list', { name: 'Events' })).toBeVisible();
        await checkDialog(page, detail, `${label}-order`, problems, {
          testInfo,
          width: viewport.width,
        });
        await page.keyboard.press('Escape');

        await page.getByRole('button', { name: 'Connect a Shop' }).first().click();
        const connect = page.getByRole('dialog', { name: 'Connect a Shop' });
        await connect.getByRole('button', { name: 'Add Product' }).click();
        await checkDialog(page, connect, `${label}-connect`, problems, {
          testInfo,
          width: viewport.width,
        });
        await page.keyboard.press('Escape');

        await page.goto('/dashboard');
        await expect(page.getByTestId('sales-USD')).toContainText('$19.99');
        await expect(page.getByTestId('sales-USD')).toContainText('1 order');
        await checkLayout(page, `${label}-dashboard`, problems, { testInfo });
      });
    });
    expect(problems).toEqual([]);
  });
});
