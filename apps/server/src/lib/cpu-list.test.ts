import { describe, expect, it } from 'vitest';
import { otherCpus, parseCpuList } from './cpu-list.ts';

describe('CPU lists', () => {
  it('reads single CPUs and ranges, in any order, once each', () => {
    expect(parseCpuList('0')).toEqual([0]);
    expect(parseCpuList('3,0-1,1')).toEqual([0, 1, 3]);
    expect(parseCpuList('2-4')).toEqual([2, 3, 4]);
    for (const bad of ['', '1-', '3-1', 'a', '1,,2', '-1']) {
      expect(() => parseCpuList(bad), bad).toThrow(/not a CPU list/);
    }
  });

  it("gives the client API's side every CPU the console's leaves", () => {
    expect(otherCpus('1', 2)).toBe('0');
    expect(otherCpus('0,2-3', 8)).toBe('1,4,5,6,7');
    expect(otherCpus('0-1', 2)).toBe('');
    // A CPU the machine does not have leaves the others as they are.
    expect(otherCpus('9', 2)).toBe('0,1');
  });
});
