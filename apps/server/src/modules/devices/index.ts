/**
 * What the devices module offers the other modules, which import it from this file only (the
 * layer rules refuse their imports of its other files).
 */
export { addDevice } from './add-device.ts';
export { bindDevice } from './bind-device.ts';
export {
  type DeviceChangeContext,
  noteDeviceEvents,
  type WrittenDeviceEvents,
} from './device-change-context.ts';
export { deviceLimitOf } from './device-limit.ts';
export { listUserDevices } from './list-user-devices.ts';
export { releaseDevices } from './release-devices.ts';
export { nextSelfResetAt, releaseOwnDevices } from './release-own-devices.ts';
export { releaseUserDevices } from './release-user-devices.ts';
export { setUserHwid } from './set-user-hwid.ts';
export { toDeviceResponse } from './to-device-response.ts';
export { deviceRoutes } from './routes.ts';
