import type { License } from '@latchkey/contracts';
import type { LicenseKey } from '../../db/schema/index.ts';
import { licenseStatusOf } from './license-filter.ts';

export type LicenseRow = Pick<
  LicenseKey,
  | 'id'
  | 'display'
  | 'planId'
  | 'state'
  | 'note'
  | 'redeemBy'
  | 'usedByUserId'
  | 'usedAt'
  | 'bannedReason'
  | 'createdAt'
> & { usedByUsername: string | null };

/** A key as the owner's list shows it: its display form, never its text. */
export function toLicenseResponse(row: LicenseRow, now: Date): License {
  return {
    id: row.id,
    key: row.display,
    planId: row.planId,
    status: licenseStatusOf(row, now),
    note: row.note,
    redeemBy: row.redeemBy?.toISOString() ?? null,
    usedByUserId: row.usedByUserId,
    usedByUsername: row.usedByUsername,
    usedAt: row.usedAt?.toISOString() ?? null,
    bannedReason: row.bannedReason,
    createdAt: row.createdAt.toISOString(),
  };
}
