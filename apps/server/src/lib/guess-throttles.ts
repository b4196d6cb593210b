import { setTimeout as wait } from 'node:timers/promises';
import type { Config } from '../config.ts';
import { addressPrefixesOf } from './address-prefixes.ts';
import {
  createFailureThrottle,
  type FailureCheck,
  type LiveThrottleRows,
  type ThrottleStore,
} from './failure-throttle.ts';
import type { RateLimitDecision } from './rate-limiter.ts';

/** One attempt at a secret we issued (a licence key, a download link). */
export interface Guess {
  /** The client's address, as clientIpOf spells it. */
  ipAddress: string;
  /** What identifies the secret tried: a keyed digest of it, never its text. */
  secretDigest: string;
  /** What the secret would open for everyone (an application, a file). */
  scope: string;
}

/** Counter names in the store; each becomes the key prefix of its rows. */
export interface GuessCounterNames {
  address: string;
  range: string;
  secret: string;
  scope: string;
}

/**
 * Failed guesses at one kind of secret, counted where the guesser is and at what they guess,
 * never at what every holder shares: per address (an IPv6 /64), per range (an IPv4 /24, an
 * IPv6 /48), and per secret tried. While any of those is spent the attempt is refused (429).
 * A scope's count (an application, a file) only slows: past its ceiling, an address that
 * already failed waits before its attempt is looked at. Refusing there would let a stranger
 * with a few hundred wrong guesses lock out every holder of a valid secret, so an address with
 * no failures of its own is never held back by it.
 */
export function createGuessThrottles(options: {
  store: ThrottleStore;
  names: GuessCounterNames;
  limits: Pick<
    Config['clientApi'],
    | 'licenseIpFailureLimit'
    | 'licenseRangeFailureLimit'
    | 'licenseKeyFailureLimit'
    | 'licenseAppFailureLimit'
    | 'licenseFailureDelayMs'
    | 'loginFailureWindowMs'
  >;
  /** How an attempt waits (a test records it instead). */
  sleep?: (ms: number) => Promise<unknown>;
}) {
  const { store, names, limits } = options;
  const sleep = options.sleep ?? wait;
  const counter = (name: string, maxFailures: number) =>
    createFailureThrottle({ store, name, maxFailures, windowMs: limits.loginFailureWindowMs });
  const counters = {
    address: counter(names.address, limits.licenseIpFailureLimit),
    range: counter(names.range, limits.licenseRangeFailureLimit),
    secret: counter(names.secret, limits.licenseKeyFailureLimit),
    scope: counter(names.scope, limits.licenseAppFailureLimit),
  };
  type CounterName = keyof typeof counters;
  const counterNames = Object.keys(counters) as CounterName[];
  const keysOf = (guess: Guess): Record<CounterName, string> => {
    const { address, range } = addressPrefixesOf(guess.ipAddress);
    return { address, range, secret: guess.secretDigest, scope: guess.scope };
  };
  /** The counters' rows in the database store; null with Redis. */
  const storeKeysOf = (guess: Guess): Record<CounterName, string> | null => {
    const keys = keysOf(guess);
    const storeKeys = {} as Record<CounterName, string>;
    for (const name of counterNames) {
      const storeKey = counters[name].storeKey(keys[name]);
      if (storeKey === null) return null;
      storeKeys[name] = storeKey;
    }
    return storeKeys;
  };
  const checkAll = async (
    guess: Guess,
    prefetched: LiveThrottleRows | undefined,
  ): Promise<Record<CounterName, FailureCheck>> => {
    const storeKeys = storeKeysOf(guess);
    const live =
      prefetched ??
      (storeKeys && store.readLiveRows
        ? await store.readLiveRows(Object.values(storeKeys))
        : undefined);
    if (storeKeys && live) {
      const { nowMs, rows } = live;
      return {
        address: counters.address.decideFromRow(rows.get(storeKeys.address), nowMs),
        range: counters.range.decideFromRow(rows.get(storeKeys.range), nowMs),
        secret: counters.secret.decideFromRow(rows.get(storeKeys.secret), nowMs),
        scope: counters.scope.decideFromRow(rows.get(storeKeys.scope), nowMs),
      };
    }
    const keys = keysOf(guess);
    const [address, range, secret, scope] = await Promise.all(
      counterNames.map((name) => counters[name].check(keys[name])),
    );
    return { address: address!, range: range!, secret: secret!, scope: scope! };
  };

  return {
    /**
     * The store keys of an attempt's counters, so a statement the call makes anyway can read
     * them (`LiveThrottleRows`); null with Redis, which keeps them itself.
     */
    storeKeysOf: (guess: Guess): string[] | null => {
      const storeKeys = storeKeysOf(guess);
      return storeKeys && Object.values(storeKeys);
    },
    /**
     * Whether the attempt may be looked at, from rows already read when given (`prefetched`),
     * else from the store (one statement with the database store). Waits first when the scope
     * is past its ceiling and this address has failed before.
     */
    async admit(guess: Guess, prefetched?: LiveThrottleRows): Promise<RateLimitDecision> {
      const checks = await checkAll(guess, prefetched);
      const spent = [checks.address, checks.range, checks.secret].filter(
        (check) => !check.isAllowed,
      );
      if (spent.length > 0) {
        return {
          isAllowed: false,
          retryAfterSeconds: Math.max(...spent.map((check) => check.retryAfterSeconds)),
        };
      }
      if (!checks.scope.isAllowed && checks.address.hasFailures && limits.licenseFailureDelayMs) {
        await sleep(limits.licenseFailureDelayMs);
      }
      return { isAllowed: true, retryAfterSeconds: 0 };
    },
    async recordFailure(guess: Guess): Promise<void> {
      const keys = keysOf(guess);
      await Promise.all(counterNames.map((name) => counters[name].recordFailure(keys[name])));
    },
  };
}
export type GuessThrottles = ReturnType<typeof createGuessThrottles>;
