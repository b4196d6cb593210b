import type { ImportKind } from '@latchkey/contracts';
import type { ImportRecord } from '../../db/schema/index.ts';

/**
 * How an import's kind is kept in the imports table. Its `kind` column (and the CHECK
 * imports_kind) knows only `users` and `keys`, the first two kinds; widening it is a migration
 * of a table this module does not own the schema of. Until then an import of another kind is
 * kept under `users` with its kind in front of its format ("blacklist/seller-api-json"), and
 * these two functions are the only ones that know: once the column takes every kind,
 * `toStoredKind` keeps the kind as it is, and `importKindOf` still reads the older rows.
 */
export function toStoredKind(
  kind: ImportKind,
  format: string,
): { kind: ImportRecord['kind']; format: string } {
  if (kind === 'users' || kind === 'keys') return { kind, format };
  return { kind: 'users', format: `${kind}/${format}` };
}

const STORED_PREFIX = /^([a-z-]+)\/(.*)$/s;

export function importKindOf(record: Pick<ImportRecord, 'kind' | 'format'>): {
  kind: ImportKind;
  format: string;
} {
  const stored = STORED_PREFIX.exec(record.format);
  if (stored) return { kind: stored[1] as ImportKind, format: stored[2]! };
  return { kind: record.kind, format: record.format };
}
