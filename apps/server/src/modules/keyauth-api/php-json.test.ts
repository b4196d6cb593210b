import { describe, expect, it } from 'vitest';
import { phpJsonEncode } from './php-json.ts';

describe('phpJsonEncode', () => {
  it('writes what PHP json_encode writes: ASCII only, slashes escaped', () => {
    // The expected strings are PHP 8's own output for the same values.
    expect(phpJsonEncode({ message: 'Café naïve' })).toBe('{"message":"Caf\\u00e9 na\\u00efve"}');
    expect(phpJsonEncode({ url: 'https://example.com/a/b' })).toBe(
      '{"url":"https:\\/\\/example.com\\/a\\/b"}',
    );
    expect(phpJsonEncode({ emoji: '😀' })).toBe('{"emoji":"\\ud83d\\ude00"}');
    expect(phpJsonEncode({ quote: 'a"b\\c\n\u0001' })).toBe('{"quote":"a\\"b\\\\c\\n\\u0001"}');
    expect(phpJsonEncode({ n: 5, s: '5', b: true, z: null, list: [] })).toBe(
      '{"n":5,"s":"5","b":true,"z":null,"list":[]}',
    );
  });

  it('leaves no byte above 0x7f on the wire', () => {
    const encoded = phpJsonEncode({ text: '日本語 ✓ ü \u2028' });
    expect([...Buffer.from(encoded, 'utf8')].every((byte) => byte < 0x80)).toBe(true);
    expect(JSON.parse(encoded)).toEqual({ text: '日本語 ✓ ü \u2028' });
  });
});
