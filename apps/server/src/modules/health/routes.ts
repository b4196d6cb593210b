import type { FastifyInstance } from 'fastify';
import {
  healthSchema,
  runtimeConfigSchema,
  type Health,
  type RuntimeConfig,
} from '@latchkey/contracts';
import type { AppDependencies } from '../../http/app-dependencies.ts';
import { ok } from '../../http/route-contract.ts';
import { registerRoutes, routeDefiner } from '../../http/route-definition.ts';
import { isAuthEmulatorReady } from '../../identity/auth-emulator.ts';

const defineRoute = routeDefiner<AppDependencies>();

const healthRoute = defineRoute({
  method: 'GET',
  path: '/api/health',
  caller: 'public',
  tag: 'Service',
  summary: 'Ready to serve',
  responses: {
    200: ok(healthSchema, 'The server, the database and (locally) the emulator are ready.'),
    503: ok(healthSchema, 'The database or the identity emulator is unreachable.'),
  },
  handle: async ({ request, reply }, deps) => {
    const health: Health = {
      status: 'ok',
      database: deps.database.kind,
      identity: deps.identity.mode,
    };
    try {
      await deps.database.ping();
    } catch (error) {
      request.log.warn({ err: error }, 'health: database unreachable');
      return reply.status(503).send({ ...health, status: 'unavailable' });
    }
    const emulatorHost = deps.config.identity.emulatorHost;
    if (emulatorHost && !(await isAuthEmulatorReady(emulatorHost))) {
      return reply.status(503).send({ ...health, status: 'unavailable' });
    }
    return health;
  },
});

/** What the console reads before it starts (its Firebase web config): the console's side. */
const runtimeConfigRoute = defineRoute({
  method: 'GET',
  path: '/api/config',
  caller: 'public',
  tag: 'Service',
  summary: 'Run-time configuration of the console',
  responses: { 200: ok(runtimeConfigSchema) },
  handle: async (_input, { config }): Promise<RuntimeConfig> => ({
    firebase: config.identity.webConfig,
    authEmulatorUrl: config.identity.emulatorHost ? `http://${config.identity.emulatorHost}` : null,
    endUserPasswordMinLength: config.endUserPasswordMinLength,
    mailDelivery: config.mail.transport?.kind ?? 'off',
  }),
});

/** The service's own routes: readiness, and the console's run-time configuration. */
export const healthRoutes = [healthRoute, runtimeConfigRoute];

export function registerHealthRoutes(app: FastifyInstance, deps: AppDependencies): void {
  registerRoutes(app, [healthRoute], deps);
}

/** What the console reads before it starts, registered only where the console is served. */
export function registerRuntimeConfigRoute(app: FastifyInstance, deps: AppDependencies): void {
  registerRoutes(app, [runtimeConfigRoute], deps);
}
