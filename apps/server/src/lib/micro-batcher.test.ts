import { describe, expect, it } from 'vitest';
import { createMicroBatcher } from './micro-batcher.ts';

describe('micro-batcher', () => {
  it('answers the lookups of one turn with one call per group, sharing duplicate keys', async () => {
    const calls: [number, string[]][] = [];
    const batcher = createMicroBatcher<string>(async (group, keys) => {
      calls.push([group, keys]);
      return new Map(
        keys.filter((key) => key !== 'missing').map((key) => [key, `${group}:${key}`]),
      );
    });
    const answers = await Promise.all([
      batcher.load(1, 'a'),
      batcher.load(1, 'b'),
      batcher.load(2, 'a'),
      batcher.load(1, 'a'),
      batcher.load(1, 'missing'),
    ]);
    expect(answers).toEqual(['1:a', '1:b', '2:a', '1:a', undefined]);
    expect(calls).toEqual([
      [1, ['a', 'b', 'missing']],
      [2, ['a']],
    ]);
  });

  it('runs at most maxInFlight calls per group; later lookups wait and go together', async () => {
    let inFlight = 0;
    let mostInFlight = 0;
    const sizes: number[] = [];
    const batcher = createMicroBatcher<number>(
      async (_group, keys) => {
        inFlight += 1;
        mostInFlight = Math.max(mostInFlight, inFlight);
        sizes.push(keys.length);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight -= 1;
        return new Map(keys.map((key) => [key, Number(key)]));
      },
      { maxInFlight: 1, maxBatchSize: 3 },
    );
    const first = batcher.load(0, '1');
    await new Promise((resolve) => setImmediate(resolve));
    const rest = ['2', '3', '4', '5'].map((key) => batcher.load(0, key));
    expect(await Promise.all([first, ...rest])).toEqual([1, 2, 3, 4, 5]);
    expect(mostInFlight).toBe(1);
    expect(sizes).toEqual([1, 3, 1]);
  });

  it('rejects every lookup of a failed call, and recovers', async () => {
    let shouldFail = true;
    const batcher = createMicroBatcher<string>(async (_group, keys) => {
      if (shouldFail) throw new Error('database down');
      return new Map(keys.map((key) => [key, key]));
    });
    await expect(Promise.all([batcher.load(0, 'a'), batcher.load(0, 'b')])).rejects.toThrow(
      'database down',
    );
    shouldFail = false;
    expect(await batcher.load(0, 'a')).toBe('a');
  });
});
