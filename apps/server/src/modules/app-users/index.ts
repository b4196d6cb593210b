/**
 * What the app-users module offers the other modules, which import it from this file only (the
 * layer rules refuse their imports of its other files).
 */
export { appUserCountsOf, countAppUsers } from './count-app-users.ts';
export { createAppUser } from './create-app-user.ts';
export { deleteAppUser } from './delete-app-user.ts';
export { endSessionsOfOldPassword } from './end-sessions-of-old-password.ts';
export { getAppUser } from './get-app-user.ts';
export { isInGoodStanding } from './is-in-good-standing.ts';
export { listAppUsers } from './list-app-users.ts';
export { pauseAppUser } from './pause-app-user.ts';
export { toAppUserListRow, toAppUserResponse } from './to-app-user-response.ts';
export { unpauseAppUser } from './unpause-app-user.ts';
export { updateAppUser } from './update-app-user.ts';
export { appUserRoutes } from './routes.ts';
