import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { DEFAULT_LICENSE_KEY_MASK } from '@latchkey/contracts';
import type { DatabaseConnection } from '../../db/client.ts';
import { rowsOf } from '../../db/rows-of.ts';
import type { Context } from '../../http/request-context.ts';
import { inferredPrefixLengths, maskCharacterBits } from './license-key-entropy.ts';
import {
  licenseKeyCharacters,
  licenseKeyPrefix,
  licenseKeyPrefixLength,
} from './license-key-prefix.ts';
import { licenseKeyDisplay, unsealLicenseKey } from './license-key-secrets.ts';

/** Arbitrary but fixed: every instance must ask for the same advisory lock. */
export const LICENSE_KEY_PREFIX_BACKFILL_LOCK_KEY = 0x4c4b_5042; // 'LKPB'

export interface LicenseKeyPrefixBackfillResult {
  /** Pending keys worked through (each is pending no more). */
  keysExamined: number;
  /** Of those, the keys that now have a prefix. */
  keysPrefixed: number;
  /** UPDATE statements run, so a test can see that batches stay bounded. */
  statements: number;
}

interface PendingKey {
  id: string;
  key_sealed: string;
  is_from_shop: boolean;
}

/** Shop orders mint with the default mask in upper case: their format is known. */
const shopKeyCharacterBits = maskCharacterBits(DEFAULT_LICENSE_KEY_MASK, 'upper');

/**
 * Gives the keys that were there before prefixes were kept (`key_prefix_pending`) their prefix
 * and the display form that shows it. Their text is sealed, so SQL alone cannot: each batch is
 * unsealed here. Their mask was not recorded either, so a batch is one generation (the keys of
 * one application, plan and creation time: a generation writes them all at one time) and what
 * their prefix may show is inferred from it (license-key-entropy.ts), except for a shop's keys,
 * whose format is known. Only one instance works at a time (null when another holds the lock);
 * each batch is one short UPDATE, conditional on the row still pending, and `shouldStop` is
 * asked between batches, so a shutdown does not wait for a long backfill.
 */
export async function backfillLicenseKeyPrefixes({
  ctx,
  input,
}: {
  ctx: Context & {
    database: Pick<DatabaseConnection, 'runExclusively'>;
    serverSecret: string;
  };
  input: { batchSize: number; pauseMs: number; shouldStop?: () => boolean };
}): Promise<LicenseKeyPrefixBackfillResult | null> {
  const result: LicenseKeyPrefixBackfillResult = {
    keysExamined: 0,
    keysPrefixed: 0,
    statements: 0,
  };
  const ran = await ctx.database.runExclusively(LICENSE_KEY_PREFIX_BACKFILL_LOCK_KEY, async () => {
    for (;;) {
      if (input.shouldStop?.()) return;
      // The generation of the first pending key (found by the partial index), then up to a
      // batch of its pending keys: compared in SQL, since created_at has microseconds a
      // JavaScript date would lose.
      const pending = rowsOf<PendingKey>(
        await ctx.db.execute(sql`
          select k.id, k.key_sealed, k.shop_order_id is not null as is_from_shop
          from license_keys k
          where k.key_prefix_pending
            and (k.application_id, k.plan_id, k.created_at) = (
              select application_id, plan_id, created_at from license_keys
              where key_prefix_pending order by id limit 1)
          limit ${input.batchSize}`),
      );
      if (pending.length === 0) return;
      const updates = prefixesOf(pending, ctx);
      await ctx.db.execute(sql`
        update license_keys k
        set key_prefix = u.key_prefix, display = coalesce(u.display, k.display),
            key_prefix_pending = false
        from jsonb_to_recordset(${JSON.stringify(updates)}::jsonb)
          as u(id uuid, key_prefix text, display text)
        where k.id = u.id and k.key_prefix_pending`);
      result.statements += 1;
      result.keysExamined += updates.length;
      result.keysPrefixed += updates.filter((update) => update.key_prefix !== null).length;
      if (input.pauseMs > 0) await sleep(input.pauseMs);
    }
  });
  return ran ? result : null;
}

/**
 * Each key's prefix and display form. A key that cannot be unsealed (a row damaged by hand) is
 * logged by id and left as it was, without a prefix, rather than stop the backfill on it.
 */
function prefixesOf(
  pending: readonly PendingKey[],
  ctx: Pick<Context, 'log'> & { serverSecret: string },
): { id: string; key_prefix: string | null; display: string | null }[] {
  const unsealed: { id: string; key: string | null; isFromShop: boolean }[] = pending.map((row) => {
    try {
      return {
        id: row.id,
        key: unsealLicenseKey(row.key_sealed, ctx.serverSecret),
        isFromShop: row.is_from_shop,
      };
    } catch (error) {
      ctx.log.warn({ err: error, licenseId: row.id }, 'licence key prefix: cannot unseal');
      return { id: row.id, key: null, isFromShop: row.is_from_shop };
    }
  });
  const isShopFormat = (key: string, isFromShop: boolean) =>
    isFromShop && licenseKeyCharacters(key).length === shopKeyCharacterBits.length;
  const inferred = inferredPrefixLengths(
    unsealed.flatMap(({ key, isFromShop }) =>
      key === null || isShopFormat(key, isFromShop) ? [] : [key],
    ),
  );
  const shopPrefixLength = licenseKeyPrefixLength(shopKeyCharacterBits);
  return unsealed.map(({ id, key, isFromShop }) => {
    if (key === null) return { id, key_prefix: null, display: null };
    const prefixLength = isShopFormat(key, isFromShop) ? shopPrefixLength : inferred.get(key)!;
    return {
      id,
      key_prefix: licenseKeyPrefix(key, prefixLength),
      display: licenseKeyDisplay(key, prefixLength),
    };
  });
}
