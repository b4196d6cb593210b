import type { FastifyInstance } from 'fastify';
import { MANAGEMENT_API_PREFIX } from '@latchkey/contracts';
import type { AppDependencies } from '../../http/app-dependencies.ts';
import { createThrottleStore } from '../../lib/failure-throttle.ts';
import { createOccasionalWarning } from '../../lib/occasional-warning.ts';
import type { ActivityRecorder } from '../activity/index.ts';
import { registerManagementAccountRoutes } from './account-routes.ts';
import { registerManagementAppUserRoutes } from './app-user-routes.ts';
import { registerManagementApplicationRoutes } from './application-routes.ts';
import { registerManagementLicenseRoutes } from './license-routes.ts';
import { registerManagementOrderRoutes } from './order-routes.ts';
import type { MailOutbox } from '../mail/index.ts';
import { registerManagementImportRoutes } from './import-routes.ts';
import type { RunningImports } from '../imports/index.ts';
import { publishConsoleChanges } from '../owner-events/index.ts';
import { createManagementGuard } from './management-guard.ts';
import type { RouteTable } from './management-route-rules.ts';
import { answerWithProblems } from '../../http/problem-details.ts';

const REDIS_WARNING_INTERVAL_MS = 60_000;

/**
 * The management API at /api/manage/v1: a scope of its own beside the browser's,
 * so no cookie parser runs here and an owner's cookie means nothing (each credential has one
 * home). Every route passes the management guard and answers errors as problem+json.
 */
export async function registerManagementApi(
  app: FastifyInstance,
  deps: Pick<
    AppDependencies,
    'config' | 'database' | 'clock' | 'applicationEvents' | 'ownerEvents'
  > & {
    activity: Pick<ActivityRecorder, 'noteWritten' | 'recordActivity'>;
    /** Where a key generation's `emailTo` mail is queued. */
    mail: MailOutbox;
    runningImports: RunningImports;
    /** Every route's contract and permission: where each route's scope and rule are read. */
    routeTable: RouteTable;
  },
): Promise<void> {
  await app.register(
    async (scope) => {
      answerWithProblems(scope);
      const throttleStore = createThrottleStore({
        redisUrl: deps.config.redisUrl,
        database: deps.database,
        onRedisError: createOccasionalWarning({
          intervalMs: REDIS_WARNING_INTERVAL_MS,
          clock: deps.clock,
          write: (error, suppressed) =>
            scope.log.warn(
              { err: error, suppressed },
              'management rate limit store (Redis) unavailable',
            ),
        }),
      });
      scope.addHook('onClose', () => throttleStore.close());
      scope.decorateRequest('management', null);
      scope.addHook('preHandler', createManagementGuard({ ...deps, throttleStore }));
      scope.addHook('onSend', publishConsoleChanges(deps.ownerEvents));
      registerManagementApplicationRoutes(scope, { serverSecret: deps.config.serverSecret });
      registerManagementAppUserRoutes(scope, deps);
      registerManagementLicenseRoutes(scope, deps);
      registerManagementOrderRoutes(scope);
      registerManagementAccountRoutes(scope, deps);
      registerManagementImportRoutes(scope, deps);
    },
    { prefix: MANAGEMENT_API_PREFIX },
  );
}
