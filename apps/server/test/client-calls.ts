import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { clientAuthResponseSchema, type Application } from '@latchkey/contracts';
import { callClientApi } from './factories.ts';

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
