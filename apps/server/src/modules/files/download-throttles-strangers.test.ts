import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { appFileSchema, clientFileResponseSchema, type Application } from '@latchkey/contracts';
import { callClientApi, createApplicationViaApi } from '../../../test/factories.ts';
import { throttleStoresForFile } from '../../../test/test-redis.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';
import { newIpv4Block } from '../../../test/fresh-addresses.ts';

const stores = await throttleStoresForFile();

describe.each(stores)('download-link throttles kept in $store', ({ env, isAvailable }) => {
  // Held guesses wait 1 ms here, so a thousand of them stay quick.
  const testApp = startTestAppForSuite({ env: { ...env, LICENSE_FAILURE_DELAY_MS: '1' } });
  const owner = signInOwnerForSuite(testApp);

  /** A file of a new application and a valid download link of it. */
  const fileWithLink = async (bytes: Buffer) => {
    const application: Application = await createApplicationViaApi(testApp.app, owner);
    const query = new URLSearchParams({
      name: 'setup.exe',
      version: '1',
      requiresSession: 'false',
    });
    const upload = await testApp.app.inject({
      method: 'POST',
      url: `/api/applications/${application.id}/files?${query}`,
      headers: { ...owner.headers, 'content-type': 'application/octet-stream' },
      payload: bytes,
    });
    expect(upload.statusCode, upload.body).toBe(201);
    const file = appFileSchema.parse(upload.json());
    const issued = await callClientApi(testApp.app, 'file', {
      apiKey: application.apiKey,
      body: { file_id: file.id },
    });
    const { url } = clientFileResponseSchema.parse(issued.json());
    const path = new URL(url!).pathname;
    const [, expires] = path.split('/').at(-1)!.split('.');
    /** A link naming the file with a MAC of someone's making. */
    const forged = () =>
      `/api/v1/downloads/${file.id}.${expires}.${randomBytes(32).toString('base64url')}`;
    return { path, forged };
  };
  const fetchFrom = (path: string, remoteAddress: string) =>
    testApp.app.inject({ url: path, remoteAddress });

  it.skipIf(!isAvailable)(
    'lets a valid link from a 51st address download after 1,000 forged links naming its file from 50 addresses',
    async () => {
      const bytes = Buffer.from('the release everyone is waiting for');
      const { path, forged } = await fileWithLink(bytes);
      const [a, b, c] = newIpv4Block();
      const guessers = Array.from({ length: 50 }, (_, n) => `${a}.${b}.${(c + n) % 256}.7`);
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 1000; attempt += 1) {
        statuses.push((await fetchFrom(forged(), guessers[attempt % guessers.length]!)).statusCode);
      }
      const downloaded = await fetchFrom(path, `${a}.${b}.${(c + 50) % 256}.9`);
      expect(downloaded.statusCode, downloaded.body).toBe(200);
      expect(downloaded.rawPayload.equals(bytes)).toBe(true);
      // Every forged link was refused as one (403): no address reached its own limit.
      expect(statuses.every((status) => status === 403)).toBe(true);
    },
    180_000,
  );

  it.skipIf(!isAvailable)(
    'stops one forged link tried from many addresses at 10, and only that link',
    async () => {
      const bytes = Buffer.from('a build');
      const { path, forged } = await fileWithLink(bytes);
      const link = forged();
      const [a, b, c] = newIpv4Block();
      for (let n = 0; n < 10; n += 1) {
        expect((await fetchFrom(link, `${a}.${b}.${(c + n) % 256}.1`)).statusCode).toBe(403);
      }
      const fresh = `${a}.${b}.${(c + 10) % 256}.1`;
      const throttled = await fetchFrom(link, fresh);
      expect(throttled.statusCode).toBe(429);
      expect(throttled.json().message).toMatch(/^Too many refused download links/);
      expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
      expect((await fetchFrom(path, fresh)).rawPayload.equals(bytes)).toBe(true);
    },
  );

  it.skipIf(!isAvailable)('stops a /24 at 100 refused links, and not the next range', async () => {
    const bytes = Buffer.from('another build');
    const { path, forged } = await fileWithLink(bytes);
    const [a, b, c] = newIpv4Block();
    for (let host = 1; host <= 5; host += 1) {
      for (let attempt = 0; attempt < 20; attempt += 1) {
        expect((await fetchFrom(forged(), `${a}.${b}.${c}.${host}`)).statusCode).toBe(403);
      }
    }
    expect((await fetchFrom(path, `${a}.${b}.${c}.200`)).statusCode).toBe(429);
    expect((await fetchFrom(path, `${a}.${b}.${(c + 1) % 256}.200`)).statusCode).toBe(200);
  });
});
