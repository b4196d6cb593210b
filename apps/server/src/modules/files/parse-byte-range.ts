/** What a `Range` header asks of a file of `size` bytes. */
export type ByteRangeRequest =
  { kind: 'whole' } | { kind: 'range'; start: number; end: number } | { kind: 'unsatisfiable' };

const SINGLE_RANGE = /^bytes=(\d*)-(\d*)$/;

/**
 * A single range (`bytes=a-b`, `bytes=a-`, `bytes=-n`; RFC 9110, section 14.1.2), clamped to the file.
 * Several ranges, another unit or a malformed header are served as the whole file, which the
 * RFC allows (a server may ignore Range); a range wholly past the end is unsatisfiable (416).
 */
export function parseByteRange(header: string | undefined, size: number): ByteRangeRequest {
  if (header === undefined) return { kind: 'whole' };
  const match = SINGLE_RANGE.exec(header.trim());
  if (!match) return { kind: 'whole' };
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return { kind: 'whole' };
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'range', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return { kind: 'whole' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'range', start, end };
}
