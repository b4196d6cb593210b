import type { DeviceReleaser } from '@latchkey/contracts';
import type { ActivityRecord } from '../../events/activity-events.ts';

interface DeviceEventInput {
  applicationId: number;
  appUserId: string;
  username: string;
  hwid: string;
  deviceName: string | null;
  /** The caller's address (the client's, or the owner's for an owner release). */
  ipAddress: string | null;
  now: Date;
}

/** The `device_added` row: a device took a seat on the account. */
export function deviceAddedRecord(input: DeviceEventInput): ActivityRecord {
  return deviceRecord('device_added', input, {});
}

/** The `device_released` row, saying who released it. */
export function deviceReleasedRecord(
  input: DeviceEventInput & { releasedBy: DeviceReleaser },
): ActivityRecord {
  return deviceRecord('device_released', input, { releasedBy: input.releasedBy });
}

function deviceRecord(
  event: 'device_added' | 'device_released',
  input: DeviceEventInput,
  extra: Record<string, unknown>,
): ActivityRecord {
  return {
    applicationId: input.applicationId,
    appUserId: input.appUserId,
    username: input.username,
    event,
    success: true,
    ipAddress: input.ipAddress,
    errorMessage: null,
    // `hwid` in the metadata is what webhook payloads carry as data.hwid.
    metadata: {
      hwid: input.hwid,
      ...(input.deviceName ? { deviceName: input.deviceName } : {}),
      ...extra,
      code: 'OK',
    },
    createdAt: input.now,
  };
}
