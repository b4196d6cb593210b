import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileCsharp } from './csharp-build.ts';
import { hasTool } from './require-tool.ts';

const run = promisify(execFile);
const sampleDirectory = fileURLToPath(new URL('../csharp/', import.meta.url));
const isAvailable =
  hasTool('mcs', ['--version'], 'mono-mcs') && hasTool('mono', ['--version'], 'mono-runtime');

/**
 * The C# sample's managed Ed25519 verifier and response check (samples/csharp/VerifierTests.cs,
 * compiled with the sample as it is in the repository): RFC 8032 section 7.1 vectors, S >= L,
 * non-canonical points, a wrong key, the worked example of docs/client-api.md, and the offline
 * licence check on its worked licence.
 */
describe.runIf(isAvailable)('C# sample verifier', () => {
  let workDirectory: string;
  let results: Map<string, boolean>;
  let exitCode: number;

  beforeAll(async () => {
    workDirectory = mkdtempSync(join(tmpdir(), 'latchkey-csharp-verifier-'));
    const program = join(workDirectory, 'verifier-tests.exe');
    await compileCsharp({
      sources: [
        join(sampleDirectory, 'LatchkeyClient.cs'),
        join(sampleDirectory, 'VerifierTests.cs'),
      ],
      output: program,
      target: 'exe',
      defines: ['LATCHKEY_TESTS'],
    });
    let stdout: string;
    try {
      // Asia/Kolkata (+05:30): the licence's expiry is shown in local time.
      ({ stdout } = await run('mono', [program], {
        timeout: 60_000,
        env: { ...process.env, TZ: 'Asia/Kolkata' },
      }));
      exitCode = 0;
    } catch (error) {
      const failed = error as { stdout?: string; code?: number };
      stdout = failed.stdout ?? '';
      exitCode = typeof failed.code === 'number' ? failed.code : -1;
    }
    results = new Map();
    for (const line of stdout.split('\n')) {
      const match = /^(ok|FAIL) (.+)$/.exec(line);
      if (match) results.set(match[2]!, match[1] === 'ok');
    }
  });
  afterAll(() => {
    if (workDirectory) rmSync(workDirectory, { recursive: true, force: true });
  });

  const expectPassing = (name: string) => expect(results.get(name), name).toBe(true);

  it('verifies the RFC 8032 section 7.1 vectors and refuses them with a changed message', () => {
    for (const vector of ['test 1', 'test 2', 'test 3', 'test SHA(abc)']) {
      expectPassing(`RFC 8032 ${vector} verifies`);
      expectPassing(`RFC 8032 ${vector} with a changed message is refused`);
    }
  });

  it('refuses S >= L, non-canonical points and a wrong key', () => {
    expectPassing('S >= L is refused (S + L would pass the group equation)');
    expectPassing('a non-canonical point (y = p) is refused');
    expectPassing('a non-canonical point (y = p + 1, the identity) is refused');
    expectPassing('a non-canonical point (x = 0 with the sign bit) is refused');
    expectPassing('a y that is on no point is refused');
    expectPassing('the canonical encoding of y = 0 decodes');
    expectPassing('the identity encoded canonically decodes');
    expectPassing('a signature checked with another key is refused');
    expectPassing('a public key with a non-canonical encoding is refused');
  });

  it('checks the worked example of docs/client-api.md: valid, tampered, wrong nonce, stale, wrong key', () => {
    expectPassing('worked example: valid');
    expectPassing('worked example: tampered body refused');
    expectPassing('worked example: wrong nonce refused');
    expectPassing('worked example: stale timestamp refused');
    expectPassing('worked example: timestamp from the future refused');
    expectPassing('worked example: wrong key refused');
    expectPassing('worked example: missing signature refused');
  });

  it('checks the worked licence of docs/client-api.md offline, and each refusal', () => {
    for (const name of [
      'the documented licence is accepted',
      'the documented licence names alice, holding EXPORT_PDF and PRO',
      'the documented licence, application not checked, is accepted',
      'at its valid_until it is accepted',
      'a second after its valid_until it has expired',
      'another hwid is another machine',
      'an empty hwid is another machine',
      'another application is refused',
      'another key is refused',
      'an edited payload is refused',
      'an edited signature is refused',
      'the LK1E prefix is refused',
      'two segments are refused',
      'four segments are refused',
      'padded base64 is refused',
      'the last signature character changed in its unused bits decodes to the same bytes',
      'a trailing newline is refused',
      'the payload padded is refused',
      'the signature padded is refused',
      'a space inside the payload is refused',
      'a space inside the signature is refused',
      'a + for the - of the signature is refused',
      'the last signature character changed in its unused bits is refused',
      'last seen within the clock tolerance is accepted',
      'last seen beyond the clock tolerance: the clock moved back',
      'a clock set before its issue: the clock moved back',
    ]) {
      expectPassing(`licence: ${name}`);
    }
  });

  it('words each refusal as the four samples do, the time in local time', () => {
    for (const name of ['expired', 'another machine', 'the clock moved back', 'not signed']) {
      expectPassing(`licence text: ${name}`);
    }
  });

  it('makes a 32-character hardware id, and every case passed', () => {
    expectPassing('hardware id is a 32-character base64 string');
    expect([...results.values()].filter((isPassing) => !isPassing)).toEqual([]);
    expect(results.size).toBeGreaterThanOrEqual(48);
    expect(exitCode).toBe(0);
  });
});
