import { createSecretSealer } from '../../lib/secret-sealing.ts';

/**
 * A kept row holds a licence key, a password hash, a variable's value (which may be a secret
 * the vendor hands to its programs) or a file's name: sealed at rest with its own HKDF label,
 * so a database dump between preview and start yields none of them.
 */
const importRowSealer = createSecretSealer('latchkey import rows v1', 'import row');

export function sealImportRow(row: object, serverSecret: string): string {
  return importRowSealer.seal(JSON.stringify(row), serverSecret);
}

const DATE_FIELDS = new Set(['createdAt', 'lastLoginAt', 'usedAt', 'expiresAt']);

/** Dates went in as ISO strings; they come back as Dates, as the reader made them. */
function reviveDates(key: string, value: unknown): unknown {
  return DATE_FIELDS.has(key) && typeof value === 'string' ? new Date(value) : value;
}

/** A row as the reader made it; the caller names the kind of row the import keeps. */
export function unsealImportRow<Row>(sealed: string, serverSecret: string): Row {
  return JSON.parse(importRowSealer.unseal(sealed, serverSecret), reviveDates) as Row;
}
