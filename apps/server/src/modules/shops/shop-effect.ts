import type { Database } from '../../db/client.ts';
import type { ShopConnectionRow } from '../../db/schema/index.ts';
import type { ActivityRecord } from '../../events/activity-events.ts';

/** What an event's effect needs, inside the transaction that records the event. */
export interface ShopEffectContext {
  tx: Database;
  connection: ShopConnectionRow;
  now: Date;
  serverSecret: string;
  /** Whether the server sends mail: without it keys are minted and only not mailed. */
  canMail: boolean;
}

/** What an event did, for its row, the answer and what follows the commit. */
export interface ShopEffect {
  /** One line for the owner: what happened, or why nothing did. */
  outcome: string;
  /** The order rows it created or changed. */
  orderIds: string[];
  activity: ActivityRecord[];
  hasQueuedMail: boolean;
  /** The whole keys of the event's order lines (a dynamic delivery's answer). */
  keys: string[];
  /** End users whose standing changed (a ban, an extension): their caches are told. */
  changedUserIds: string[];
}

export const noEffect = (outcome: string): ShopEffect => ({
  outcome,
  orderIds: [],
  activity: [],
  hasQueuedMail: false,
  keys: [],
  changedUserIds: [],
});

export function mergeEffects(outcome: string, effects: ShopEffect[]): ShopEffect {
  return {
    outcome,
    orderIds: effects.flatMap((effect) => effect.orderIds),
    activity: effects.flatMap((effect) => effect.activity),
    hasQueuedMail: effects.some((effect) => effect.hasQueuedMail),
    keys: effects.flatMap((effect) => effect.keys),
    changedUserIds: [...new Set(effects.flatMap((effect) => effect.changedUserIds))],
  };
}

/** An order event of the activity log: never a key's text. */
export function orderActivity(
  ctx: ShopEffectContext,
  event: 'order_paid' | 'order_renewed' | 'order_refunded',
  order: {
    id: string;
    providerOrderId: string;
    productId: string;
    buyerEmail: string | null;
    status: string;
    isTestMode: boolean;
  },
  extra: Record<string, unknown> = {},
): ActivityRecord {
  return {
    applicationId: ctx.connection.applicationId,
    appUserId: null,
    username: null,
    event,
    success: true,
    ipAddress: null,
    errorMessage: null,
    metadata: {
      code: 'OK',
      orderId: order.id,
      provider: ctx.connection.provider,
      connectionId: ctx.connection.id,
      providerOrderId: order.providerOrderId,
      productId: order.productId,
      buyerEmail: order.buyerEmail,
      status: order.status,
      testMode: order.isTestMode,
      ...extra,
    },
    createdAt: ctx.now,
  };
}
