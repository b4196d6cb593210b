import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { clientAuthResponseSchema, type Application } from '@latchkey/contracts';
import { callClientApi } from './factories.ts';

/**
 * What a client API call answered, read with the call's schema. The answer must be HTTP 200:
 * a refusal is an outcome in the body (`success: false` and a `code`), not a status.
 */
export function clientOutcome<T>(
  schema: { parse(value: unknown): T },
  response: LightMyRequestResponse,
): T {
  expect(response.statusCode, response.body).toBe(200);
  return schema.parse(response.json());
}

/**
 * Logs `user` in through the client API and starts a session with login's token, as a program
 * does before it asks for anything that needs one; answers the session token.
 */
export async function startClientSession(
  app: FastifyInstance,
  application: Pick<Application, 'apiKey' | 'version'>,
  user: { id: string; username: string },
  password: string,
): Promise<string> {
  const login = await callClientApi(app, 'login', {
    apiKey: application.apiKey,
    body: { username: user.username, password, version: application.version },
  });
  const token = clientAuthResponseSchema.parse(login.json()).session_token!;
  const started = await callClientApi(app, 'session/track', {
    apiKey: application.apiKey,
    body: { action: 'start', user_id: user.id, session_token: token },
  });
  expect(started.json(), started.body).toMatchObject({ code: 'OK' });
  return token;
}

/** An application's raw 32-byte Ed25519 public key (hex), as a key Node can verify with. */
export function ed25519PublicKey(publicKeyHex: string): KeyObject {
  return createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(publicKeyHex, 'hex').toString('base64url') },
    format: 'jwk',
  });
}

/**
 * What a client does with an answer: checks the Ed25519 signature over
 * `{timestamp}.{nonce}.{body}` against the application's public key.
 */
export function isSignedBy(
  publicKeyHex: string,
  response: LightMyRequestResponse,
  nonce = '',
  body = response.rawPayload,
): boolean {
  const signature = response.headers['x-signature-ed25519'];
  const timestamp = response.headers['x-signature-timestamp'];
  if (typeof signature !== 'string' || typeof timestamp !== 'string') return false;
  const message = Buffer.concat([Buffer.from(`${timestamp}.${nonce}.`), body]);
  return verify(null, message, ed25519PublicKey(publicKeyHex), Buffer.from(signature, 'hex'));
}
