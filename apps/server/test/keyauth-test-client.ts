import { createHash, createHmac, randomBytes, verify } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { ed25519PublicKey } from './client-calls.ts';

/**
 * A client of the KeyAuth-compatible API written from KeyAuth's published protocol, checking
 * every answer as KeyAuth's official libraries do: API 1.2 by the HMAC-SHA256 of the body in
 * `signature` (keyed by the secret for init, then `{enckey}-{secret}`), API 1.3 by the Ed25519
 * signature over `timestamp + body` within 20 seconds of the client's clock; on both the
 * `ownerid` echo, and `code` 68 on success (the C++ library exits without it). It also checks
 * what the C# client needs of the bytes: ASCII only.
 */
export interface KeyauthTestClientOptions {
  app: FastifyInstance;
  version: '1.2' | '1.3';
  name: string;
  ownerId: string;
  /** 1.2's HMAC secret. */
  secret?: string;
  /** 1.3's Ed25519 public key (hex): the application's signing key. */
  publicKey?: string;
  appVersion?: string;
  remoteAddress?: string;
  /** The client's clock (Unix seconds) for 1.3's 20-second window. */
  nowSeconds: () => number;
}

export interface KeyauthReply {
  response: LightMyRequestResponse;
  raw: string;
  json: Record<string, unknown> & { success: boolean; message: string };
}

export class KeyauthSignatureError extends Error {}

export function createKeyauthTestClient(options: KeyauthTestClientOptions) {
  const enckey = createHash('sha256').update(randomBytes(32)).digest('hex');
  let sessionId = '';

  const verifySignature = (type: string, response: LightMyRequestResponse) => {
    const body = response.rawPayload;
    if (options.version === '1.2') {
      const key = type === 'init' ? options.secret! : `${enckey}-${options.secret!}`;
      const expected = createHmac('sha256', key).update(body).digest('hex');
      if (response.headers.signature !== expected) {
        throw new KeyauthSignatureError(`1.2 signature mismatch on ${type}`);
      }
      return;
    }
    const signature = response.headers['x-signature-ed25519'];
    const timestamp = response.headers['x-signature-timestamp'];
    if (typeof signature !== 'string' || typeof timestamp !== 'string') {
      throw new KeyauthSignatureError(`1.3 answer to ${type} is unsigned`);
    }
    if (Math.abs(options.nowSeconds() - Number(timestamp)) > 20) {
      throw new KeyauthSignatureError(`1.3 answer to ${type} is older than 20 seconds`);
    }
    const message = Buffer.concat([Buffer.from(timestamp), body]);
    const key = ed25519PublicKey(options.publicKey!);
    if (!verify(null, message, key, Buffer.from(signature, 'hex'))) {
      throw new KeyauthSignatureError(`1.3 signature mismatch on ${type}`);
    }
  };

  async function request(
    type: string,
    fields: Record<string, string> = {},
    how: { method?: 'GET' | 'POST'; checked?: boolean } = {},
  ): Promise<KeyauthReply> {
    const form = new URLSearchParams({
      type,
      ...fields,
      ...(type === 'init' ? {} : { sessionid: sessionId }),
      name: options.name,
      ownerid: options.ownerId,
    }).toString();
    const isGet = how.method === 'GET';
    const response = await options.app.inject({
      method: how.method ?? 'POST',
      url: `/api/${options.version}/${isGet ? `?${form}` : ''}`,
      remoteAddress: options.remoteAddress ?? '127.0.0.9',
      ...(isGet
        ? {}
        : { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form }),
    });
    const raw = response.body;
    if (raw === 'KeyAuth_Invalid') return { response, raw, json: { success: false, message: raw } };
    if ([...response.rawPayload].some((byte) => byte > 0x7f)) {
      throw new Error(`answer to ${type} is not ASCII: ${raw}`);
    }
    if (how.checked !== false) verifySignature(type, response);
    const json = JSON.parse(raw) as KeyauthReply['json'];
    if (json.ownerid !== options.ownerId)
      throw new Error(`answer to ${type} lacks the ownerid echo`);
    if (json.success && json.code !== 68) throw new Error(`success of ${type} without code 68`);
    if (type === 'init' && json.success) sessionId = String(json.sessionid);
    return { response, raw, json };
  }

  return {
    request,
    init: () => request('init', { ver: options.appVersion ?? '1.0.0', hash: 'abc', enckey }),
    get sessionId() {
      return sessionId;
    },
    set sessionId(value: string) {
      sessionId = value;
    },
  };
}
