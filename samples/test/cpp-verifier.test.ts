import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasTool } from './require-tool.ts';

/**
 * The C++ sample's response verifier (`latchkey::is_genuine_response`), compiled from the
 * committed template by samples/cpp/verifier_tests.cpp and run on the worked example of
 * docs/client-api.md (RFC 8032 test 1 key, timestamp 1775044800), and its offline licence
 * check on the worked licence. The program prints one
 * verdict per case; the expected verdicts live here.
 */
const toolchainPackages = 'g++ pkg-config libcurl4-openssl-dev nlohmann-json3-dev libsodium-dev';
const isToolchainInstalled =
  hasTool('g++', ['--version'], toolchainPackages) &&
  hasTool('pkg-config', ['--exists', 'libcurl', 'libsodium'], toolchainPackages);

const COMPILE_TIMEOUT_MS = 120_000;
const testsSource = fileURLToPath(new URL('../cpp/verifier_tests.cpp', import.meta.url));

const expectedVerdicts: Record<string, 'accepted' | 'refused'> = {
  valid: 'accepted',
  'valid at the clock skew limit': 'accepted',
  'tampered body': 'refused',
  'wrong nonce': 'refused',
  'empty nonce': 'refused',
  'stale timestamp': 'refused',
  'timestamp from the future': 'refused',
  'changed timestamp header': 'refused',
  'wrong key': 'refused',
  'missing signature': 'refused',
  'truncated signature': 'refused',
  'missing timestamp': 'refused',
  'unconfigured key placeholder': 'refused',
};

/**
 * The offline licence check (`latchkey::check_offline_license`) on the worked licence of
 * docs/client-api.md: accepted as documented, and each refusal the program tells apart. The
 * refusal texts are the ones the four samples share; the time is shown in Asia/Kolkata.
 */
const expectedLicenseVerdicts: Record<string, string> = {
  'licence: the documented licence': 'accepted',
  'licence: its username': 'alice',
  'licence: its entitlements': 'EXPORT_PDF, PRO',
  'licence: the documented licence, application not checked': 'accepted',
  'licence: at its valid_until': 'accepted',
  'licence: a second after its valid_until': 'expired',
  'licence: another hwid': 'other machine',
  'licence: an empty hwid': 'other machine',
  'licence: another application': 'not signed',
  'licence: another key': 'not signed',
  'licence: an edited payload': 'not signed',
  'licence: an edited signature': 'not signed',
  'licence: the LK1E prefix': 'not signed',
  'licence: two segments': 'not signed',
  'licence: four segments': 'not signed',
  'licence: padded base64': 'not signed',
  'licence: a trailing newline': 'not signed',
  'licence: the payload padded': 'not signed',
  'licence: the signature padded': 'not signed',
  'licence: a space inside the payload': 'not signed',
  'licence: a space inside the signature': 'not signed',
  'licence: a + for the - of the signature': 'not signed',
  'licence: the last signature character changed in its unused bits': 'not signed',
  'licence: last seen within the clock tolerance': 'accepted',
  'licence: last seen beyond the clock tolerance': 'clock moved back',
  'licence: a clock set before its issue': 'clock moved back',
  'licence text: expired': 'This offline licence expired on 2026-06-08 17:30.',
  'licence text: other machine': 'This offline licence belongs to another machine.',
  'licence text: clock moved back': 'The system clock moved backwards since the last run.',
  'licence text: not signed': 'This offline licence is not signed by this application.',
};

describe.skipIf(!isToolchainInstalled)('C++ sample response verifier', () => {
  let workDirectory: string;
  const verdicts = new Map<string, string>();

  beforeAll(async () => {
    workDirectory = await mkdtemp(join(tmpdir(), 'latchkey-cpp-verifier-'));
    const binary = join(workDirectory, 'verifier_tests');
    const libraries = execFileSync('pkg-config', ['--cflags', '--libs', 'libcurl', 'libsodium'], {
      encoding: 'utf8',
      timeout: 10_000,
    })
      .trim()
      .split(/\s+/);
    const run = promisify(execFile);
    await run(
      'g++',
      ['-std=c++17', '-Wall', '-Wextra', '-Werror', testsSource, '-o', binary, ...libraries],
      { timeout: COMPILE_TIMEOUT_MS },
    );
    const { stdout } = await run(binary, [], {
      timeout: 10_000,
      env: { ...process.env, TZ: 'Asia/Kolkata' },
    });
    for (const line of stdout.trim().split('\n')) {
      const separator = line.lastIndexOf(': ');
      verdicts.set(line.slice(0, separator), line.slice(separator + 2));
    }
  }, COMPILE_TIMEOUT_MS + 20_000);

  afterAll(async () => {
    if (workDirectory) await rm(workDirectory, { recursive: true, force: true });
  });

  it('reports a verdict for exactly the expected cases', () => {
    expect([...verdicts.keys()].sort()).toEqual(
      [...Object.keys(expectedVerdicts), ...Object.keys(expectedLicenseVerdicts)].sort(),
    );
  });

  it.each(Object.entries(expectedVerdicts))('%s: %s', (name, verdict) => {
    expect(verdicts.get(name)).toBe(verdict);
  });

  it.each(Object.entries(expectedLicenseVerdicts))('%s: %s', (name, verdict) => {
    expect(verdicts.get(name)).toBe(verdict);
  });
});
