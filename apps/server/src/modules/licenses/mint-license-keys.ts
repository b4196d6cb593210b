import type { LicenseKeyCase } from '@latchkey/contracts';
import type { Database } from '../../db/client.ts';
import { licenseKeys } from '../../db/schema/index.ts';
import { generateLicenseKey } from '../../lib/license-key-generator.ts';
import { maskCharacterBits } from './license-key-entropy.ts';
import { licenseKeyPrefix, licenseKeyPrefixLength } from './license-key-prefix.ts';
import {
  licenseKeyDigest,
  licenseKeyDisplay,
  licenseKeySuffix,
  sealLicenseKey,
} from './license-key-secrets.ts';

/** Rows per INSERT: 12 parameters a row stays far below PostgreSQL's 65,535. */
const ROWS_PER_INSERT = 2_000;

export interface MintedLicenseKey {
  id: string;
  /** The whole key: a bearer secret, for the answer or the mail that hands it over. */
  key: string;
}

/**
 * Inserts `count` new keys of one plan inside the caller's transaction. A collision of two
 * random keys (80 bits at least: never seen in practice) is skipped by the unique digest
 * index and made up with fresh keys, so the count is always exact. The mask is known here, so
 * each key keeps (and shows) as many first characters as its format can spare.
 */
export async function mintLicenseKeys(
  tx: Database,
  input: {
    applicationId: number;
    planId: string;
    count: number;
    mask: string;
    case: LicenseKeyCase;
    note: string | null;
    redeemBy: Date | null;
    now: Date;
    serverSecret: string;
    /** A shop's order: the keys name it and its buyer's address. */
    shopOrder?: { id: string; buyerEmail: string | null };
  },
): Promise<MintedLicenseKey[]> {
  const prefixLength = licenseKeyPrefixLength(maskCharacterBits(input.mask, input.case));
  const minted: MintedLicenseKey[] = [];
  while (minted.length < input.count) {
    const batch = Array.from(
      { length: Math.min(ROWS_PER_INSERT, input.count - minted.length) },
      () => generateLicenseKey(input.mask, input.case),
    );
    const byDigest = new Map(batch.map((key) => [licenseKeyDigest(key, input.serverSecret), key]));
    const inserted = await tx
      .insert(licenseKeys)
      .values(
        [...byDigest].map(([keyDigest, key]) => ({
          applicationId: input.applicationId,
          planId: input.planId,
          keyDigest,
          keySealed: sealLicenseKey(key, input.serverSecret),
          display: licenseKeyDisplay(key, prefixLength),
          keySuffix: licenseKeySuffix(key),
          keyPrefix: licenseKeyPrefix(key, prefixLength),
          note: input.note,
          redeemBy: input.redeemBy,
          shopOrderId: input.shopOrder?.id ?? null,
          buyerEmail: input.shopOrder?.buyerEmail ?? null,
          createdAt: input.now,
        })),
      )
      .onConflictDoNothing()
      .returning({ id: licenseKeys.id, keyDigest: licenseKeys.keyDigest });
    for (const row of inserted) minted.push({ id: row.id, key: byDigest.get(row.keyDigest)! });
  }
  return minted;
}
