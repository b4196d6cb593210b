/** Between one key and its value, and between one pair and the next. */
const KEY_VALUE_SEPARATOR = ' ';
export const PAIR_SEPARATOR = ' · ';
/** Between the items of a list of plain values. */
const LIST_SEPARATOR = ', ';
export const ELLIPSIS = '…';

type Scalar = string | number | boolean | bigint;

function isScalar(value: unknown): value is Scalar {
  return ['string', 'number', 'boolean', 'bigint'].includes(typeof value);
}

/** One line of text: a value's line breaks and runs of spaces read as one space. */
function scalarText(value: Scalar): string {
  return String(value).replace(/\s+/g, ' ').trim();
}

function joinPath(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

function pushPair(pairs: string[], path: string, text: string): void {
  if (text) pairs.push(path ? `${path}${KEY_VALUE_SEPARATOR}${text}` : text);
}

/**
 * Adds the readable pairs of `value`, found at `path`, to `pairs`, in the object's own key order.
 * Nested objects name their values by dotted path (`device.name`); a list of plain values reads
 * as one value (`plans Pro, Team`), a list holding objects by index (`items[0].id`). Nothing,
 * null and blank text are skipped: they tell the reader nothing.
 */
function collectPairs(value: unknown, path: string, pairs: string[]): void {
  if (value === null || value === undefined) return;
  if (isScalar(value)) {
    pushPair(pairs, path, scalarText(value));
    return;
  }
  if (Array.isArray(value)) {
    const items: unknown[] = value;
    if (items.every((item) => item === null || item === undefined || isScalar(item))) {
      const texts = items
        .filter((item): item is Scalar => isScalar(item))
        .map(scalarText)
        .filter(Boolean);
      pushPair(pairs, path, texts.join(LIST_SEPARATOR));
      return;
    }
    items.forEach((item, index) => collectPairs(item, `${path}[${index}]`, pairs));
    return;
  }
  if (typeof value === 'object') {
    for (const [key, child] of Object.entries(value))
      collectPairs(child, joinPath(path, key), pairs);
  }
}

/**
 * An event's metadata as a person reads it rather than as JSON: each key and its value
 * separated by a space, pairs by " · ", e.g. "code OK · hwid HWID-BOB-01 · version 1.0.0".
 * Keys keep the order they arrive in (the server stores metadata as jsonb, which sends shorter
 * keys first). Empty when nothing in it has a value.
 */
export function formatMetadataText(metadata: Readonly<Record<string, unknown>>): string {
  const pairs: string[] = [];
  collectPairs(metadata, '', pairs);
  return pairs.join(PAIR_SEPARATOR);
}

/**
 * The first `length` characters of `text`, and an ellipsis when some were cut. Counts characters
 * as a reader does (code points), so a cut never splits an emoji into halves.
 */
export function truncateText(text: string, length: number): string {
  const characters = Array.from(text);
  if (characters.length <= length) return text;
  return `${characters.slice(0, length).join('').trimEnd()}${ELLIPSIS}`;
}
