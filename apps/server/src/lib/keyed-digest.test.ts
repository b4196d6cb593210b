import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { keyedDigest } from './keyed-digest.ts';

describe('keyedDigest', () => {
  const serverSecret = 'a server secret that is long enough for tests';

  it('is stable per secret and purpose, and differs across purposes and server secrets', () => {
    const key = 'ABCDE-FGHJK-LMNPQ-RSTUV-WXYZ2';
    const digest = keyedDigest(key, 'license-key', serverSecret);
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(keyedDigest(key, 'license-key', serverSecret)).toBe(digest);
    expect(keyedDigest(key, 'api-token', serverSecret)).not.toBe(digest);
    expect(keyedDigest(key, 'license-key', `${serverSecret}!`)).not.toBe(digest);
    // Not a plain hash: without the server secret a dump cannot test guesses.
    expect(digest).not.toBe(createHash('sha256').update(key).digest('hex'));
  });
});
