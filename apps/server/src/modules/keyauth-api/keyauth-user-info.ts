import { eq } from 'drizzle-orm';
import { appUsers } from '../../db/schema/index.ts';
import type { ClientCallServices } from '../client-api/index.ts';
import {
  heldSubscriptionsJson,
  parseHeldSubscriptions,
  type HeldSubscription,
} from '../subscriptions/index.ts';

type InfoContext = ReturnType<ClientCallServices['contextOf']>;

/** One of `info.subscriptions`, as KeyAuth's clients parse it. */
export interface KeyauthSubscription {
  subscription: string;
  key: string | null;
  /** Unix seconds, as a string. */
  expiry: string;
  /** Seconds left, a number. */
  timeleft: number;
  level: string;
}

/** KeyAuth's `info`: numbers that KeyAuth sends as strings are strings here too. */
export interface KeyauthUserInfo {
  username: string;
  subscriptions: KeyauthSubscription[];
  ip: string;
  hwid: string | null;
  createdate: string;
  lastlogin: string;
}

/** What stands for "no end" where KeyAuth's clients expect a date: 2100-01-01. */
const NO_EXPIRY_SECONDS = 4_102_444_800;

/** A plan's KeyAuth level: an entitlement `LEVEL_N` (how the importer keeps it), else 1. */
const levelOf = (held: HeldSubscription): string =>
  held.entitlements.map((code) => /^LEVEL_(\d+)$/i.exec(code)?.[1]).find(Boolean) ?? '1';

const seconds = (date: Date | null) =>
  date === null ? NO_EXPIRY_SECONDS : Math.floor(date.getTime() / 1000);

/**
 * The user's `info` after a login: one read by primary key. A user who holds no subscription is
 * answered one named `default` that ends when the account does, as KeyAuth's own default
 * subscription would: KeyAuth's example programs read `subscriptions[0]` unconditionally.
 * Licence keys are never answered (`key` is null): a key is a bearer secret.
 */
export async function userInfoOf(ctx: InfoContext, appUserId: string): Promise<KeyauthUserInfo> {
  const [user] = await ctx.db
    .select({
      username: appUsers.username,
      expiresAt: appUsers.expiresAt,
      createdAt: appUsers.createdAt,
      lastLogin: appUsers.lastLogin,
      lastLoginIp: appUsers.lastLoginIp,
      lastLoginHwid: appUsers.lastLoginHwid,
      held: heldSubscriptionsJson(appUsers.id),
    })
    .from(appUsers)
    .where(eq(appUsers.id, appUserId));
  const now = ctx.clock.now();
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const held = parseHeldSubscriptions(user?.held ?? null).filter(
    (subscription) => subscription.expiresAt === null || subscription.expiresAt > now,
  );
  const subscriptions: KeyauthSubscription[] = (
    held.length > 0
      ? held.map((subscription) => ({
          name: subscription.plan,
          ends: subscription.expiresAt,
          level: levelOf(subscription),
        }))
      : [{ name: 'default', ends: user?.expiresAt ?? null, level: '1' }]
  ).map(({ name, ends, level }) => ({
    subscription: name,
    key: null,
    expiry: String(seconds(ends)),
    timeleft: Math.max(0, seconds(ends) - nowSeconds),
    level,
  }));
  return {
    username: user?.username ?? '',
    subscriptions,
    ip: user?.lastLoginIp ?? ctx.ipAddress,
    hwid: user?.lastLoginHwid ?? null,
    createdate: String(seconds(user?.createdAt ?? now)),
    lastlogin: String(seconds(user?.lastLogin ?? now)),
  };
}
