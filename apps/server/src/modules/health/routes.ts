import type { RouteDefinition } from '../../http/route-definition.ts';
import type { FastifyInstance } from 'fastify';
import type { Health, RuntimeConfig } from '@latchkey/contracts';
import type { AppDependencies } from '../../http/app-dependencies.ts';
import { isAuthEmulatorReady } from '../../identity/auth-emulator.ts';

export function registerHealthRoutes(app: FastifyInstance, deps: AppDependencies): void {
  const { config } = deps;

  app.get('/api/health', async (request, reply) => {
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
    const emulatorHost = config.identity.emulatorHost;
    if (emulatorHost && !(await isAuthEmulatorReady(emulatorHost))) {
      return reply.status(503).send({ ...health, status: 'unavailable' });
    }
    return health;
  });
}

/** What the console reads before it starts (its Firebase web config): the console's side. */
export function registerRuntimeConfigRoute(app: FastifyInstance, deps: AppDependencies): void {
  const { config } = deps;
  app.get('/api/config', async (): Promise<RuntimeConfig> => ({
    firebase: config.identity.webConfig,
    authEmulatorUrl: config.identity.emulatorHost ? `http://${config.identity.emulatorHost}` : null,
    endUserPasswordMinLength: config.endUserPasswordMinLength,
  }));
}

/** The module's routes defined once (route-definition.ts); the rest are registered above. */
export const healthRoutes: readonly RouteDefinition[] = [];
