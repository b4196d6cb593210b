import { AUDIT_REDACTED } from '@latchkey/contracts';

/**
 * A field whose value is a secret wherever it sits: a password, a webhook's signing secret,
 * a token, a licence or API key. Matched on the name, so a field nested in an object or an
 * array is caught as surely as one at the top.
 */
const SECRET_FIELD = /password|secret|token|key/i;
/** Below this depth a value is summarised: the trail records a change, not a whole document. */
const MAX_DEPTH = 6;
const MAX_ITEMS = 100;
const MAX_TEXT = 1_000;

/**
 * A change as the audit trail keeps it: every secret replaced by "[redacted]" at any depth,
 * and the rest bounded (depth, items, text length), so an entry stays small and JSON.
 * Undefined fields are dropped: they are what a change left as it was.
 */
export function redactAuditedChange(change: unknown): Record<string, unknown> | null {
  if (change === null || change === undefined) return null;
  const redacted = redactValue(change, 0);
  return isPlainObject(redacted) ? redacted : { value: redacted };
}

function redactValue(value: unknown, depth: number): unknown {
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'string') {
    return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value;
  }
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return { bytes: value.byteLength };
  if (typeof value !== 'object') return undefined;
  if (depth >= MAX_DEPTH) return '[nested too deep]';
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ITEMS).map((item) => redactValue(item, depth + 1) ?? null);
    if (value.length > MAX_ITEMS) items.push(`… ${value.length - MAX_ITEMS} more`);
    return items;
  }
  const entries: [string, unknown][] = [];
  for (const [field, fieldValue] of Object.entries(value)) {
    if (fieldValue === undefined) continue;
    entries.push([
      field,
      SECRET_FIELD.test(field) ? AUDIT_REDACTED : redactValue(fieldValue, depth + 1),
    ]);
    if (entries.length >= MAX_ITEMS) break;
  }
  return Object.fromEntries(entries);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
