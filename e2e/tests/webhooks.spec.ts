import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { webhookEventNames, type Webhook as WebhookEntity } from '@latchkey/contracts';
import { Webhook } from 'standardwebhooks';
import { clientCall } from './support/client-api.ts';
import { checkDialog, PHONE } from './support/layout-checks.ts';
import { chooseAndExpectShown } from './support/controls.ts';
import { createApplication, ownerPost } from './support/owner-api.ts';
import { signInAsNewOwner } from './support/owners.ts';
import { expect, test, type Locator, type Page } from './support/test.ts';
import { toast } from './support/toast.ts';

interface ReceivedRequest {
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * The vendor's own endpoint, on loopback (allowed outside production mode): it records every
 * request and answers with `status`, which the test changes to make deliveries fail or succeed.
 */
async function startReceiver(): Promise<{
  url: string;
  received: ReceivedRequest[];
  setStatus: (status: number) => void;
  close: () => Promise<void>;
}> {
  const received: ReceivedRequest[] = [];
  let status = 204;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.statusCode = status;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/latchkey-hook`,
    received,
    setStatus: (next) => {
      status = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function webhookRow(page: Page, url: string): Locator {
  return page.getByRole('row').filter({ hasText: url });
}

/** The delivery log is read on demand: refresh until `check` holds. */
async function refreshUntil(dialog: Locator, check: () => Promise<void>): Promise<void> {
  await expect(async () => {
    await dialog.getByRole('button', { name: 'Refresh' }).click();
    await check();
  }).toPass({ timeout: 30_000 });
}

test.describe('webhooks', () => {
  test('creates, tests, logs and retries deliveries, reveals the secret, edits and deletes', async ({
    page,
  }) => {
    const receiver = await startReceiver();
    try {
      await signInAsNewOwner(page, 'Wanda Webhook');
      const orbit = await createApplication(page, 'Orbit Client');

      await page.goto('/webhooks');
      await expect(
        page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }),
      ).toHaveAttribute('aria-current', 'page');
      await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'No webhooks configured' })).toBeVisible();

      // A blank URL and no events: each message at its field, at once, and nothing is sent.
      const posts: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST' && request.url().endsWith('/api/webhooks')) {
          posts.push(request.url());
        }
      });
      await page.getByRole('button', { name: 'Create Webhook' }).click();
      const createDialog = page.getByRole('dialog', { name: 'Create Webhook' });
      const urlField = createDialog.getByRole('textbox', { name: 'Webhook URL' });
      await urlField.fill('   ');
      await createDialog.getByRole('button', { name: 'Create Webhook' }).click();
      await expect(createDialog.getByRole('alert')).toHaveText([
        'Please provide a webhook URL',
        'Choose at least one event',
      ]);
      await expect(urlField).toHaveAttribute('aria-invalid', 'true');
      await expect(urlField).toBeFocused();
      expect(posts).toEqual([]);

      // A webhook that would send nothing is refused at its events.
      await urlField.fill('https://10.0.0.8/x');
      await createDialog.getByRole('button', { name: 'Create Webhook' }).click();
      await expect(createDialog.getByRole('alert')).toHaveText('Choose at least one event');
      await expect(urlField).not.toHaveAttribute('aria-invalid');
      await expect(createDialog.getByRole('checkbox', { name: 'User Login' })).toHaveAttribute(
        'aria-invalid',
        'true',
      );
      expect(posts).toEqual([]);

      // A private address is refused by the server (SSRF guard), in an 'Error' toast.
      for (const event of ['User Login', 'Login Failed', 'HWID Mismatch', 'Session Ended']) {
        await createDialog.getByRole('checkbox', { name: event }).click();
      }
      await createDialog.getByRole('button', { name: 'Create Webhook' }).click();
      await expect(toast(page, 'Error')).toBeVisible();
      await expect(createDialog).toBeVisible();

      // Created for every application, four events, signed JSON.
      await createDialog.getByRole('textbox', { name: 'Webhook URL' }).fill(` ${receiver.url} `);
      await expect(createDialog.getByRole('combobox', { name: 'Application' })).toHaveText(
        'All applications',
      );
      await chooseAndExpectShown(
        page,
        createDialog.getByRole('combobox', { name: 'Format' }),
        'JSON',
      );
      await expect(createDialog.getByRole('switch', { name: 'Active' })).toBeChecked();
      await createDialog.getByRole('button', { name: 'Create Webhook' }).click();
      await expect(toast(page, 'Webhook created successfully')).toBeVisible();
      await expect(createDialog).toBeHidden();

      const row = webhookRow(page, receiver.url);
      await expect(row).toContainText('User Login');
      await expect(row).toContainText('Login Failed');
      await expect(row).toContainText('HWID Mismatch');
      await expect(row).not.toContainText('Session Ended');
      await expect(row).toContainText('+1 more');
      await expect(row).toContainText('All applications');
      await expect(row).toContainText('Active');
      await expect(row).toContainText(new Date().toLocaleDateString('en-US'));
      await expect(row.getByRole('button', { name: 'Copy webhook URL' })).toBeVisible();

      // The secret: masked as listed, revealed on request.
      await row.getByRole('button', { name: 'Signing secret' }).click();
      const secretDialog = page.getByRole('dialog', { name: 'Signing Secret' });
      const secretText = secretDialog.getByTestId('webhook-secret');
      const masked = await secretText.textContent();
      expect(masked).toMatch(/^whsec_/);
      await secretDialog.getByRole('button', { name: 'Reveal' }).click();
      await expect(secretText).not.toHaveText(masked!);
      const secret = (await secretText.textContent())!;
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=_-]{16,}$/);
      await expect(secretDialog.getByRole('button', { name: 'Copy secret' })).toBeVisible();
      await secretDialog.getByRole('button', { name: 'Close' }).click();
      await expect(secretDialog).toBeHidden();

      // Test Webhook: one entry per event; the toast is the server's message.
      receiver.setStatus(500);
      await page.getByRole('button', { name: 'Test Webhook' }).click();
      // One entry for every webhook event the contracts name.
      await expect(page.getByRole('menuitem')).toHaveCount(webhookEventNames.length);
      const testAnswer = page.waitForResponse(
        (response) =>
          response.url().endsWith('/api/test-webhook') && response.request().method() === 'POST',
      );
      await page.getByRole('menuitem', { name: 'User Login' }).click();
      const answer = (await (await testAnswer).json()) as { message: string; queued: number };
      expect(answer.queued).toBe(1);
      await expect(toast(page, answer.message)).toBeVisible();
      await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBe(1);

      // Every JSON delivery is signed with the owner's secret (Standard Webhooks).
      const first = receiver.received[0]!;
      const event = new Webhook(secret).verify(first.body, first.headers as Record<string, string>);
      expect(event).toMatchObject({ type: 'user_login', data: { isTest: true } });

      // The log shows the failed attempt, waiting for its next try; Retry sends it now.
      await row.getByRole('button', { name: 'Delivery log' }).click();
      const log = page.getByRole('dialog', { name: 'Delivery Log' });
      const testDelivery = log.getByRole('row').filter({ hasText: 'User Login' });
      await refreshUntil(log, async () => {
        await expect(testDelivery).toContainText('HTTP 500', { timeout: 1_000 });
      });
      await expect(testDelivery).toContainText('Pending');
      receiver.setStatus(204);
      await testDelivery.getByRole('button', { name: 'Retry User Login delivery' }).click();
      await expect(toast(page, 'Delivery queued to be sent again')).toBeVisible();
      await refreshUntil(log, async () => {
        await expect(testDelivery).toContainText('Succeeded', { timeout: 1_000 });
      });
      await expect(testDelivery).toContainText('HTTP 204');
      expect(receiver.received).toHaveLength(2);
      // Both attempts of one delivery carry one id, so a receiver can deduplicate.
      expect(receiver.received[1]!.headers['webhook-id']).toBe(first.headers['webhook-id']);
      await log.getByRole('button', { name: 'Close' }).click();

      // A real event from the client API reaches the webhook and its log; the registration
      // before it is an event the webhook does not subscribe to.
      expect(
        await clientCall(page, orbit, 'register', {
          username: 'alice',
          password: 'correct horse battery',
          hwid: 'PC-ALICE',
        }),
      ).toMatchObject({ success: true });
      expect(
        await clientCall(page, orbit, 'login', {
          username: 'alice',
          password: 'wrong password',
          version: orbit.version || '1.0.0',
          hwid: 'PC-ALICE',
        }),
      ).toMatchObject({ success: false, code: 'INVALID_CREDENTIALS' });
      await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBe(3);
      const real = new Webhook(secret).verify(
        receiver.received[2]!.body,
        receiver.received[2]!.headers as Record<string, string>,
      );
      expect(real).toMatchObject({
        type: 'login_failed',
        data: { application: { id: orbit.id, name: 'Orbit Client' }, success: false },
      });
      await row.getByRole('button', { name: 'Delivery log' }).click();
      await refreshUntil(log, async () => {
        await expect(log.getByRole('row').filter({ hasText: 'Login Failed' })).toContainText(
          'Succeeded',
          { timeout: 1_000 },
        );
      });
      await expect(log.getByText('Showing 1–2 of 2')).toBeVisible();
      await log.getByRole('button', { name: 'Close' }).click();

      // Edit: one application, one event fewer, switched off.
      await row.getByRole('button', { name: 'Edit webhook' }).click();
      const editDialog = page.getByRole('dialog', { name: 'Edit Webhook' });
      await expect(editDialog.getByRole('textbox', { name: 'Webhook URL' })).toHaveValue(
        receiver.url,
      );
      await expect(editDialog.getByRole('checkbox', { name: 'Session Ended' })).toBeChecked();
      await expect(editDialog.getByRole('combobox', { name: 'Format' })).toHaveText('JSON');
      await editDialog.getByRole('checkbox', { name: 'Session Ended' }).click();
      await chooseAndExpectShown(
        page,
        editDialog.getByRole('combobox', { name: 'Application' }),
        'Orbit Client',
      );
      await editDialog.getByRole('switch', { name: 'Active' }).click();
      await editDialog.getByRole('button', { name: 'Save Changes' }).click();
      await expect(toast(page, 'Webhook updated successfully')).toBeVisible();
      await expect(editDialog).toBeHidden();
      await expect(row).toContainText('Orbit Client');
      await expect(row).toContainText('Inactive');
      await expect(row).not.toContainText('more');

      const stored = (await (await page.request.get('/api/webhooks')).json()) as WebhookEntity[];
      expect(stored).toHaveLength(1);
      expect(stored[0]).toMatchObject({
        url: receiver.url,
        events: ['user_login', 'login_failed', 'hwid_mismatch'],
        applicationId: orbit.id,
        format: 'json',
        isActive: false,
      });
      // Left blank in the dialog, the secret was kept.
      const kept = await page.request.get(`/api/webhooks/${stored[0]!.id}/secret`);
      expect(((await kept.json()) as { secret: string }).secret).toBe(secret);

      // Delete asks first; cancelling keeps the webhook.
      await row.getByRole('button', { name: 'Delete webhook' }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Delete webhook?' });
      await expect(confirm).toContainText(receiver.url);
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await expect(confirm).toBeHidden();
      await expect(row).toBeVisible();

      await row.getByRole('button', { name: 'Delete webhook' }).click();
      await confirm.getByRole('button', { name: 'Delete Webhook' }).click();
      await expect(toast(page, 'Webhook deleted successfully')).toBeVisible();
      await expect(page.getByRole('heading', { name: 'No webhooks configured' })).toBeVisible();

      // The server agrees after a reload.
      await page.reload();
      await expect(page.getByRole('heading', { name: 'No webhooks configured' })).toBeVisible();
    } finally {
      await receiver.close();
    }
  });

  test('at 390 px, a webhook with no events is refused at its events, by keyboard', async ({
    page,
  }, testInfo) => {
    await signInAsNewOwner(page, 'Pia Phone');
    await page.setViewportSize({ width: PHONE.width, height: PHONE.height });
    await page.goto('/webhooks');
    await page.getByRole('button', { name: 'Create Webhook' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Create Webhook' });
    await dialog.getByRole('textbox', { name: 'Webhook URL' }).fill('https://hooks.example.com/x');
    await dialog.getByRole('textbox', { name: 'Webhook URL' }).press('Enter');

    // The words below the events, the boxes marked, the first one scrolled to and focused: on
    // a phone the form is taller than the screen, and Space ticks the box.
    const problem = dialog.getByRole('alert');
    await expect(problem).toHaveText('Choose at least one event');
    const firstEvent = dialog.getByRole('checkbox').first();
    await expect(firstEvent).toHaveAttribute('aria-invalid', 'true');
    await expect(firstEvent).toHaveAttribute(
      'aria-describedby',
      (await problem.getAttribute('id'))!,
    );
    await expect(firstEvent).toBeFocused();
    await expect(firstEvent).toBeInViewport();
    await expect(problem).toBeInViewport();
    const problems: string[] = [];
    await checkDialog(page, dialog, 'webhook-no-events-phone', problems, {
      testInfo,
      width: PHONE.width,
    });
    expect(problems).toEqual([]);

    await page.keyboard.press('Space');
    await expect(firstEvent).toBeChecked();
    await expect(problem).toBeHidden();
    await expect(firstEvent).not.toHaveAttribute('aria-invalid');
  });

  test('fits a 390 px wide screen: the table scrolls inside its card', async ({ page }) => {
    await signInAsNewOwner(page, 'Nora Narrow');
    await ownerPost(page, '/api/webhooks', {
      // Loopback over http is allowed outside production; nothing listens on port 9.
      url: 'http://127.0.0.1:9/a/rather/long/path/for/a/narrow/screen',
      events: ['user_login', 'login_failed', 'hwid_mismatch', 'session_end'],
    });

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/webhooks');
    const row = webhookRow(page, '127.0.0.1:9/a/rather');
    await expect(row).toContainText('+1 more');
    // The page itself never scrolls sideways; the table's own container does.
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
    ).toBe(true);
    const deleteButton = row.getByRole('button', { name: 'Delete webhook' });
    await deleteButton.scrollIntoViewIfNeeded();
    await expect(deleteButton).toBeInViewport();
    await deleteButton.click();
    await expect(page.getByRole('alertdialog', { name: 'Delete webhook?' })).toBeVisible();
  });
});
