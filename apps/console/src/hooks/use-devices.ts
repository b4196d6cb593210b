import { deviceListSchema, releasedDevicesSchema, type ReleasedDevices } from '@latchkey/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api.ts';
import { userDevicesQueryKey } from './owner-query-keys.ts';
import { useListMutation } from './use-owner-mutation.ts';

export const DEVICES_FETCH_ERROR = 'Failed to fetch devices';

function devicesUrl(applicationId: number, userId: string, deviceId?: string) {
  const url = `/api/applications/${applicationId}/users/${encodeURIComponent(userId)}/devices`;
  return deviceId === undefined ? url : `${url}/${encodeURIComponent(deviceId)}`;
}

/** The devices an end user's account is bound to, oldest binding first. */
export function useUserDevices(applicationId: number, userId: string) {
  return useQuery({
    queryKey: userDevicesQueryKey(applicationId, userId),
    queryFn: async () =>
      deviceListSchema.parse(
        await (await apiRequest('GET', devicesUrl(applicationId, userId))).json(),
      ),
  });
}

/** One device when `deviceId` is given, else all of them. */
async function releaseDevices(
  applicationId: number,
  userId: string,
  deviceId?: string,
): Promise<ReleasedDevices> {
  const response = await apiRequest('DELETE', devicesUrl(applicationId, userId, deviceId));
  return releasedDevicesSchema.parse(await response.json());
}

/*
 * The device list is re-read before a release settles, also after a failure (a 404 means the
 * device was released elsewhere); the owner toasts then refresh the users lists, whose HWID
 * and device count change with it.
 */

export function useRemoveDevice(applicationId: number, userId: string) {
  return useListMutation({
    listQueryKey: userDevicesQueryKey(applicationId, userId),
    mutationFn: (deviceId: string) => releaseDevices(applicationId, userId, deviceId),
    successMessage: 'Device removed successfully',
    errorMessage: 'Failed to remove device',
  });
}

export function useRemoveAllDevices(applicationId: number, userId: string) {
  return useListMutation<void, ReleasedDevices>({
    listQueryKey: userDevicesQueryKey(applicationId, userId),
    mutationFn: () => releaseDevices(applicationId, userId),
    successMessage: 'All devices removed successfully',
    errorMessage: 'Failed to remove devices',
  });
}
