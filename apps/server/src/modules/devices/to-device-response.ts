import type { Device } from '@latchkey/contracts';
import type { AppUserDevice } from '../../db/schema/index.ts';

/** The owner-API view of a device. */
export function toDeviceResponse(device: AppUserDevice): Device {
  return {
    id: device.id,
    hwid: device.hwid,
    name: device.name,
    firstSeenAt: device.firstSeenAt.toISOString(),
    lastSeenAt: device.lastSeenAt.toISOString(),
    lastIp: device.lastIp,
    activatedOfflineAt: device.activatedOfflineAt?.toISOString() ?? null,
  };
}
