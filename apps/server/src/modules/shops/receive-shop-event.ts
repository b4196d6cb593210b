import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { SHOP_EVENT_MALFORMED, SHOP_SIGNATURE_INVALID } from '@latchkey/contracts';
import type { Database } from '../../db/client.ts';
import { shopConnections, shopEvents, type ShopConnectionRow } from '../../db/schema/index.ts';
import type { ApplicationEvents } from '../../events/application-events.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import { writeActivityRows, type ActivityRecorder } from '../activity/index.ts';
import type { MailOutbox } from '../mail/index.ts';
import { applyCustomerEvent, applySubscriptionLinkEvent } from './apply-customer-events.ts';
import { applyPaidEvent } from './apply-paid-event.ts';
import { applyRenewalEvent } from './apply-renewal-event.ts';
import { applyReversalEvent } from './apply-reversal-event.ts';
import { readShopEvent } from './providers/read-shop-event.ts';
import { fetchStripeLineItems } from './providers/stripe-line-items.ts';
import {
  ShopEventMalformedError,
  ShopSignatureError,
  type ShopEvent,
  type ShopRequest,
} from './providers/shop-event.ts';
import { noEffect, type ShopEffect, type ShopEffectContext } from './shop-effect.ts';
import { unsealShopSecret } from './shop-secrets.ts';

/** What receiving a shop's event needs: no owner, the connection is the credential. */
export interface ShopReceiveContext {
  db: Database;
  log: FastifyBaseLogger;
  clock: Clock;
  serverSecret: string;
  /** Where Stripe's API is (STRIPE_API_URL); null is Stripe's own. */
  stripeApiUrl: string | null;
  mail: MailOutbox;
  activity: Pick<ActivityRecorder, 'noteWritten'>;
  applicationEvents: ApplicationEvents;
}

export interface ShopReceipt {
  connection: ShopConnectionRow;
  event: ShopEvent;
  isDuplicate: boolean;
  effect: ShopEffect;
}

export const SHOP_CONNECTION_UNKNOWN = 'No shop connection at this address';

/**
 * One delivery of a shop, end to end: the connection by its URL's id (404 when unknown or
 * deleted), the signature checked on the raw bytes before anything is parsed (400, naming no
 * secret), then the event and its effect in one transaction, committed before the answer
 * leaves. The event's row (unique per connection and provider event id) is inserted first:
 * a second delivery of the same event waits for the first to commit, then finds it and
 * changes nothing. Paid events and renewals take the connection's lock shared, refunds
 * exclusively, so a refund racing its own order on another instance cannot miss it.
 */
export async function receiveShopEvent({
  ctx,
  input,
}: {
  ctx: ShopReceiveContext;
  input: { publicId: string; request: ShopRequest };
}): Promise<ShopReceipt> {
  const [connection] = await ctx.db
    .select()
    .from(shopConnections)
    .where(and(eq(shopConnections.publicId, input.publicId), isNull(shopConnections.deletedAt)));
  if (!connection) throw notFound(SHOP_CONNECTION_UNKNOWN);
  let event: ShopEvent;
  try {
    event = await readShopEvent(input.request, {
      provider: connection.provider,
      secret:
        connection.secretSealed && unsealShopSecret(connection.secretSealed, ctx.serverSecret),
      urlToken:
        connection.urlTokenSealed && unsealShopSecret(connection.urlTokenSealed, ctx.serverSecret),
    });
  } catch (error) {
    if (error instanceof ShopSignatureError) {
      ctx.log.warn({ connectionId: connection.id, reason: error.message }, 'shop event refused');
      throw badRequest(SHOP_SIGNATURE_INVALID);
    }
    if (error instanceof ShopEventMalformedError) throw badRequest(SHOP_EVENT_MALFORMED);
    throw error;
  }
  return recordShopEvent(ctx, connection, await withStripeLineItems(ctx, connection, event));
}

/** The event's row and its effect in one transaction; what follows the commit after it. */
export async function recordShopEvent(
  ctx: ShopReceiveContext,
  connection: ShopConnectionRow,
  event: ShopEvent,
): Promise<ShopReceipt> {
  const now = ctx.clock.now();
  const result = await ctx.db.transaction(async (tx) => {
    const isReversal = event.kind === 'refund' || event.kind === 'chargeback';
    const lockKey = sql`hashtextextended(${`shop:${connection.id}`}, 0)`;
    await tx.execute(
      isReversal
        ? sql`select pg_advisory_xact_lock(${lockKey})`
        : sql`select pg_advisory_xact_lock_shared(${lockKey})`,
    );
    const [row] = await tx
      .insert(shopEvents)
      .values({
        connectionId: connection.id,
        providerEventId: event.eventId,
        type: event.type,
        kind: event.kind,
        refs: 'refs' in event ? event.refs : [],
        outcome: 'received',
        receivedAt: now,
      })
      .onConflictDoNothing()
      .returning({ id: shopEvents.id });
    const effectCtx: ShopEffectContext = {
      tx,
      connection,
      now,
      serverSecret: ctx.serverSecret,
      canMail: ctx.mail.isAvailable,
    };
    if (!row) {
      // Delivered before: a dynamic delivery asked again answers the keys it got then.
      const again =
        event.kind === 'paid' ? await applyPaidEvent(effectCtx, event) : noEffect('duplicate');
      return {
        isDuplicate: true,
        effect: { ...again, activity: [], hasQueuedMail: false },
        queued: 0,
      };
    }
    const effect = await effectOf(effectCtx, event);
    await tx
      .update(shopEvents)
      .set({ outcome: effect.outcome.slice(0, 500), orderId: effect.orderIds[0] ?? null })
      .where(eq(shopEvents.id, row.id));
    const queued = effect.activity.length > 0 ? await writeActivityRows(tx, effect.activity) : 0;
    return { isDuplicate: false, effect, queued };
  });
  const { effect } = result;
  if (effect.hasQueuedMail) ctx.mail.wake();
  for (const record of effect.activity) ctx.activity.noteWritten(record, result.queued);
  for (const userId of effect.changedUserIds) {
    await ctx.applicationEvents.emitChange(
      { kind: 'end-user-changed', applicationId: connection.applicationId, userId },
      ctx.log,
    );
  }
  ctx.log.info(
    {
      connectionId: connection.id,
      eventId: event.eventId,
      kind: event.kind,
      isDuplicate: result.isDuplicate,
      outcome: effect.outcome,
    },
    'shop event',
  );
  return { connection, event, isDuplicate: result.isDuplicate, effect };
}

/**
 * A Stripe session that names no product (no metadata, no expanded line items) has its line
 * items read with the connection's API key, before the transaction. When Stripe does not
 * answer, neither do we (503): Stripe delivers the event again later, rather than the order
 * being recorded as naming no product.
 */
async function withStripeLineItems(
  ctx: ShopReceiveContext,
  connection: ShopConnectionRow,
  event: ShopEvent,
): Promise<ShopEvent> {
  if (event.kind !== 'paid' || event.items.length > 0 || !connection.apiKeySealed) return event;
  if (connection.provider !== 'stripe') return event;
  const apiKey = unsealShopSecret(connection.apiKeySealed, ctx.serverSecret);
  try {
    return { ...event, items: await fetchStripeLineItems(apiKey, event.orderId, ctx.stripeApiUrl) };
  } catch (error) {
    ctx.log.warn({ err: error, connectionId: connection.id }, 'Stripe line items not read');
    throw new AppError('UNAVAILABLE', STRIPE_LINE_ITEMS_UNREAD);
  }
}

export const STRIPE_LINE_ITEMS_UNREAD =
  'Stripe did not answer with the session\u2019s line items: deliver the event again later';

function effectOf(ctx: ShopEffectContext, event: ShopEvent): Promise<ShopEffect> {
  switch (event.kind) {
    case 'paid':
      return applyPaidEvent(ctx, event);
    case 'renewal':
      return applyRenewalEvent(ctx, event);
    case 'refund':
    case 'chargeback':
      return applyReversalEvent(ctx, event);
    case 'subscription':
      return applySubscriptionLinkEvent(ctx, event);
    case 'customer':
      return applyCustomerEvent(ctx, event);
    case 'lapse':
      return Promise.resolve(noEffect('the subscription ended: its keys run out by themselves'));
    case 'ignored':
      return Promise.resolve(noEffect('not an event that changes an order'));
  }
}
