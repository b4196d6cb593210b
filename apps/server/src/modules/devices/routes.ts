import type { FastifyInstance } from 'fastify';
import {
  appUserParamsSchema,
  deviceListSchema,
  deviceParamsSchema,
  releasedDevicesSchema,
  type Device,
  type ReleasedDevices,
} from '@latchkey/contracts';
import { ok } from '../../http/route-contract.ts';
import { registerRoutes, routeDefiner } from '../../http/route-definition.ts';
import type { ActivityRecorder } from '../activity/index.ts';
import type { ApplicationEvents } from '../../events/application-events.ts';
import { listUserDevices } from './list-user-devices.ts';
import { releaseUserDevices } from './release-user-devices.ts';
import { toDeviceResponse } from './to-device-response.ts';

interface DeviceServices {
  applicationEvents: ApplicationEvents;
  activity: Pick<ActivityRecorder, 'noteWritten'>;
}

const defineRoute = routeDefiner<DeviceServices>();

/**
 * An end user's devices: list, release one, release all (what the seed's Reset
 * HWID does too).
 */
export const deviceRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/applications/:appId/users/:userId/devices',
    permission: 'signed_in',
    caller: 'owner',
    tag: 'End users',
    summary: 'List an end user\u2019s devices, oldest binding first',
    params: appUserParamsSchema,
    responses: { 200: ok(deviceListSchema) },
    handle: async ({ params, request }): Promise<Device[]> => {
      const devices = await listUserDevices({
        ctx: request.owner!,
        input: { applicationId: params.appId, userId: params.userId },
      });
      return devices.map(toDeviceResponse);
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/applications/:appId/users/:userId/devices',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'End users',
    summary: 'Release every device of an end user',
    description: 'The next login under HWID lock binds anew; the devices\u2019 sessions end.',
    params: appUserParamsSchema,
    responses: { 200: ok(releasedDevicesSchema) },
    handle: async (
      { params, request },
      { applicationEvents, activity },
    ): Promise<ReleasedDevices> =>
      releaseUserDevices({
        ctx: { ...request.owner!, applicationEvents, activity },
        input: { applicationId: params.appId, userId: params.userId },
      }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/applications/:appId/users/:userId/devices/:deviceId',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'End users',
    summary: 'Release one device of an end user',
    description: 'Its seat is free for another machine; its sessions end.',
    params: deviceParamsSchema,
    responses: { 200: ok(releasedDevicesSchema) },
    handle: async (
      { params, request },
      { applicationEvents, activity },
    ): Promise<ReleasedDevices> =>
      releaseUserDevices({
        ctx: { ...request.owner!, applicationEvents, activity },
        input: { applicationId: params.appId, userId: params.userId, deviceId: params.deviceId },
      }),
  }),
];

/** An end user's devices. Registered inside the owner scope. */
export function registerDeviceRoutes(
  app: FastifyInstance,
  { applicationEvents, activity }: DeviceServices,
): void {
  registerRoutes(app, deviceRoutes, { applicationEvents, activity });
}
