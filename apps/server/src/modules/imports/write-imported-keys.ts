import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { rowsOf } from '../../db/rows-of.ts';
import type { ImportRecord } from '../../db/schema/index.ts';
import {
  inferredPrefixLengths,
  licenseKeyDigest,
  licenseKeyDisplay,
  licenseKeyPrefix,
  licenseKeySuffix,
  sealLicenseKey,
} from '../licenses/index.ts';
import type { KeyAuthKeyRow } from './keyauth-export.ts';
import { KEY_WITHOUT_LEVEL } from './find-import-conflicts.ts';

/**
 * One batch of licence keys in one statement (ON CONFLICT DO NOTHING: a key the application
 * has meanwhile is skipped). Keys keep their text (found by digest, sealed for reveal) and
 * their status. A used key names its user when the application has one by that username
 * (imported users first, then keys); a banned key that was used keeps that user and
 * `was_used`, as a ban here would. Answers how many keys it created. The rows travel as one
 * jsonb document, as in write-imported-users.ts, for the same reason. The mask the keys were
 * made with is not known, so how many first characters each keeps is inferred from the keys
 * generated with it (importedKeyPrefixLengths).
 */
export async function writeImportedKeys(
  tx: Database,
  record: ImportRecord,
  rows: readonly KeyAuthKeyRow[],
  now: Date,
  serverSecret: string,
): Promise<number> {
  const prefixLengths = importedKeyPrefixLengths(rows);
  const keys = rows.map((row) => {
    const prefixLength = prefixLengths.get(row) ?? 0;
    const state = row.status ?? 'unused';
    const wasUsed = state === 'used' || (state === 'banned' && row.usedBy !== null);
    return {
      plan_id: record.levelPlans[row.level ?? KEY_WITHOUT_LEVEL]!,
      key_digest: licenseKeyDigest(row.key, serverSecret),
      key_sealed: sealLicenseKey(row.key, serverSecret),
      display: licenseKeyDisplay(row.key, prefixLength),
      key_suffix: licenseKeySuffix(row.key),
      key_prefix: licenseKeyPrefix(row.key, prefixLength),
      state,
      note: row.note,
      used_by: wasUsed ? row.usedBy : null,
      // A used key must say when (the table's check); KeyAuth's usedon may be absent.
      used_at: wasUsed ? (row.usedAt ?? row.createdAt ?? now).toISOString() : null,
      was_used: wasUsed,
      banned_reason: state === 'banned' ? row.banReason : null,
      banned_at: state === 'banned' ? now.toISOString() : null,
      created_at: (row.createdAt ?? now).toISOString(),
    };
  });
  const result = await tx.execute(sql`
    with inserted as (
      insert into license_keys (application_id, plan_id, key_digest, key_sealed, display,
                                key_suffix, key_prefix, state, note, used_by_user_id, used_at,
                                was_used, banned_reason, banned_at, created_at)
      select ${record.applicationId}, k.plan_id, k.key_digest, k.key_sealed, k.display,
             k.key_suffix, k.key_prefix, k.state, k.note, u.id, k.used_at, k.was_used,
             k.banned_reason, k.banned_at, k.created_at
      from jsonb_to_recordset(${JSON.stringify(keys)}::jsonb) as k(
        plan_id uuid, key_digest text, key_sealed text, display text, key_suffix text,
        key_prefix text, state text, note text, used_by text, used_at timestamptz,
        was_used boolean, banned_reason text, banned_at timestamptz, created_at timestamptz)
      left join app_users u
        on u.application_id = ${record.applicationId} and u.username = k.used_by
      on conflict do nothing
      returning id
    )
    select count(*)::int as created from inserted`);
  return rowsOf<{ created: number }>(result)[0]?.created ?? 0;
}

/**
 * The imported keys of one generation time (a service writes a generation's keys at one time),
 * each group the keys whose format is inferred together. Keys without a generation time prove
 * nothing about anyone's format and belong to no group.
 */
function keysByGenerationTime(rows: readonly KeyAuthKeyRow[]): Map<number, KeyAuthKeyRow[]> {
  const groups = new Map<number, KeyAuthKeyRow[]>();
  for (const row of rows) {
    if (row.createdAt === null) continue;
    const time = row.createdAt.getTime();
    const group = groups.get(time) ?? [];
    group.push(row);
    groups.set(time, group);
  }
  return groups;
}

/** How many first characters each imported key keeps; a key absent from the map keeps none. */
function importedKeyPrefixLengths(rows: readonly KeyAuthKeyRow[]): Map<KeyAuthKeyRow, number> {
  const lengths = new Map<KeyAuthKeyRow, number>();
  for (const group of keysByGenerationTime(rows).values()) {
    const byKey = inferredPrefixLengths(group.map((row) => row.key));
    for (const row of group) lengths.set(row, byKey.get(row.key)!);
  }
  return lengths;
}
