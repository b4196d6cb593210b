import { createHmac, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq, isNull } from 'drizzle-orm';
import Stripe from 'stripe';
import { NodeRuntime, Webhooks as PaddleWebhooks } from '@paddle/paddle-node-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clientAuthResponseSchema,
  createdShopConnectionSchema,
  shopConnectionSchema,
  shopOrderDetailSchema,
  shopOrderSchema,
  shopSalesSchema,
  shopTestEventResultSchema,
  SHOP_SIGNATURE_INVALID,
  type CreateShopConnectionRequest,
  type Plan,
  type ShopOrder,
} from '@latchkey/contracts';
import {
  activityLogs,
  appUserSessions,
  appUsers,
  licenseKeys,
  ownerAccounts,
  subscriptions,
} from '../../db/schema/index.ts';
import {
  callClientApi,
  createApiTokenViaApi,
  createPlanViaApi,
  insertClientApplication,
} from '../../../test/factories.ts';
import { startClientSession } from '../../../test/client-calls.ts';
import { ownerRequests } from '../../../test/owner-requests.ts';
import { startSmtpReceiver, type SmtpReceiver } from '../../../test/smtp-test-receiver.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';
import { signInOwner } from '../../../test/test-app.ts';

const STRIPE_SECRET = `whsec_${randomBytes(24).toString('base64url')}`;
const PADDLE_SECRET = `pdl_ntfset_${randomBytes(20).toString('hex')}`;
const SELLIX_SECRET = randomBytes(20).toString('hex');
const SELLAPP_SECRET = randomBytes(20).toString('hex');

const nowSeconds = () => Math.floor(Date.now() / 1000);
const unique = (prefix: string) => `${prefix}_${randomBytes(6).toString('hex')}`;
const hmac = (algorithm: string, secret: string, payload: string) =>
  createHmac(algorithm, secret).update(payload).digest('hex');

/**
 * Shop connections end to end: each provider's events signed as the provider signs them
 * (Stripe's with Stripe's own library; Paddle's checked against Paddle's SDK), delivered to
 * the connection's URL, and what they did to orders, keys, subscriptions and the mail that a
 * real SMTP server receives.
 */
describe('shop connections', () => {
  let receiver: SmtpReceiver;
  // A stand-in for Stripe's API (no network here): the line items of one session, for the
  // restricted key it expects, and what it was asked.
  const stripeApiCalls: { url: string; authorization: string | undefined }[] = [];
  const stripeApi = createServer((request, response) => {
    stripeApiCalls.push({ url: request.url ?? '', authorization: request.headers.authorization });
    const isKnown =
      request.headers.authorization === 'Bearer rk_test_reader' &&
      request.url?.startsWith('/v1/checkout/sessions/cs_items/line_items');
    response.writeHead(isKnown ? 200 : 401, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify(
        isKnown
          ? {
              object: 'list',
              url: '/v1/checkout/sessions/cs_items/line_items',
              has_more: false,
              data: [{ id: 'li_1', object: 'item', price: { id: 'price_pro' }, quantity: 3 }],
            }
          : { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } },
      ),
    );
  });
  beforeAll(async () => {
    receiver = await startSmtpReceiver();
    await new Promise<void>((resolve) => stripeApi.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await receiver.close();
    await new Promise((resolve) => stripeApi.close(resolve));
  });

  const testApp = startTestAppForSuite(() => ({
    env: {
      SMTP_URL: receiver.url,
      MAIL_FROM: 'no-reply@latchkey.example.com',
      MAIL_POLL_INTERVAL_MS: '50',
      STRIPE_API_URL: `http://127.0.0.1:${(stripeApi.address() as AddressInfo).port}`,
    },
    isMailDispatcherEnabled: true,
  }));
  const owner = signInOwnerForSuite(testApp);
  const db = () => testApp.database.db;
  const request = (...args: Parameters<ReturnType<typeof ownerRequests>>) =>
    ownerRequests(testApp, owner)(...args);

  const setUp = async (plan: { durationDays?: number | null } = { durationDays: 30 }) => {
    const application = await insertClientApplication(testApp, owner.accountId, {
      name: unique('Shop App'),
      version: '1.0',
    });
    const pro = await createPlanViaApi(testApp.app, owner, application.id, {
      name: 'Pro',
      durationDays: plan.durationDays ?? null,
    });
    return { application, pro };
  };

  const connect = async (applicationId: number, body: CreateShopConnectionRequest) => {
    const response = await request(
      'POST',
      `/api/applications/${applicationId}/shop-connections`,
      body,
    );
    expect(response.statusCode, response.body).toBe(201);
    return createdShopConnectionSchema.parse(response.json());
  };

  const deliver = (
    connection: { webhookUrl: string },
    body: string,
    headers: Record<string, string>,
  ) =>
    testApp.app.inject({
      method: 'POST',
      url: new URL(connection.webhookUrl).pathname + new URL(connection.webhookUrl).search,
      headers: { 'content-type': 'application/json', ...headers },
      payload: body,
    });

  const stripeDelivery = (event: object, options: { secret?: string; timestamp?: number } = {}) => {
    const body = JSON.stringify({
      object: 'event',
      livemode: false,
      created: nowSeconds(),
      ...event,
    });
    const signature = Stripe.webhooks.generateTestHeaderString({
      payload: body,
      secret: options.secret ?? STRIPE_SECRET,
      timestamp: options.timestamp ?? nowSeconds(),
    });
    return { body, headers: { 'stripe-signature': signature } };
  };

  /** A paid Checkout Session of price_pro (by its metadata), with `session`'s fields over it. */
  const checkoutCompleted = (session: Record<string, unknown>, eventId = unique('evt')) => ({
    id: eventId,
    type: 'checkout.session.completed',
    data: {
      object: {
        id: unique('cs'),
        object: 'checkout.session',
        payment_status: 'paid',
        metadata: { latchkey_product: 'price_pro' },
        ...session,
      },
    },
  });

  const orders = async (applicationId: number, query = '') => {
    const response = await request('GET', `/api/applications/${applicationId}/orders${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return shopOrderSchema.array().parse(response.json());
  };

  /**
   * The orders whose shop order id is exactly `providerOrderId`, newest first. A search also
   * matches buyers' addresses, and those end in random hex that may contain the digits.
   */
  const ordersNumbered = async (applicationId: number, providerOrderId: string) =>
    (await orders(applicationId, `?search=${providerOrderId}`)).filter(
      (order) => order.providerOrderId === providerOrderId,
    );

  const keysOf = (order: ShopOrder) =>
    db().select().from(licenseKeys).where(eq(licenseKeys.shopOrderId, order.id));

  const mailTo = async (address: string, count = 1) => {
    await expect
      .poll(() => receiver.received.filter((mail) => mail.to.includes(address)).length, {
        timeout: 15_000,
      })
      .toBeGreaterThanOrEqual(count);
    return receiver.received.filter((mail) => mail.to.includes(address));
  };

  const redeem = async (application: { apiKey: string }, order: ShopOrder, key: string) => {
    const registered = await callClientApi(testApp.app, 'register', {
      apiKey: application.apiKey,
      body: { username: unique('buyer'), password: 'a fine passphrase', license_key: key },
    });
    expect(clientAuthResponseSchema.parse(registered.json())).toMatchObject({ success: true });
    return (await keysOf(order)).find((row) => row.state === 'used')!;
  };

  const subscriptionOf = async (appUserId: string, plan: Plan) => {
    const [row] = await db()
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.appUserId, appUserId), eq(subscriptions.planId, plan.id)));
    return row;
  };

  it('Stripe: paid mints and mails, a cycle extends, a refund bans, a dispute is a chargeback', async () => {
    const { application, pro } = await setUp();
    const connection = await connect(application.id, {
      provider: 'stripe',
      name: 'Stripe live',
      secret: STRIPE_SECRET,
      products: [{ productId: 'price_pro', planId: pro.id, quantity: 2 }],
    });
    expect(connection.webhookUrl).toMatch(/\/api\/shops\/[\w-]{20,}$/);
    expect(connection.secret).toBeNull();
    expect(JSON.stringify(connection)).not.toContain(STRIPE_SECRET);

    const buyer = `${unique('buyer')}@example.com`;
    const session = unique('cs_test');
    const paid = stripeDelivery(
      checkoutCompleted({
        id: session,
        mode: 'subscription',
        subscription: 'sub_1',
        invoice: 'in_first',
        customer_details: { email: buyer },
        amount_total: 4800,
        currency: 'usd',
      }),
    );
    const answered = await deliver(connection, paid.body, paid.headers);
    expect(answered.statusCode, answered.body).toBe(200);
    expect(answered.body).toBe('received');
    const again = await deliver(connection, paid.body, paid.headers);
    expect(again.body).toBe('duplicate');

    const [order] = await orders(application.id);
    expect(order).toMatchObject({
      provider: 'stripe',
      providerOrderId: session,
      buyerEmail: buyer,
      productId: 'price_pro',
      quantity: 1,
      amount: 4800,
      currency: 'USD',
      testMode: true,
      status: 'paid',
    });
    expect(order!.licenseIds).toHaveLength(2);
    const [mail] = await mailTo(buyer);
    const keys = (await keysOf(order!)).map((key) => key.keySealed);
    expect(keys).toHaveLength(2);
    expect(mail!.parsed.subject).toContain('licence key');
    expect(mail!.parsed.text).toContain(`Your order: ${session}`);
    const mailedKeys = mail!.parsed.text!.match(/[A-Z0-9]{5}(?:-[A-Z0-9]{5}){4}/g);
    expect(mailedKeys).toHaveLength(2);
    const detail = shopOrderDetailSchema.parse(
      (await request('GET', `/api/applications/${application.id}/orders/${order!.id}`)).json(),
    );
    expect(detail.events.map((event) => event.type)).toEqual(['checkout.session.completed']);
    expect(detail.licenses.map((key) => key.status)).toEqual(['unused', 'unused']);
    const [paidEvent] = await db()
      .select()
      .from(activityLogs)
      .where(
        and(eq(activityLogs.applicationId, application.id), eq(activityLogs.event, 'order_paid')),
      );
    expect(paidEvent!.metadata).toMatchObject({ orderId: order!.id, keys: 2 });
    expect(JSON.stringify(paidEvent!.metadata)).not.toContain(mailedKeys![0]);

    // The buyer registers with the first key: 30 days. A cycle adds 30 more to both keys.
    const used = await redeem(application, order!, mailedKeys![0]!);
    // Registered with no address of its own: the account takes the buyer's.
    const [holder] = await db().select().from(appUsers).where(eq(appUsers.id, used.usedByUserId!));
    expect(holder!.email).toBe(buyer);
    const before = await subscriptionOf(used.usedByUserId!, pro);
    const cycle = stripeDelivery({
      id: unique('evt'),
      type: 'invoice.paid',
      data: {
        object: {
          id: unique('in'),
          object: 'invoice',
          billing_reason: 'subscription_cycle',
          parent: { subscription_details: { subscription: 'sub_1' } },
          amount_paid: 4800,
          currency: 'usd',
        },
      },
    });
    expect((await deliver(connection, cycle.body, cycle.headers)).statusCode).toBe(200);
    const after = await subscriptionOf(used.usedByUserId!, pro);
    expect(after!.expiresAt!.getTime() - before!.expiresAt!.getTime()).toBe(30 * 86_400_000);
    const unused = (await keysOf(order!)).find((key) => key.state === 'unused');
    expect(unused!.extraDays).toBe(30);
    const renewed = await orders(application.id, '?status=renewed');
    expect(renewed).toHaveLength(1);
    expect(renewed[0]!.licenseIds.toSorted()).toEqual(order!.licenseIds.toSorted());

    // The first payment refunded in full: both keys banned, the grant taken back.
    const refund = stripeDelivery({
      id: unique('evt'),
      type: 'charge.refunded',
      data: { object: { id: unique('ch'), object: 'charge', refunded: true, invoice: 'in_first' } },
    });
    expect((await deliver(connection, refund.body, refund.headers)).statusCode).toBe(200);
    const refunded = await keysOf(order!);
    expect(refunded.map((key) => [key.state, key.bannedReason])).toEqual([
      ['banned', 'refunded'],
      ['banned', 'refunded'],
    ]);
    expect((await subscriptionOf(used.usedByUserId!, pro))!.expiresAt!.getTime()).toBeLessThan(
      before!.expiresAt!.getTime(),
    );
    const statuses = (await orders(application.id)).map((row) => row.status).toSorted();
    expect(statuses).toEqual(['refunded', 'renewed']);

    // A one-off payment disputed: its payment intent names it.
    const oneOff = stripeDelivery(
      checkoutCompleted({
        mode: 'payment',
        payment_intent: 'pi_disputed',
        customer_details: { email: buyer },
      }),
    );
    expect((await deliver(connection, oneOff.body, oneOff.headers)).statusCode).toBe(200);
    const dispute = stripeDelivery({
      id: unique('evt'),
      type: 'charge.dispute.created',
      data: { object: { id: unique('dp'), charge: unique('ch'), payment_intent: 'pi_disputed' } },
    });
    expect((await deliver(connection, dispute.body, dispute.headers)).statusCode).toBe(200);
    const [disputed] = await orders(application.id, '?status=chargeback');
    expect(disputed!.licenseIds).toHaveLength(2);
    expect((await keysOf(disputed!)).map((key) => key.bannedReason)).toEqual([
      'chargeback',
      'chargeback',
    ]);
  });

  it('Stripe: a session without metadata has its line items read with the connection\u2019s key', async () => {
    const { application, pro } = await setUp();
    const refused = await request('POST', `/api/applications/${application.id}/shop-connections`, {
      provider: 'gumroad',
      name: 'Gumroad',
      apiKey: 'rk_test_reader',
    });
    expect(refused.json()).toMatchObject({ message: expect.stringMatching(/^apiKey: /) });
    const connection = await connect(application.id, {
      provider: 'stripe',
      name: 'Stripe with a key',
      secret: STRIPE_SECRET,
      apiKey: 'rk_test_reader',
      products: [{ productId: 'price_pro', planId: pro.id }],
    });
    expect(connection.hasApiKey).toBe(true);
    // No metadata: only the line items say what was bought.
    const session = (id: string) =>
      stripeDelivery(
        checkoutCompleted({ id, metadata: {}, customer_details: { email: 'items@example.com' } }),
      );
    const paid = session('cs_items');
    expect((await deliver(connection, paid.body, paid.headers)).statusCode).toBe(200);
    expect(stripeApiCalls.at(-1)).toMatchObject({ authorization: 'Bearer rk_test_reader' });
    const [order] = await orders(application.id);
    expect(order).toMatchObject({ productId: 'price_pro', quantity: 3, status: 'paid' });
    expect(order!.licenseIds).toHaveLength(3);
    // Stripe's API refusing: 503, nothing recorded, so Stripe delivers the event again.
    const unknown = session('cs_unknown');
    const unavailable = await deliver(connection, unknown.body, unknown.headers);
    expect(unavailable.statusCode).toBe(503);
    expect(await orders(application.id)).toHaveLength(1);
  });

  it('Stripe: a bad, stale or missing signature is a 400 that names no secret, and mints nothing', async () => {
    const { application, pro } = await setUp();
    const connection = await connect(application.id, {
      provider: 'stripe',
      name: 'Stripe',
      secret: STRIPE_SECRET,
      products: [{ productId: 'price_pro', planId: pro.id }],
    });
    const event = checkoutCompleted({ customer_details: { email: 'x@example.com' } });
    const wrong = stripeDelivery(event, { secret: 'whsec_not_the_one' });
    const stale = stripeDelivery(event, { timestamp: nowSeconds() - 600 });
    const forged = stripeDelivery(event);
    const tampered = {
      body: forged.body.replace('price_pro', 'price_pr0'),
      headers: forged.headers,
    };
    for (const delivery of [wrong, stale, tampered, { body: forged.body, headers: {} }]) {
      const answer = await deliver(connection, delivery.body, delivery.headers);
      expect(answer.statusCode, answer.body).toBe(400);
      expect(answer.body).not.toContain(STRIPE_SECRET);
      expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(answer.json()).toMatchObject({
        status: 400,
        code: 'BAD_REQUEST',
        detail: SHOP_SIGNATURE_INVALID,
      });
    }
    expect(await orders(application.id)).toEqual([]);
    const unknown = await testApp.app.inject({
      method: 'POST',
      url: '/api/shops/aaaaaaaaaaaaaaaaaaaaaa',
      payload: forged.body,
      headers: forged.headers,
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('Lemon Squeezy: a generated secret, a renewal by subscription, a refund before its order', async () => {
    const { application, pro } = await setUp();
    const connection = await connect(application.id, {
      provider: 'lemonsqueezy',
      name: 'Lemon',
      products: [{ productId: '1001', planId: pro.id }],
    });
    const secret = connection.secret!;
    expect(secret).toMatch(/^[\w-]{32,}$/);
    const listed = shopConnectionSchema
      .array()
      .parse((await request('GET', `/api/applications/${application.id}/shop-connections`)).json());
    expect(JSON.stringify(listed)).not.toContain(secret);
    const lemon = (payload: object) => {
      const body = JSON.stringify(payload);
      return { body, headers: { 'x-signature': hmac('sha256', secret, body) } };
    };
    const buyer = `${unique('lemon')}@example.com`;
    const orderCreated = lemon({
      meta: { event_name: 'order_created', test_mode: false },
      data: {
        type: 'orders',
        id: 555,
        attributes: {
          identifier: 'uuid-555',
          user_email: buyer,
          total: 999,
          currency: 'EUR',
          status: 'paid',
          first_order_item: { variant_id: 1001, quantity: 1 },
        },
      },
    });
    expect((await deliver(connection, orderCreated.body, orderCreated.headers)).statusCode).toBe(
      200,
    );
    await mailTo(buyer);
    const link = lemon({
      meta: { event_name: 'subscription_created' },
      data: { type: 'subscriptions', id: 77, attributes: { order_id: 555 } },
    });
    expect((await deliver(connection, link.body, link.headers)).statusCode).toBe(200);
    const renewal = lemon({
      meta: { event_name: 'subscription_payment_success' },
      data: {
        type: 'subscription-invoices',
        id: 9001,
        attributes: { subscription_id: 77, billing_reason: 'renewal', total: 999, currency: 'EUR' },
      },
    });
    expect((await deliver(connection, renewal.body, renewal.headers)).statusCode).toBe(200);
    const [first] = await orders(application.id, '?status=paid');
    const [key] = await keysOf(first!);
    expect(key!.extraDays).toBe(30);
    expect(first).toMatchObject({ amount: 999, currency: 'EUR', testMode: false });

    // A refund that arrives before its order: the order is recorded refunded, nothing minted.
    const early = lemon({
      meta: { event_name: 'order_refunded' },
      data: { type: 'orders', id: 556, attributes: { status: 'refunded' } },
    });
    expect((await deliver(connection, early.body, early.headers)).statusCode).toBe(200);
    const late = lemon({
      meta: { event_name: 'order_created' },
      data: {
        type: 'orders',
        id: 556,
        attributes: {
          user_email: buyer,
          status: 'paid',
          first_order_item: { variant_id: 1001, quantity: 1 },
        },
      },
    });
    expect((await deliver(connection, late.body, late.headers)).statusCode).toBe(200);
    const [reversed] = await ordersNumbered(application.id, '556');
    expect(reversed).toMatchObject({ providerOrderId: '556', status: 'refunded', licenseIds: [] });
    const bad = await deliver(connection, late.body, {
      'x-signature': hmac('sha256', 'nope', late.body),
    });
    expect(bad.statusCode).toBe(400);
  });

  it('a lifetime plan sold with a year of updates renews its updates, used or unused', async () => {
    const { application } = await setUp();
    const perpetual = await createPlanViaApi(testApp.app, owner, application.id, {
      name: 'Perpetual',
      durationDays: null,
      updatesForDays: 365,
    });
    const connection = await connect(application.id, {
      provider: 'lemonsqueezy',
      name: 'Lemon maintenance',
      products: [{ productId: '2002', planId: perpetual.id }],
    });
    const lemon = (payload: object) => {
      const body = JSON.stringify(payload);
      return { body, headers: { 'x-signature': hmac('sha256', connection.secret!, body) } };
    };
    const send = async (payload: object) => {
      const delivery = lemon(payload);
      const answered = await deliver(connection, delivery.body, delivery.headers);
      expect(answered.statusCode, answered.body).toBe(200);
    };
    const buyer = `${unique('maintenance')}@example.com`;
    await send({
      meta: { event_name: 'order_created', test_mode: false },
      data: {
        type: 'orders',
        id: 777,
        attributes: {
          user_email: buyer,
          status: 'paid',
          first_order_item: { variant_id: 2002, quantity: 1 },
        },
      },
    });
    const [mail] = await mailTo(buyer);
    const [mailedKey] = mail!.parsed.text!.match(/[A-Z0-9]{5}(?:-[A-Z0-9]{5}){4}/g)!;
    await send({
      meta: { event_name: 'subscription_created' },
      data: { type: 'subscriptions', id: 78, attributes: { order_id: 777 } },
    });
    const renew = (invoice: number) =>
      send({
        meta: { event_name: 'subscription_payment_success' },
        data: {
          type: 'subscription-invoices',
          id: invoice,
          attributes: { subscription_id: 78, billing_reason: 'renewal' },
        },
      });

    // Renewed before it was redeemed: the key carries a second year of updates, no days.
    await renew(9101);
    const [order] = await ordersNumbered(application.id, '777');
    const [unused] = await keysOf(order!);
    expect(unused).toMatchObject({ extraDays: 0, extraUpdatesDays: 365 });
    const used = await redeem(application, order!, mailedKey!);
    const redeemed = await subscriptionOf(used.usedByUserId!, perpetual);
    expect(redeemed).toMatchObject({ expiresAt: null });
    const year = 365 * 86_400_000;
    const granted = redeemed!.updatesUntil!.getTime();
    expect(Math.abs(granted - (Date.now() + 2 * year))).toBeLessThan(60_000);

    // Renewed once redeemed: the holder's window grows by a year, and stays lifetime.
    await renew(9102);
    const renewed = await subscriptionOf(used.usedByUserId!, perpetual);
    expect(renewed).toMatchObject({ expiresAt: null });
    expect(renewed!.updatesUntil!.getTime()).toBe(granted + year);
    const [renewalRow] = await ordersNumbered(application.id, '9102');
    expect(renewalRow).toMatchObject({ status: 'renewed' });
  });

  it('Paddle: waits for the buyer\u2019s address, then mints; its SDK accepts the signatures', async () => {
    const { application, pro } = await setUp();
    const connection = await connect(application.id, {
      provider: 'paddle',
      name: 'Paddle',
      secret: PADDLE_SECRET,
      products: [{ productId: 'pri_pro', planId: pro.id }],
    });
    const paddle = (payload: object, ts = nowSeconds()) => {
      const body = JSON.stringify(payload);
      return {
        body,
        headers: {
          'paddle-signature': `ts=${ts};h1=${hmac('sha256', PADDLE_SECRET, `${ts}:${body}`)}`,
        },
      };
    };
    const transaction = paddle({
      event_id: unique('evt'),
      event_type: 'transaction.completed',
      data: {
        id: 'txn_1',
        origin: 'web',
        customer_id: 'ctm_1',
        items: [{ price: { id: 'pri_pro' }, quantity: 1 }],
        details: { totals: { grand_total: '1500', currency_code: 'USD' } },
      },
    });
    NodeRuntime.initialize();
    expect(
      await new PaddleWebhooks().isSignatureValid(
        transaction.body,
        PADDLE_SECRET,
        transaction.headers['paddle-signature'],
      ),
    ).toBe(true);
    expect((await deliver(connection, transaction.body, transaction.headers)).statusCode).toBe(200);
    expect((await orders(application.id))[0]).toMatchObject({
      status: 'awaiting_email',
      licenseIds: [],
    });
    const buyer = `${unique('paddle')}@example.com`;
    const customer = paddle({
      event_id: unique('evt'),
      event_type: 'customer.created',
      data: { id: 'ctm_1', email: buyer },
    });
    expect((await deliver(connection, customer.body, customer.headers)).statusCode).toBe(200);
    const [order] = await orders(application.id);
    expect(order).toMatchObject({ status: 'paid', buyerEmail: buyer, amount: 1500 });
    expect(order!.licenseIds).toHaveLength(1);
    await mailTo(buyer);

    const chargeback = paddle({
      event_id: unique('evt'),
      event_type: 'adjustment.created',
      data: { id: 'adj_1', action: 'chargeback', transaction_id: 'txn_1', status: 'approved' },
    });
    expect((await deliver(connection, chargeback.body, chargeback.headers)).statusCode).toBe(200);
    expect((await orders(application.id))[0]!.status).toBe('chargeback');
    expect((await keysOf(order!))[0]).toMatchObject({
      state: 'banned',
      bannedReason: 'chargeback',
    });

    const stale = paddle(
      { event_id: unique('evt'), event_type: 'customer.updated', data: {} },
      nowSeconds() - 60,
    );
    expect((await deliver(connection, stale.body, stale.headers)).statusCode).toBe(400);
  });

  it('Gumroad: the URL token authenticates, a sale is processed once, a refund bans, a rotated URL stops', async () => {
    const { application, pro } = await setUp();
    const connection = await connect(application.id, {
      provider: 'gumroad',
      name: 'Gumroad',
      products: [{ productId: 'gum_pro', planId: pro.id }],
    });
    expect(connection.webhookUrl).toMatch(/\?token=[\w-]{40,}$/);
    const ping = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const buyer = `${unique('gum')}@example.com`;
    const sale = ping({
      sale_id: 'sale_1',
      product_id: 'gum_pro',
      email: buyer,
      price: '500',
      currency: 'usd',
      quantity: '1',
      test: 'true',
    });
    for (let attempt = 0; attempt < 2; attempt += 1) {
      expect((await deliver(connection, sale, form)).statusCode).toBe(200);
    }
    const [order] = await orders(application.id);
    expect(order).toMatchObject({ providerOrderId: 'sale_1', status: 'paid', testMode: true });
    expect(order!.licenseIds).toHaveLength(1);
    await mailTo(buyer);
    const forged = await testApp.app.inject({
      method: 'POST',
      url: `${new URL(connection.webhookUrl).pathname}?token=not-the-token`,
      headers: form,
      payload: sale,
    });
    expect(forged.statusCode).toBe(400);
    expect(
      (await deliver(connection, ping({ sale_id: 'sale_1', refunded: 'true' }), form)).statusCode,
    ).toBe(200);
    expect((await keysOf(order!))[0]).toMatchObject({ state: 'banned', bannedReason: 'refunded' });

    const rotated = shopConnectionSchema.parse(
      (
        await request(
          'PUT',
          `/api/applications/${application.id}/shop-connections/${connection.id}`,
          {
            rotateUrlToken: true,
          },
        )
      ).json(),
    );
    expect(rotated.webhookUrl).not.toBe(connection.webhookUrl);
    expect((await deliver(connection, sale, form)).statusCode).toBe(400);
    expect((await deliver(rotated, sale, form)).statusCode).toBe(200);
  });

  it('Sellix and SellApp: dynamic delivery answers the keys, the same ones when asked again', async () => {
    const { application, pro } = await setUp();
    const sellix = await connect(application.id, {
      provider: 'sellix',
      name: 'Sellix',
      secret: SELLIX_SECRET,
      products: [{ productId: 'sx_pro', planId: pro.id }],
    });
    const body = JSON.stringify({
      event: 'product:dynamic',
      data: {
        uniqid: 'sx-1',
        customer_email: 'sx@example.com',
        quantity: 3,
        total: 29.97,
        currency: 'USD',
      },
    });
    const headers = {
      'x-sellix-signature': hmac('sha512', SELLIX_SECRET, body),
      'x-sellix-product-id': 'sx_pro',
    };
    const started = performance.now();
    const first = await deliver(sellix, body, headers);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers['content-type']).toMatch(/^text\/plain/);
    const keys = first.body.split('\n');
    expect(keys).toHaveLength(3);
    expect((await deliver(sellix, body, headers)).body).toBe(first.body);
    expect((await orders(application.id))[0]).toMatchObject({ amount: 2997, quantity: 3 });
    expect(
      (await deliver(sellix, body, { ...headers, 'x-sellix-signature': 'ab' })).statusCode,
    ).toBe(400);

    const sellapp = await connect(application.id, {
      provider: 'sellapp',
      name: 'SellApp',
      secret: SELLAPP_SECRET,
      products: [{ productId: '42', planId: pro.id, quantity: 2 }],
    });
    const order = JSON.stringify({
      event: 'order.completed',
      data: {
        id: 9,
        product_variant_id: 42,
        quantity: 1,
        customer_information: { email: 'sa@example.com' },
      },
    });
    const answer = await deliver(sellapp, order, {
      signature: hmac('sha256', SELLAPP_SECRET, order),
    });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.body.split('\n')).toHaveLength(2);
  });

  it('an unmapped product waits, answered 2xx; mapped and processed, it mints once', async () => {
    const { application, pro } = await setUp();
    const connection = await connect(application.id, {
      provider: 'sellix',
      name: 'Sellix',
      secret: SELLIX_SECRET,
    });
    const body = JSON.stringify({
      event: 'product:dynamic',
      data: { uniqid: 'sx-unmapped', customer_email: 'wait@example.com', quantity: 1 },
    });
    const answer = await deliver(connection, body, {
      'x-sellix-signature': hmac('sha512', SELLIX_SECRET, body),
      'x-sellix-product-id': 'later',
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toContain('sent to you by e-mail');
    const [waiting] = await orders(application.id);
    expect(waiting).toMatchObject({ status: 'needs_mapping', licenseIds: [] });
    const process = () =>
      request('POST', `/api/applications/${application.id}/orders/${waiting!.id}/process`);
    expect((await process()).statusCode).toBe(409);
    const mapped = await request(
      'PUT',
      `/api/applications/${application.id}/shop-connections/${connection.id}`,
      { products: [{ productId: 'later', planId: pro.id }] },
    );
    expect(shopConnectionSchema.parse(mapped.json()).ordersNeedingMapping).toBe(1);
    const listed = shopConnectionSchema
      .array()
      .parse((await request('GET', `/api/applications/${application.id}/shop-connections`)).json());
    expect(listed.map((row) => row.ordersNeedingMapping)).toEqual([1]);
    const processed = await process();
    expect(processed.statusCode, processed.body).toBe(200);
    expect(shopOrderSchema.parse(processed.json())).toMatchObject({ status: 'paid' });
    expect(shopOrderSchema.parse(processed.json()).licenseIds).toHaveLength(1);
    expect((await process()).statusCode).toBe(409);
    await mailTo('wait@example.com');
  });

  it('concurrent deliveries of one event mint one set of keys', async () => {
    const { application, pro } = await setUp();
    const connection = await connect(application.id, {
      provider: 'stripe',
      name: 'Stripe',
      secret: STRIPE_SECRET,
      products: [{ productId: 'price_pro', planId: pro.id }],
    });
    const session = unique('cs');
    const event = (id: string) =>
      stripeDelivery(
        checkoutCompleted({ id: session, customer_details: { email: 'race@example.com' } }, id),
      );
    // The same event five times, and the same order under two more event ids.
    const deliveries = [
      ...Array(5).fill(event('evt_same')),
      event('evt_other'),
      event('evt_third'),
    ];
    const answers = await Promise.all(
      deliveries.map((delivery: { body: string; headers: Record<string, string> }) =>
        deliver(connection, delivery.body, delivery.headers),
      ),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(7).fill(200));
    const [order, ...more] = await orders(application.id);
    expect(more).toEqual([]);
    expect(await keysOf(order!)).toHaveLength(1);
  });

  it('a connection mints only for its own application, and a deleted one answers 404', async () => {
    const { application, pro } = await setUp();
    const other = await setUp();
    const refused = await request('POST', `/api/applications/${application.id}/shop-connections`, {
      provider: 'stripe',
      name: 'Stripe',
      secret: STRIPE_SECRET,
      products: [{ productId: 'price_pro', planId: other.pro.id }],
    });
    expect(refused.statusCode).toBe(400);
    expect(
      (
        await request('POST', `/api/applications/${application.id}/shop-connections`, {
          provider: 'stripe',
          name: 'No secret',
        })
      ).statusCode,
    ).toBe(400);
    const connection = await connect(application.id, {
      provider: 'stripe',
      name: 'Stripe',
      secret: STRIPE_SECRET,
      products: [{ productId: 'price_pro', planId: pro.id }],
    });
    const paid = stripeDelivery(
      checkoutCompleted({ customer_details: { email: 'own@example.com' } }),
    );
    expect((await deliver(connection, paid.body, paid.headers)).statusCode).toBe(200);
    expect(await orders(other.application.id)).toEqual([]);
    const [order] = await orders(application.id);
    const [key] = await keysOf(order!);
    expect(key!.applicationId).toBe(application.id);

    const deleted = await request(
      'DELETE',
      `/api/applications/${application.id}/shop-connections/${connection.id}`,
    );
    expect(deleted.statusCode).toBe(200);
    expect((await deliver(connection, paid.body, paid.headers)).statusCode).toBe(404);
    expect(await orders(application.id)).toHaveLength(1);
  });

  it('a test event runs a signed sample order end to end in test mode', async () => {
    const { application, pro } = await setUp();
    for (const provider of [
      'stripe',
      'lemonsqueezy',
      'paddle',
      'gumroad',
      'sellix',
      'sellapp',
    ] as const) {
      const connection = await connect(application.id, {
        provider,
        name: `Test ${provider}`,
        ...(provider === 'gumroad' || provider === 'lemonsqueezy'
          ? {}
          : { secret: `${provider}-secret-0123456789` }),
        products: [{ productId: 'sample', planId: pro.id }],
      });
      const response = await request(
        'POST',
        `/api/applications/${application.id}/shop-connections/${connection.id}/test-event`,
        { productId: 'sample', buyerEmail: `${provider}@example.com` },
      );
      expect(response.statusCode, response.body).toBe(200);
      const { order } = shopTestEventResultSchema.parse(response.json());
      expect(order, provider).toMatchObject({
        status: 'paid',
        testMode: true,
        buyerEmail: `${provider}@example.com`,
      });
      expect(
        order!.licenseIds,
        `${provider} ${JSON.stringify(await orders(application.id))}`,
      ).toHaveLength(1);
    }
  });

  it('the dashboard sums live orders and revenue per currency, refunds taken off', async () => {
    const seller = await signInOwner(testApp.app);
    const application = await insertClientApplication(testApp, seller.accountId, { name: 'Sales' });
    const plan = await createPlanViaApi(testApp.app, seller, application.id, { durationDays: 30 });
    const asSeller = (...args: Parameters<ReturnType<typeof ownerRequests>>) =>
      ownerRequests(testApp, seller)(...args);
    const created = await asSeller('POST', `/api/applications/${application.id}/shop-connections`, {
      provider: 'gumroad',
      name: 'Gumroad',
      products: [{ productId: 'gum', planId: plan.id }],
    });
    const connection = createdShopConnectionSchema.parse(created.json());
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const sale = (fields: Record<string, string>) =>
      deliver(connection, new URLSearchParams(fields).toString(), form);
    const base = { product_id: 'gum', email: 'sales@example.com', quantity: '1' };
    await sale({ ...base, sale_id: 's1', price: '500', currency: 'usd' });
    await sale({ ...base, sale_id: 's2', price: '700', currency: 'usd' });
    await sale({ ...base, sale_id: 's3', price: '900', currency: 'eur' });
    await sale({ ...base, sale_id: 's4', price: '100', currency: 'usd', test: 'true' });
    await sale({ sale_id: 's2', refunded: 'true' });
    // A bookkeeping script reads the same orders with a token of scope orders:read.
    await db()
      .update(ownerAccounts)
      .set({ permissions: ['manage_applications', 'manage_api_tokens'] })
      .where(eq(ownerAccounts.id, seller.accountId));
    const reader = await createApiTokenViaApi(testApp.app, seller, { scopes: ['orders:read'] });
    const other = await createApiTokenViaApi(testApp.app, seller, { scopes: ['licenses:read'] });
    const managed = (token: string) =>
      testApp.app.inject({
        method: 'GET',
        url: `/api/manage/v1/applications/${application.id}/orders?status=refunded`,
        headers: { authorization: `Bearer ${token}` },
      });
    const read = await managed(reader.token);
    expect(read.statusCode, read.body).toBe(200);
    expect(
      shopOrderSchema
        .array()
        .parse(read.json())
        .map((order) => order.providerOrderId),
    ).toEqual(['s2']);
    expect((await managed(other.token)).statusCode).toBe(403);
    const sales = shopSalesSchema.parse((await asSeller('GET', '/api/dashboard/sales')).json());
    const expected = [
      { currency: 'EUR', orders: 1, revenue: 900, refunds: 0 },
      { currency: 'USD', orders: 2, revenue: 500, refunds: 1 },
    ];
    expect(sales.today).toEqual(expected);
    expect(sales.last30Days).toEqual(expected);
  });

  it('a refund ends the sessions that held on the key, where a licence is required', async () => {
    const application = await insertClientApplication(testApp, owner.accountId, {
      name: unique('Licensed'),
      version: '1.0',
      isLicenseRequired: true,
    });
    const pro = await createPlanViaApi(testApp.app, owner, application.id, { durationDays: 30 });
    const connection = await connect(application.id, {
      provider: 'gumroad',
      name: 'Gumroad',
      products: [{ productId: 'gum_pro', planId: pro.id }],
    });
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const ping = (fields: Record<string, string>) =>
      deliver(connection, new URLSearchParams(fields).toString(), form);
    const buyer = `${unique('held')}@example.com`;
    expect(
      (await ping({ sale_id: 'held_1', product_id: 'gum_pro', email: buyer, quantity: '1' }))
        .statusCode,
    ).toBe(200);
    const [mail] = await mailTo(buyer);
    const key = mail!.parsed.text!.match(/[A-Z0-9]{5}(?:-[A-Z0-9]{5}){4}/)![0];
    const username = unique('holder');
    const password = 'a fine passphrase';
    const registered = await callClientApi(testApp.app, 'register', {
      apiKey: application.apiKey,
      body: { username, password, license_key: key },
    });
    const userId = clientAuthResponseSchema.parse(registered.json()).user_id!;
    await startClientSession(testApp.app, application, { id: userId, username }, password);
    const live = () =>
      db()
        .select()
        .from(appUserSessions)
        .where(and(eq(appUserSessions.appUserId, userId), isNull(appUserSessions.endedAt)));
    expect(await live()).toHaveLength(1);

    expect((await ping({ sale_id: 'held_1', disputed: 'true' })).statusCode).toBe(200);
    expect(await live()).toEqual([]);
    const [ended] = await db()
      .select()
      .from(appUserSessions)
      .where(eq(appUserSessions.appUserId, userId));
    expect(ended!.endReason).toBe('standing');
    const [order] = await orders(application.id);
    expect(order!.status).toBe('chargeback');
  });

  it('Paddle and Gumroad renewals extend; Sellix and SellApp disputes ban; a forged SellApp call mints nothing', async () => {
    const { application, pro } = await setUp();
    // Paddle: the first transaction of a subscription, then a recurring one.
    const paddleShop = await connect(application.id, {
      provider: 'paddle',
      name: 'Paddle',
      secret: PADDLE_SECRET,
      products: [{ productId: 'pri_sub', planId: pro.id }],
    });
    const paddle = (payload: object) => {
      const body = JSON.stringify(payload);
      const ts = nowSeconds();
      return {
        body,
        headers: {
          'paddle-signature': `ts=${ts};h1=${hmac('sha256', PADDLE_SECRET, `${ts}:${body}`)}`,
        },
      };
    };
    const transaction = (id: string, origin: string) =>
      paddle({
        event_id: unique('evt'),
        event_type: 'transaction.completed',
        data: {
          id,
          origin,
          subscription_id: 'sub_paddle',
          custom_data: { email: 'paddle.sub@example.com' },
          items: [{ price: { id: 'pri_sub' }, quantity: 1 }],
          details: { totals: { grand_total: '900', currency_code: 'USD' } },
        },
      });
    for (const delivery of [
      transaction('txn_first', 'web'),
      transaction('txn_second', 'subscription_recurring'),
    ]) {
      expect((await deliver(paddleShop, delivery.body, delivery.headers)).statusCode).toBe(200);
    }
    const [paddleOrder] = await orders(application.id, '?search=txn_first');
    expect((await keysOf(paddleOrder!))[0]!.extraDays).toBe(30);
    expect((await orders(application.id, '?search=txn_second'))[0]!.status).toBe('renewed');

    // Gumroad: a membership's recurring charge.
    const gumroad = await connect(application.id, {
      provider: 'gumroad',
      name: 'Gumroad',
      products: [{ productId: 'gum_member', planId: pro.id }],
    });
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const ping = (fields: Record<string, string>) =>
      deliver(gumroad, new URLSearchParams(fields).toString(), form);
    const member = {
      product_id: 'gum_member',
      email: 'member@example.com',
      subscription_id: 'gsub',
    };
    expect((await ping({ ...member, sale_id: 'g_first' })).statusCode).toBe(200);
    expect(
      (await ping({ ...member, sale_id: 'g_second', is_recurring_charge: 'true' })).statusCode,
    ).toBe(200);
    const [gumroadOrder] = await orders(application.id, '?search=g_first');
    expect((await keysOf(gumroadOrder!))[0]!.extraDays).toBe(30);

    // Sellix and SellApp: a dispute bans the order's keys.
    const sellix = await connect(application.id, {
      provider: 'sellix',
      name: 'Sellix',
      secret: SELLIX_SECRET,
      products: [{ productId: 'sx_pro', planId: pro.id }],
    });
    const sellixEvent = (event: string) => {
      const body = JSON.stringify({
        event,
        data: { uniqid: 'sx-disputed', customer_email: 'sx@example.com' },
      });
      return {
        body,
        headers: {
          'x-sellix-signature': hmac('sha512', SELLIX_SECRET, body),
          'x-sellix-product-id': 'sx_pro',
        },
      };
    };
    for (const event of ['product:dynamic', 'order:disputed']) {
      const delivery = sellixEvent(event);
      expect((await deliver(sellix, delivery.body, delivery.headers)).statusCode).toBe(200);
    }
    const [sellixOrder] = await orders(application.id, '?search=sx-disputed');
    expect(sellixOrder!.status).toBe('chargeback');
    expect((await keysOf(sellixOrder!))[0]).toMatchObject({ state: 'banned' });

    const sellapp = await connect(application.id, {
      provider: 'sellapp',
      name: 'SellApp',
      secret: SELLAPP_SECRET,
      products: [{ productId: '7', planId: pro.id }],
    });
    const sellappEvent = (event: string) =>
      JSON.stringify({
        event,
        data: { id: 70, product_variant_id: 7, customer_information: { email: 'sa@example.com' } },
      });
    const forged = sellappEvent('order.completed');
    expect(
      (await deliver(sellapp, forged, { signature: hmac('sha256', 'not-the-secret', forged) }))
        .statusCode,
    ).toBe(400);
    expect(await orders(application.id, '?search=70')).toEqual([]);
    for (const event of ['order.completed', 'order.disputed']) {
      const body = sellappEvent(event);
      const answer = await deliver(sellapp, body, {
        signature: hmac('sha256', SELLAPP_SECRET, body),
      });
      expect(answer.statusCode).toBe(200);
    }
    const [sellappOrder] = await orders(application.id, '?search=70');
    expect(sellappOrder!.status).toBe('chargeback');
  });
});
