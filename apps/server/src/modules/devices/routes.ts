import type { RouteDefinition } from '../../http/route-definition.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  appUserParamsSchema,
  deviceParamsSchema,
  type Device,
  type ReleasedDevices,
} from '@latchkey/contracts';
import { parseInput } from '../../http/parse-input.ts';
import type { ActivityRecorder } from '../activity/index.ts';
import type { ApplicationEvents } from '../../events/application-events.ts';
import { listUserDevices } from './list-user-devices.ts';
import { releaseUserDevices } from './release-user-devices.ts';
import { toDeviceResponse } from './to-device-response.ts';

/**
 * An end user's devices: list, release one, release all (what the seed's Reset
 * HWID does too). Registered inside the owner scope.
 */
export function registerDeviceRoutes(
  app: FastifyInstance,
  {
    applicationEvents,
    activity,
  }: { applicationEvents: ApplicationEvents; activity: Pick<ActivityRecorder, 'noteWritten'> },
): void {
  const ctx = (request: FastifyRequest) => ({ ...request.owner!, applicationEvents, activity });
  const base = '/api/applications/:appId/users/:userId/devices';

  app.get(base, async (request): Promise<Device[]> => {
    const { appId, userId } = parseInput(appUserParamsSchema, request.params);
    const devices = await listUserDevices({
      ctx: request.owner!,
      input: { applicationId: appId, userId },
    });
    return devices.map(toDeviceResponse);
  });

  app.delete(base, async (request): Promise<ReleasedDevices> => {
    const { appId, userId } = parseInput(appUserParamsSchema, request.params);
    return releaseUserDevices({ ctx: ctx(request), input: { applicationId: appId, userId } });
  });

  app.delete(`${base}/:deviceId`, async (request): Promise<ReleasedDevices> => {
    const { appId, userId, deviceId } = parseInput(deviceParamsSchema, request.params);
    return releaseUserDevices({
      ctx: ctx(request),
      input: { applicationId: appId, userId, deviceId },
    });
  });
}

/** The module's routes defined once (route-definition.ts); the rest are registered above. */
export const deviceRoutes: readonly RouteDefinition[] = [];
