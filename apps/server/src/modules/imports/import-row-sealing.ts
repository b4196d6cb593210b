import { createSecretSealer } from '../../lib/secret-sealing.ts';
import type { KeyAuthKeyRow, KeyAuthUserRow } from './keyauth-export.ts';

/**
 * A kept row holds a licence key or a password hash (schema/imports.ts): sealed at rest with
 * its own HKDF label, so a database dump between preview and start yields neither.
 */
const importRowSealer = createSecretSealer('latchkey import rows v1', 'import row');

export function sealImportRow(row: KeyAuthUserRow | KeyAuthKeyRow, serverSecret: string): string {
  return importRowSealer.seal(JSON.stringify(row), serverSecret);
}

const DATE_FIELDS = new Set(['createdAt', 'lastLoginAt', 'usedAt', 'expiresAt']);

/** Dates went in as ISO strings; they come back as Dates, as the reader made them. */
function reviveDates(key: string, value: unknown): unknown {
  return DATE_FIELDS.has(key) && typeof value === 'string' ? new Date(value) : value;
}

export function unsealUserRow(sealed: string, serverSecret: string): KeyAuthUserRow {
  return JSON.parse(importRowSealer.unseal(sealed, serverSecret), reviveDates) as KeyAuthUserRow;
}

export function unsealKeyRow(sealed: string, serverSecret: string): KeyAuthKeyRow {
  return JSON.parse(importRowSealer.unseal(sealed, serverSecret), reviveDates) as KeyAuthKeyRow;
}
