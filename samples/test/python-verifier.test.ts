import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { hasTool } from './require-tool.ts';

/**
 * The Python sample's response verifier, tested on the worked example of docs/client-api.md
 * (RFC 8032 test 1 key): valid, tampered body, wrong nonce, stale timestamp, wrong key; and its
 * offline licence verifier on the docs' worked licence, with each refusal. The
 * tests are Python's own (samples/python/test_latchkey_client.py, unittest, no pytest), run
 * here by Debian's /usr/bin/python3 (the python3 first on PATH may lack PyNaCl) so that they
 * count in `npm test`.
 */
const python = '/usr/bin/python3';
const hasPython = hasTool(python, ['-c', 'import nacl.signing'], 'python3-nacl');

describe.skipIf(!hasPython)('Python sample: response verifier', () => {
  it('passes its unit tests', () => {
    const result = spawnSync(python, ['-B', '-m', 'unittest', '-v', 'test_latchkey_client'], {
      cwd: fileURLToPath(new URL('../python', import.meta.url)),
      env: { PATH: '/usr/bin:/bin' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.error).toBeUndefined();
    for (const name of [
      'test_accepts_the_worked_example',
      'test_refuses_a_tampered_body',
      'test_refuses_a_wrong_nonce',
      'test_refuses_a_stale_or_future_timestamp',
      'test_refuses_a_wrong_key',
      // The offline licence, from the docs' worked licence.
      'test_accepts_the_worked_licence',
      'test_refuses_a_licence_not_signed_by_this_application',
      'test_refuses_every_re_encoding_of_the_worked_licence',
      'test_refuses_another_machines_licence',
      'test_refuses_a_licence_past_valid_until',
      'test_refuses_a_clock_moved_backwards',
    ]) {
      expect(result.stderr).toMatch(new RegExp(`^${name} .* \\.\\.\\. ok$`, 'm'));
    }
    expect(result.stderr).toMatch(/^OK$/m);
    expect(result.status).toBe(0);
  });
});
