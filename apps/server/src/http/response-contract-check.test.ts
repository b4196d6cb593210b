import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { clientApiHeaders, errorBodySchema } from '@latchkey/contracts';
import {
  checkResponsesAgainstContracts,
  type ContractViolation,
} from './response-contract-check.ts';
import type { RouteContract } from './route-contracts.ts';

const itemSchema = z.object({ id: z.number().int(), name: z.string() });

const contracts: Record<string, RouteContract> = {
  'GET /api/items/:id': {
    caller: 'owner',
    tag: 'Applications',
    summary: 'An item',
    params: z.object({ id: z.string() }),
    responses: { 200: { description: 'The item.', schema: itemSchema } },
  },
  'POST /api/v1/ping': {
    caller: 'client',
    tag: 'Client API',
    summary: 'Ping',
    responses: { 200: { description: 'Pong.', schema: z.object({ success: z.boolean() }) } },
  },
};

/**
 * The check the test app runs on every answer, against a small table of contracts: each
 * kind of broken contract is reported, and an answer that keeps its contract is not.
 */
describe('checkResponsesAgainstContracts', () => {
  let app: FastifyInstance;
  const violations: ContractViolation[] = [];

  const appAnswering = async (answer: (id: string) => { status: number; body: unknown }) => {
    app = Fastify();
    app.addHook(
      'onRoute',
      checkResponsesAgainstContracts((v) => violations.push(v), contracts),
    );
    app.get('/api/items/:id', async (request, reply) => {
      const { status, body } = answer((request.params as { id: string }).id);
      return reply.status(status).send(body);
    });
    app.post('/api/v1/ping', async (request, reply) => {
      if (request.headers['x-sign'] === 'yes') {
        reply.header(clientApiHeaders.signature, 'ab'.repeat(64));
        reply.header(clientApiHeaders.signatureTimestamp, '1700000000');
      }
      return { success: true };
    });
    await app.ready();
  };
  afterEach(async () => {
    violations.length = 0;
    await app.close();
  });

  it('accepts answers that match, errors included', async () => {
    await appAnswering((id) =>
      id === '1'
        ? { status: 200, body: { id: 1, name: 'one' } }
        : { status: 404, body: errorBodySchema.parse({ message: 'Not found', code: 'NOT_FOUND' }) },
    );
    expect((await app.inject({ url: '/api/items/1' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/api/items/2' })).statusCode).toBe(404);
    await app.inject({ method: 'POST', url: '/api/v1/ping', headers: { 'x-sign': 'yes' } });
    expect(violations).toEqual([]);
  });

  it('reports a body of the wrong shape', async () => {
    await appAnswering(() => ({ status: 200, body: { id: 'one', name: 'one' } }));
    await app.inject({ url: '/api/items/1' });
    expect(violations).toEqual([
      expect.objectContaining({ route: 'GET /api/items/:id', status: 200 }),
    ]);
    expect(violations[0]!.problem).toMatch(/body does not match.*id/s);
  });

  it('reports fields the schema does not document, however deep', async () => {
    await appAnswering(() => ({ status: 200, body: { id: 1, name: 'one', secret: 'x' } }));
    await app.inject({ url: '/api/items/1' });
    expect(violations[0]?.problem).toBe('undocumented fields: secret');
  });

  it('reports a status the route does not document', async () => {
    await appAnswering(() => ({ status: 409, body: { message: 'Conflict', code: 'CONFLICT' } }));
    await app.inject({ url: '/api/items/1' });
    expect(violations[0]?.problem).toMatch(/^status 409 is not documented/);
  });

  it('reports an error body that is not the documented error shape', async () => {
    await appAnswering(() => ({ status: 404, body: { error: 'Not found' } }));
    await app.inject({ url: '/api/items/1' });
    expect(violations[0]?.problem).toMatch(/body does not match/);
  });

  it('reports a client-API answer without its signature headers', async () => {
    await appAnswering(() => ({ status: 200, body: { id: 1, name: 'one' } }));
    await app.inject({ method: 'POST', url: '/api/v1/ping' });
    expect(violations).toEqual([
      expect.objectContaining({ route: 'POST /api/v1/ping', status: 200 }),
    ]);
    expect(violations[0]!.problem).toMatch(/^headers: .*x-signature-ed25519/s);
  });
});
