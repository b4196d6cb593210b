import { hkdfSync } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientAuthResponseSchema, type Application } from '@latchkey/contracts';
import {
  callClientApi,
  createAppUserViaApi,
  createApplicationViaApi,
} from '../../../test/factories.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';

/**
 * A licence verifies with nothing but what docs/client-api.md writes. The page's own
 * Node.js function (node:crypto only, no project code) is run as written, against the page's
 * worked examples and against licences this server issues.
 */
type ReadLicense = (
  license: string,
  publicKeyHex: string,
  hwid: string,
  now?: Date,
) => Record<string, unknown> | null;

const docsPath = new URL('../../../../../docs/client-api.md', import.meta.url);

/** The lines of `markdown` under the heading `title`, up to the next heading of its level or above. */
function sectionOf(markdown: string, title: string): string {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => /^#+ /.test(line) && line.replace(/^#+ /, '') === title);
  if (start < 0) throw new Error(`docs/client-api.md has no section ${title}`);
  const level = /^#+/.exec(lines[start]!)![0].length;
  const end = lines.findIndex(
    (line, index) => index > start && /^#+ /.test(line) && /^#+/.exec(line)![0].length <= level,
  );
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

const codeBlocks = (markdown: string, language: string) =>
  [...markdown.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)\\n```', 'g'))].map(
    (match) => match[1]!,
  );

describe('docs/client-api.md: verifying an offline licence with the documented steps only', () => {
  let example: string;
  let readLicense: ReadLicense;
  let directory: string;

  beforeAll(async () => {
    example = sectionOf(await readFile(docsPath, 'utf8'), 'Worked licence example');
    const [code] = codeBlocks(example, 'js');
    directory = await mkdtemp(join(tmpdir(), 'latchkey-licence-docs-'));
    const file = join(directory, 'read-license.mjs');
    await writeFile(file, `${code}\nexport { readLicense };\n`);
    ({ readLicense } = (await import(pathToFileURL(file).href)) as { readLicense: ReadLicense });
  });
  afterAll(() => rm(directory, { recursive: true, force: true }));

  const publicKeyOfExample = () => /public key\s+`([0-9a-f]{64})`/.exec(example)![1]!;

  it('reads both worked examples to the documented content, on their machine and in their time', () => {
    // Text blocks, which no formatter rewrites: the content's exact bytes, then the licences.
    const [content, plain, encrypted] = codeBlocks(example, 'text');
    const expected = JSON.parse(content!) as Record<string, unknown>;
    const during = new Date('2026-06-02T00:00:00Z');
    const publicKey = publicKeyOfExample();
    expect(plain).toMatch(/^LK1\./);
    expect(encrypted).toMatch(/^LK1E\./);
    // The plain payload is the documented bytes exactly.
    expect(Buffer.from(plain!.split('.')[1]!, 'base64url').toString('utf8')).toBe(content);
    expect(readLicense(plain!, publicKey, 'DESKTOP-7F3K', during)).toEqual(expected);
    expect(readLicense(encrypted!, publicKey, 'DESKTOP-7F3K', during)).toEqual(expected);

    // The key and IV the page states are what its steps give.
    const stated = /the key is\s+`([0-9a-f]{64})`[\s\S]*?IV\s+`([0-9a-f]{24})`/.exec(example)!;
    const key = hkdfSync(
      'sha256',
      Buffer.from('DESKTOP-7F3K'),
      Buffer.from(publicKey, 'hex'),
      'latchkey-license-v1e',
      32,
    );
    expect(Buffer.from(key).toString('hex')).toBe(stated[1]);
    expect(
      Buffer.from(encrypted!.split('.')[1]!, 'base64url').subarray(0, 12).toString('hex'),
    ).toBe(stated[2]);

    expect(readLicense(encrypted!, publicKey, 'DESKTOP-OTHER', during)).toBeNull();
    expect(readLicense(plain!, publicKey, 'DESKTOP-OTHER', during)).toBeNull();
    expect(
      readLicense(plain!, publicKey, 'DESKTOP-7F3K', new Date('2026-06-08T12:00:00Z')),
    ).toBeNull();
    expect(
      readLicense(plain!, publicKey, 'DESKTOP-7F3K', new Date('2026-05-31T00:00:00Z')),
    ).toBeNull();
    // One character changed anywhere, or the other prefix: not genuine.
    const [, payload, signature] = plain!.split('.');
    const flipped = payload!.slice(0, 20) + (payload![20] === 'A' ? 'B' : 'A') + payload!.slice(21);
    expect(
      readLicense(`LK1.${flipped}.${signature}`, publicKey, 'DESKTOP-7F3K', during),
    ).toBeNull();
    expect(
      readLicense(`LK1E.${payload}.${signature}`, publicKey, 'DESKTOP-7F3K', during),
    ).toBeNull();
    expect(readLicense(plain!, 'ab'.repeat(32), 'DESKTOP-7F3K', during)).toBeNull();
  });

  it('refuses every re-encoding of the worked licence that a lenient base64url decoder forgives', () => {
    const [, plain] = codeBlocks(example, 'text');
    const during = new Date('2026-06-02T00:00:00Z');
    const publicKey = publicKeyOfExample();
    const [prefix, payload, signature] = plain!.split('.') as [string, string, string];
    // Each decodes, with Buffer.from(..., 'base64url'), to the signature's very 64 bytes or
    // to the payload as signed: only the text differs from what the server wrote.
    const mutations: Record<string, string> = {
      'a trailing newline': `${plain}\n`,
      'the payload padded': `${prefix}.${payload}==.${signature}`,
      'the signature padded': `${prefix}.${payload}.${signature}==`,
      'a space inside the payload': `${prefix}.${payload.slice(0, 20)} ${payload.slice(20)}.${signature}`,
      'a space inside the signature': `${prefix}.${payload}.${signature.slice(0, 20)} ${signature.slice(20)}`,
      'a "+" for the "-" of the signature': `${prefix}.${payload}.${signature.replace('-', '+')}`,
      'the last signature character changed in its unused bits': `${prefix}.${payload}.${signature.slice(0, -1)}${signature.endsWith('g') ? 'h' : 'g'}`,
    };
    expect(Buffer.from(signature.slice(0, -1) + 'h', 'base64url')).toEqual(
      Buffer.from(signature, 'base64url'),
    );
    const accepted = Object.entries(mutations)
      .filter(([, license]) => readLicense(license, publicKey, 'DESKTOP-7F3K', during) !== null)
      .map(([name]) => name);
    expect(accepted).toEqual([]);
    expect(readLicense(plain!, publicKey, 'DESKTOP-7F3K', during)).not.toBeNull();
  });

  describe('against the server', () => {
    const testApp = startTestAppForSuite();
    const owner = signInOwnerForSuite(testApp);

    const checkout = async (application: Application, hwid: string, encrypt: boolean) => {
      const user = await createAppUserViaApi(testApp.app, owner, application.id, {
        password: 'correct horse battery staple',
      });
      const login = clientAuthResponseSchema.parse(
        (
          await callClientApi(testApp.app, 'login', {
            apiKey: application.apiKey,
            body: {
              username: user.username,
              password: 'correct horse battery staple',
              version: application.version,
              hwid,
            },
          })
        ).json(),
      );
      await callClientApi(testApp.app, 'session/track', {
        apiKey: application.apiKey,
        body: { action: 'start', user_id: user.id, session_token: login.session_token },
      });
      const answer = (
        await callClientApi(testApp.app, 'license/checkout', {
          apiKey: application.apiKey,
          body: { session_token: login.session_token, encrypt },
        })
      ).json() as { code: string; license: string };
      expect(answer.code).toBe('OK');
      return { user, license: answer.license };
    };

    it('verifies the licences it issues, plain and encrypted, with the documented function', async () => {
      const application = await createApplicationViaApi(testApp.app, owner);
      for (const encrypt of [false, true]) {
        const { user, license } = await checkout(application, 'MACHINE-42', encrypt);
        expect(readLicense(license, application.signingPublicKey, 'MACHINE-42')).toMatchObject({
          application_id: application.id,
          user_id: user.id,
          hwid: 'MACHINE-42',
        });
        expect(readLicense(license, application.signingPublicKey, 'MACHINE-43')).toBeNull();
        const other = await createApplicationViaApi(testApp.app, owner);
        expect(readLicense(license, other.signingPublicKey, 'MACHINE-42')).toBeNull();
      }
    });
  });
});
