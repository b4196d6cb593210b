import { createPublicKey, randomUUID, verify } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLiveLatchkey, replaceConstant, type LiveLatchkey } from './live-latchkey.ts';
import { startTamperingProxy } from './tampering-proxy.ts';

/** The harness the four sample tests stand on: it must itself be right. */
describe('sample test harness', () => {
  let live: LiveLatchkey;
  let proxy: Awaited<ReturnType<typeof startTamperingProxy>>;

  beforeAll(async () => {
    live = await startLiveLatchkey();
    proxy = await startTamperingProxy(live.baseUrl);
  });
  afterAll(async () => {
    await proxy?.close();
    await live?.close();
  });

  const verifyThroughProxy = async () => {
    const user = await live.createEndUser();
    const nonce = randomUUID();
    const response = await fetch(`${proxy.baseUrl}/api/v1/verify`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-api-key': live.application.apiKey,
        'x-request-nonce': nonce,
      },
      body: JSON.stringify({ user_id: user.id }),
    });
    const body = Buffer.from(await response.arrayBuffer());
    const key = createPublicKey({
      key: {
        kty: 'OKP',
        crv: 'Ed25519',
        x: Buffer.from(live.application.signingPublicKey, 'hex').toString('base64url'),
      },
      format: 'jwk',
    });
    const message = Buffer.concat([
      Buffer.from(`${response.headers.get('x-signature-timestamp')}.${nonce}.`),
      body,
    ]);
    const signature = Buffer.from(response.headers.get('x-signature-ed25519') ?? '', 'hex');
    return {
      body: JSON.parse(body.toString('utf8')) as unknown,
      isGenuine: verify(null, message, key, signature),
    };
  };

  it('passes genuine answers through unchanged, and breaks the signature while tampering', async () => {
    const genuine = await verifyThroughProxy();
    expect(genuine).toEqual({
      body: {
        success: true,
        message: 'User verified',
        code: 'OK',
        entitlements: [],
        subscriptions: [],
        updates_until: null,
      },
      isGenuine: true,
    });

    proxy.state.tamper = true;
    const tampered = await verifyThroughProxy();
    proxy.state.tamper = false;
    expect(tampered.body).toEqual({
      success: true,
      message: 'user verified',
      code: 'OK',
      entitlements: [],
      subscriptions: [],
      updates_until: null,
    });
    expect(tampered.isGenuine).toBe(false);
    expect(proxy.state.tamperedResponses).toBe(1);
  });

  it('renders samples for the live application and its real base URL', async () => {
    const code = await live.renderSample('nodejs');
    expect(code).toContain(`"${live.application.apiKey}"`);
    expect(code).toContain(`"${live.baseUrl}"`);
    expect(replaceConstant('const HEARTBEAT_SECONDS = 30;\n', 'HEARTBEAT_SECONDS', 1)).toBe(
      'const HEARTBEAT_SECONDS = 1;\n',
    );
  });

  it('reports the live session count the console shows', async () => {
    expect(await live.activeSessionCount()).toBe(0);
  });
});
