import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  WEBHOOK_URL_REQUIRED,
  deletedResponseSchema,
  errorBodySchema,
  webhookListSchema,
  webhookSchema,
  webhookSecretResponseSchema,
  type Webhook,
} from '@latchkey/contracts';
import { webhookDeliveries, webhooks } from '../../db/schema/index.ts';
import { createManualClock } from '../../lib/clock.ts';
import {
  createWebhookViaApi,
  insertApplication,
  insertWebhookDelivery,
} from '../../../test/factories.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';
import { ownerRequests } from '../../../test/owner-requests.ts';
import { signInOwner, type SignedInOwner } from '../../../test/test-app.ts';
import { WEBHOOK_HTTPS_REQUIRED_OUTSIDE_LOOPBACK } from './assert-webhook-url-allowed.ts';
import { STANDARD_SECRET_MALFORMED } from './webhook-secret.ts';

const PUBLIC_URL = 'https://93.184.215.14/hooks/latchkey';
/** `whsec_` and the base64 of 24 random bytes (Standard Webhooks). */
const GENERATED_SECRET = /^whsec_[A-Za-z0-9+/]{32}$/;

describe('owner API: webhooks', () => {
  const clock = createManualClock(new Date('2026-05-01T09:00:00Z'));

  const testApp = startTestAppForSuite({ clock });
  const owner = signInOwnerForSuite(testApp);

  const request = ownerRequests(testApp, owner);

  const reveal = async (id: number, who: SignedInOwner = owner) => {
    const response = await request('GET', `/api/webhooks/${id}/secret`, undefined, who);
    expect(response.statusCode, response.body).toBe(200);
    return webhookSecretResponseSchema.parse(response.json()).secret;
  };

  const list = async (who: SignedInOwner = owner) => {
    const response = await request('GET', '/api/webhooks', undefined, who);
    expect(response.statusCode, response.body).toBe(200);
    return webhookListSchema.parse(response.json());
  };

  const expectBadRequest = async (
    method: 'POST' | 'PUT',
    url: string,
    body: unknown,
    message: string | RegExp,
  ) => {
    const response = await request(method, url, body);
    expect(response.statusCode, `${JSON.stringify(body)} ${response.body}`).toBe(400);
    const error = errorBodySchema.parse(response.json());
    expect(error.code).toBe('BAD_REQUEST');
    if (typeof message === 'string') expect(error.message).toBe(message);
    else expect(error.message).toMatch(message);
  };

  it('creates a webhook with a generated secret, shown in full once and masked afterwards', async () => {
    const fresh = await signInOwner(testApp.app);
    const response = await request(
      'POST',
      '/api/webhooks',
      { url: `  ${PUBLIC_URL}  `, events: ['user_login', 'login_failed', 'user_login'] },
      fresh,
    );
    expect(response.statusCode, response.body).toBe(201);
    const created = webhookSchema.parse(response.json());
    expect(created).toEqual({
      id: expect.any(Number),
      url: PUBLIC_URL,
      secret: expect.stringMatching(GENERATED_SECRET),
      events: ['user_login', 'login_failed'],
      isActive: true,
      applicationId: null,
      application: null,
      format: 'auto',
      disabledReason: null,
      createdAt: '2026-05-01T09:00:00.000Z',
      updatedAt: '2026-05-01T09:00:00.000Z',
    });
    const secret = created.secret;

    const [listed] = await list(fresh);
    expect(listed).toEqual({ ...created, secret: `whsec_••••${secret.slice(-4)}` });
    expect(await reveal(created.id, fresh)).toBe(secret);

    // Stored encrypted: neither the secret nor its key part is in the row.
    const [row] = await testApp.database.db
      .select()
      .from(webhooks)
      .where(eq(webhooks.id, created.id));
    expect(row!.secretEncrypted).not.toContain(secret.slice('whsec_'.length, -4));
    expect(row!.secretHint).toBe(`whsec_${secret.slice(-4)}`);
  });

  it('masks a custom secret without its prefix, and shows little of a short one', async () => {
    const custom = await createWebhookViaApi(testApp.app, owner, {
      secret: '  my-own-signing-secret-1234  ',
      format: 'json',
    });
    expect(custom.secret).toBe('my-own-signing-secret-1234');
    const short = await createWebhookViaApi(testApp.app, owner, { secret: 'abcdefg' });
    const blank = await createWebhookViaApi(testApp.app, owner, { secret: '   ' });
    const listed = await list();
    const byId = (webhook: Webhook) => listed.find((entry) => entry.id === webhook.id)!;
    expect(byId(custom).secret).toBe('••••1234');
    expect(byId(custom).format).toBe('json');
    expect(byId(short).secret).toBe('••••g');
    expect(byId(blank).secret).toMatch(/^whsec_••••.{4}$/);
    expect(await reveal(custom.id)).toBe('my-own-signing-secret-1234');
    expect(await reveal(blank.id)).toMatch(GENERATED_SECRET);
  });

  it('accepts a Standard Webhooks secret of the owner, and refuses a malformed one', async () => {
    const own = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const webhook = await createWebhookViaApi(testApp.app, owner, { secret: own });
    expect(webhook.secret).toBe(own);
    expect((await list()).find((entry) => entry.id === webhook.id)!.secret).toBe(
      `whsec_••••${own.slice(-4)}`,
    );
    for (const secret of [
      'whsec_not base64!',
      `whsec_${Buffer.alloc(8).toString('base64')}`,
      `whsec_${Buffer.alloc(65).toString('base64')}`,
      `whsec_${Buffer.alloc(33, 0xfb).toString('base64url')}`,
    ]) {
      await expectBadRequest(
        'POST',
        '/api/webhooks',
        { url: PUBLIC_URL, secret },
        STANDARD_SECRET_MALFORMED,
      );
      await expectBadRequest(
        'PUT',
        `/api/webhooks/${webhook.id}`,
        { secret },
        STANDARD_SECRET_MALFORMED,
      );
    }
    expect(await reveal(webhook.id)).toBe(own);
  });

  it("refuses a missing URL with the spec's message, and other bad input", async () => {
    for (const body of [
      {},
      { url: '' },
      { url: '   ' },
      { url: null },
      { events: ['user_login'] },
    ]) {
      await expectBadRequest('POST', '/api/webhooks', body, `url: ${WEBHOOK_URL_REQUIRED}`);
    }
    await expectBadRequest('POST', '/api/webhooks', { url: 'not a url' }, /^url: /);
    await expectBadRequest('POST', '/api/webhooks', { url: 'ftp://93.184.215.14/x' }, /^url: /);
    await expectBadRequest(
      'POST',
      '/api/webhooks',
      { url: PUBLIC_URL, events: ['user_login', 'nope'] },
      'events.1: Unknown event: nope',
    );
    await expectBadRequest(
      'POST',
      '/api/webhooks',
      { url: PUBLIC_URL, format: 'xml' },
      /^format: /,
    );
    await expectBadRequest(
      'POST',
      '/api/webhooks',
      { url: 'http://93.184.215.14/hook' },
      WEBHOOK_HTTPS_REQUIRED_OUTSIDE_LOOPBACK,
    );
    for (const [url, kind] of [
      ['https://10.0.0.1/hook', 'a private network address'],
      ['https://169.254.169.254/latest/meta-data/', 'a link-local address'],
      ['https://[::ffff:169.254.169.254]/', 'a link-local address'],
      ['https://0.0.0.0/hook', 'a reserved or special-purpose address'],
    ] as const) {
      await expectBadRequest(
        'POST',
        '/api/webhooks',
        { url },
        `This webhook URL points to ${kind}, which is not allowed`,
      );
    }
    expect(await list()).not.toContainEqual(
      expect.objectContaining({ url: 'https://10.0.0.1/hook' }),
    );
  });

  it('accepts plain http to loopback outside production (a local test receiver)', async () => {
    const local = await createWebhookViaApi(testApp.app, owner, {
      url: 'http://localhost:8080/hook',
    });
    expect(local.url).toBe('http://localhost:8080/hook');
    const literal = await createWebhookViaApi(testApp.app, owner, { url: 'http://[::1]:9000/' });
    expect(literal.url).toBe('http://[::1]:9000/');
  });

  it("scopes a webhook to one of the owner's applications, and refuses another owner's (404)", async () => {
    const application = await insertApplication(testApp.database.db, owner.accountId, {
      name: 'Game',
    });
    const scoped = await createWebhookViaApi(testApp.app, owner, { applicationId: application.id });
    expect(scoped).toMatchObject({ applicationId: application.id, application: { name: 'Game' } });
    const viaString = await createWebhookViaApi(testApp.app, owner, {
      applicationId: String(application.id) as never,
    });
    expect(viaString.applicationId).toBe(application.id);
    const all = await createWebhookViaApi(testApp.app, owner, { applicationId: 'all' as never });
    expect(all).toMatchObject({ applicationId: null, application: null });

    const stranger = await signInOwner(testApp.app);
    const foreign = await insertApplication(testApp.database.db, stranger.accountId);
    const response = await request('POST', '/api/webhooks', {
      url: 'https://93.184.215.14/planted',
      applicationId: foreign.id,
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Application not found', code: 'NOT_FOUND' });
    const planted = await testApp.database.db
      .select()
      .from(webhooks)
      .where(eq(webhooks.url, 'https://93.184.215.14/planted'));
    expect(planted).toEqual([]);
  });

  it("lists only the owner's webhooks, newest first", async () => {
    const fresh = await signInOwner(testApp.app);
    const application = await insertApplication(testApp.database.db, fresh.accountId, {
      name: 'Tool',
    });
    const first = await createWebhookViaApi(testApp.app, fresh);
    clock.advance(1000);
    const second = await createWebhookViaApi(testApp.app, fresh, { applicationId: application.id });
    clock.advance(1000);
    const third = await createWebhookViaApi(testApp.app, fresh, { isActive: false, events: [] });
    await createWebhookViaApi(testApp.app, owner);

    const listed = await list(fresh);
    expect(listed.map((webhook) => webhook.id)).toEqual([third.id, second.id, first.id]);
    expect(listed[1]!.application).toEqual({ name: 'Tool' });
    expect(listed[0]).toMatchObject({ isActive: false, events: [] });
    expect(JSON.stringify(listed)).not.toMatch(/whsec_[A-Za-z0-9+/]{8}/);
  });

  it('updates the given fields, keeps the secret when it is blank or absent', async () => {
    const webhook = await createWebhookViaApi(testApp.app, owner);
    const secret = webhook.secret;
    const application = await insertApplication(testApp.database.db, owner.accountId, {
      name: 'Scoped',
    });
    clock.advance(60_000);

    const update = async (body: Record<string, unknown>) => {
      const response = await request('PUT', `/api/webhooks/${webhook.id}`, body);
      expect(response.statusCode, response.body).toBe(200);
      return webhookSchema.parse(response.json());
    };
    const renamed = await update({
      url: ' https://93.184.215.14/v2 ',
      secret: '',
      events: ['hwid_mismatch', 'session_end'],
      applicationId: application.id,
      format: 'slack',
    });
    expect(renamed).toMatchObject({
      url: 'https://93.184.215.14/v2',
      secret: `whsec_••••${secret.slice(-4)}`,
      events: ['hwid_mismatch', 'session_end'],
      applicationId: application.id,
      application: { name: 'Scoped' },
      format: 'slack',
      isActive: true,
      createdAt: webhook.createdAt,
    });
    expect(renamed.updatedAt).not.toBe(webhook.updatedAt);
    expect(await reveal(webhook.id)).toBe(secret);

    expect(await update({ isActive: false })).toMatchObject({
      isActive: false,
      url: 'https://93.184.215.14/v2',
      application: { name: 'Scoped' },
    });
    expect(await reveal(webhook.id)).toBe(secret);
    expect(await update({ applicationId: null })).toMatchObject({
      applicationId: null,
      application: null,
    });

    const rotated = await update({ secret: 'a-brand-new-secret-9876' });
    expect(rotated.secret).toBe('••••9876');
    expect(await reveal(webhook.id)).toBe('a-brand-new-secret-9876');
  });

  it('switching a webhook the engine disabled back on clears why it was disabled', async () => {
    const webhook = await createWebhookViaApi(testApp.app, owner);
    await testApp.database.db
      .update(webhooks)
      .set({
        isActive: false,
        disabledReason: 'The endpoint answered 410 Gone',
        failingSince: new Date(),
      })
      .where(eq(webhooks.id, webhook.id));
    expect((await list()).find((entry) => entry.id === webhook.id)!.disabledReason).toBe(
      'The endpoint answered 410 Gone',
    );
    const response = await request('PUT', `/api/webhooks/${webhook.id}`, { isActive: true });
    expect(response.json()).toMatchObject({ isActive: true, disabledReason: null });
    const [row] = await testApp.database.db
      .select()
      .from(webhooks)
      .where(eq(webhooks.id, webhook.id));
    expect(row!.failingSince).toBeNull();
  });

  it('validates an update like a creation', async () => {
    const webhook = await createWebhookViaApi(testApp.app, owner);
    const url = `/api/webhooks/${webhook.id}`;
    await expectBadRequest('PUT', url, { url: '  ' }, `url: ${WEBHOOK_URL_REQUIRED}`);
    await expectBadRequest('PUT', url, { events: ['logout'] }, 'events.0: Unknown event: logout');
    await expectBadRequest(
      'PUT',
      url,
      { url: 'https://[::ffff:a00:1]/hook' },
      'This webhook URL points to a private network address, which is not allowed',
    );
    await expectBadRequest('PUT', '/api/webhooks/abc', {}, 'id: Invalid webhook id');
    const stranger = await signInOwner(testApp.app);
    const foreign = await insertApplication(testApp.database.db, stranger.accountId);
    const response = await request('PUT', url, { applicationId: foreign.id });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Application not found', code: 'NOT_FOUND' });
    expect((await list()).find((entry) => entry.id === webhook.id)).toMatchObject({
      url: webhook.url,
      applicationId: null,
    });
  });

  it("answers 404 for another owner's webhook on every call, and changes nothing", async () => {
    const stranger = await signInOwner(testApp.app);
    const theirs = await createWebhookViaApi(testApp.app, stranger, {
      secret: 'their-secret-value-xyz',
    });
    const notFound = { message: 'Webhook not found', code: 'NOT_FOUND' };
    for (const [method, url, body] of [
      [
        'PUT',
        `/api/webhooks/${theirs.id}`,
        { url: 'https://93.184.215.14/hijacked', secret: 'mine' },
      ],
      ['DELETE', `/api/webhooks/${theirs.id}`, undefined],
      ['GET', `/api/webhooks/${theirs.id}/secret`, undefined],
      ['PUT', '/api/webhooks/2000000000', { isActive: false }],
    ] as const) {
      const response = await request(method, url, body);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json()).toEqual(notFound);
    }
    expect(await list(stranger)).toEqual([
      expect.objectContaining({ id: theirs.id, url: theirs.url }),
    ]);
    expect(await reveal(theirs.id, stranger)).toBe('their-secret-value-xyz');
  });

  it('deletes a webhook with its deliveries', async () => {
    const webhook = await createWebhookViaApi(testApp.app, owner);
    await insertWebhookDelivery(testApp.database.db, webhook.id);
    const deleted = await request('DELETE', `/api/webhooks/${webhook.id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deletedResponseSchema.parse(deleted.json()).message).toBe(
      'Webhook deleted successfully',
    );
    expect((await list()).map((entry) => entry.id)).not.toContain(webhook.id);
    const left = await testApp.database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.webhookId, webhook.id));
    expect(left).toEqual([]);
    expect((await request('DELETE', `/api/webhooks/${webhook.id}`)).statusCode).toBe(404);
  });
});
