import { describe, expect, it } from 'vitest';
import { createManualClock } from './clock.ts';
import { createOccasionalWarning } from './occasional-warning.ts';

describe('createOccasionalWarning', () => {
  it('writes the first occurrence, then at most one per interval with the count it held back', () => {
    const clock = createManualClock();
    const written: Array<[unknown, number]> = [];
    const warn = createOccasionalWarning({
      intervalMs: 60_000,
      clock,
      write: (error, suppressed) => written.push([error, suppressed]),
    });
    warn('first');
    warn('second');
    clock.advance(59_999);
    warn('third');
    expect(written).toEqual([['first', 0]]);
    clock.advance(1);
    warn('fourth');
    expect(written).toEqual([
      ['first', 0],
      ['fourth', 2],
    ]);
    clock.advance(60_000);
    warn('fifth');
    expect(written.at(-1)).toEqual(['fifth', 0]);
  });
});
