import { z } from 'zod';

/**
 * Devices: the machines an end user's account is bound to under HWID lock. An application
 * allows `maxDevices` (1 by default: the seed's lock to one machine); a plan can raise it for
 * its holders. The owner releases devices; the end user can too, from the client API, when the
 * application allows self-service resets, at most once per cooldown.
 */
export const deviceLimits = {
  /** The name a client sends (`device_name`, such as the machine name). */
  name: 128,
  maxDevices: 100,
  /** A year. 0: no cooldown. */
  resetCooldownHours: 8760,
  releaseInactiveAfterDays: 365,
} as const;

export const deviceDefaults = {
  maxDevices: 1,
  selfServiceReset: false,
  resetCooldownHours: 168,
  releaseInactiveAfterDays: null,
} as const;

export const DEVICE_NOT_FOUND = 'Device not found';

/** Who released a device: the owner (console or API), the end user, or inactivity. */
export const deviceReleasers = ['owner', 'end_user', 'inactivity'] as const;
export type DeviceReleaser = (typeof deviceReleasers)[number];

/** A device as the owner API returns it. */
export const deviceSchema = z
  .object({
    id: z.uuid(),
    hwid: z.string(),
    /** What the client sent as `device_name`, or null. */
    name: z.string().nullable(),
    firstSeenAt: z.iso.datetime(),
    lastSeenAt: z.iso.datetime(),
    lastIp: z.string().nullable(),
    /** When the machine was last activated offline (the portal's air-gapped activation). */
    activatedOfflineAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'Device', description: "A machine bound to an end user's account." });
export type Device = z.infer<typeof deviceSchema>;
/** Oldest binding first: the order in which seats were taken. */
export const deviceListSchema = z.array(deviceSchema);

/** DELETE …/devices answers how many devices were released. */
export const releasedDevicesSchema = z
  .object({ released: z.number().int() })
  .meta({ id: 'ReleasedDevices' });
export type ReleasedDevices = z.infer<typeof releasedDevicesSchema>;

/** A plan's device limit: null does not raise the application's. */
export const planMaxDevicesField = z
  .number({ error: 'Device limit must be a whole number' })
  .int('Device limit must be a whole number')
  .min(1, 'Device limit must be at least 1 (leave it empty to keep the application’s)')
  .max(deviceLimits.maxDevices, `Device limit must be at most ${deviceLimits.maxDevices}`)
  .nullable();
