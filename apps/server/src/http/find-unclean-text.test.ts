import { describe, expect, it } from 'vitest';
import { cleanText, isCleanText } from '@latchkey/contracts';
import { findUncleanText, uncleanTextMessage } from './find-unclean-text.ts';

describe('clean text', () => {
  it('refuses lone surrogates and NUL, and accepts surrogate pairs', () => {
    for (const text of ['\ud800', 'a\udfff', '\udc00\ud800', 'x\u0000', '\u0000']) {
      expect(isCleanText(text), JSON.stringify(text)).toBe(false);
    }
    for (const text of ['', 'plain', '\ud83d\ude80', 'é\u00a0\ufffd', '\\u0000']) {
      expect(isCleanText(text), JSON.stringify(text)).toBe(true);
    }
    expect(cleanText().max(3).safeParse('ab\u0000').error?.issues[0]?.message).toBe(
      'text must be valid Unicode without NUL characters',
    );
    expect(cleanText().max(3).safeParse('abcd').success).toBe(false);
    expect(cleanText().safeParse('🚀').success).toBe(true);
  });

  it('finds the first unclean string or key at any depth, with its path', () => {
    expect(findUncleanText({ a: ['ok', { b: 'x\ud800' }] })).toEqual(['a', 1, 'b']);
    expect(findUncleanText({ ok: 1, ['k\u0000']: 'v' })).toEqual(['k\u0000']);
    expect(findUncleanText('\udfff')).toEqual([]);
    expect(findUncleanText({ a: [1, true, null, '🚀'], b: { c: 'fine' } })).toBeNull();
    expect(uncleanTextMessage(['k\u0000', 2, 'x\ud800'], 'bad')).toBe('k\uFFFD.2.x\uFFFD: bad');
  });

  it('walks a value nested a hundred thousand levels deep without overflowing the stack', () => {
    const depth = 100_000;
    const deep = JSON.parse(`${'['.repeat(depth)}"\\u0000"${']'.repeat(depth)}`) as unknown;
    expect(findUncleanText(deep)).toHaveLength(depth);
  });
});
