import type { PortalApi } from '@/portal/portal-api.ts';

/**
 * A portal API for a page's tests: the calls given, and every other one refused, so a page
 * that calls what it should not fails its test.
 */
export function portalApiWith(page: string, calls: Partial<PortalApi>): PortalApi {
  const unused = () => Promise.reject(new Error(`the ${page} calls nothing else`));
  return {
    info: unused,
    account: unused,
    signIn: unused,
    signOut: unused,
    releaseDevice: unused,
    redeem: unused,
    activateOffline: unused,
    changePassword: unused,
    resetPassword: unused,
    forgotPassword: unused,
    verifyEmail: unused,
    stopReminders: unused,
    ...calls,
  };
}
