import type { RoutePermission } from './route-permission.ts';

/**
 * The permission every owner route requires, in one table so the whole policy reads at a
 * glance. Keyed by method and the route's registered URL. A route missing here
 * is refused by the owner guard (fail closed) and fails owner-route-permissions.test.ts.
 *
 * Reads of one's own environment need only a signed-in account: a vendor whose
 * manage_applications was withdrawn still sees their data, read-only. A webhook's secret is
 * a credential, not a read of data, so it goes with the right to configure webhooks.
 */
export const ownerRoutePermissions: Record<string, RoutePermission> = {
  'GET /api/auth/user': 'signed_in',
  'GET /api/dashboard/stats': 'signed_in',
  'GET /api/events': 'signed_in',
  'GET /api/dashboard/activity-chart': 'signed_in',

  'GET /api/applications': 'signed_in',
  'POST /api/applications': 'manage_applications',
  'PUT /api/applications/:id': 'manage_applications',
  'DELETE /api/applications/:id': 'delete_applications',
  'GET /api/applications/:id/stats': 'signed_in',
  'GET /api/applications/:id/activity-chart': 'signed_in',

  'GET /api/applications/:id/users': 'signed_in',
  'POST /api/applications/:id/users': 'manage_applications',
  'PUT /api/applications/:appId/users/:userId': 'manage_applications',
  'DELETE /api/applications/:appId/users/:userId': 'manage_applications',
  'POST /api/applications/:id/users/bulk': 'manage_applications',
  'POST /api/applications/:appId/users/:userId/pause': 'manage_applications',
  'POST /api/applications/:appId/users/:userId/unpause': 'manage_applications',
  'POST /api/applications/:appId/users/:userId/reset-hwid': 'manage_applications',
  'GET /api/applications/:appId/users/:userId/devices': 'signed_in',
  'DELETE /api/applications/:appId/users/:userId/devices': 'manage_applications',
  'DELETE /api/applications/:appId/users/:userId/devices/:deviceId': 'manage_applications',

  'GET /api/applications/:id/files': 'signed_in',
  'POST /api/applications/:id/files': 'manage_applications',
  'DELETE /api/applications/:id/files/:fileId': 'manage_applications',
  'POST /api/applications/:id/imports': 'manage_applications',
  'POST /api/applications/:id/imports/:importId/start': 'manage_applications',
  'GET /api/applications/:id/imports/:importId': 'signed_in',

  'POST /api/applications/:id/plans/:planId/delete-unused': 'manage_applications',

  // A key's text is a credential, like a webhook's secret: revealing or exporting keys goes
  // with the right to manage the application, not with a read of its data.
  'GET /api/applications/:id/licenses': 'signed_in',
  'POST /api/applications/:id/licenses': 'manage_applications',
  'GET /api/applications/:id/licenses/export.csv': 'manage_applications',
  'GET /api/applications/:id/licenses/:licenseId/key': 'manage_applications',
  'POST /api/applications/:id/licenses/:licenseId/ban': 'manage_applications',
  'POST /api/applications/:id/licenses/:licenseId/unban': 'manage_applications',
  'DELETE /api/applications/:id/licenses/:licenseId': 'manage_applications',

  'GET /api/applications/:appId/users/:userId/subscriptions': 'signed_in',
  'POST /api/applications/:appId/users/:userId/subscriptions': 'manage_applications',
  'PUT /api/applications/:appId/users/:userId/subscriptions/:subscriptionId': 'manage_applications',
  'DELETE /api/applications/:appId/users/:userId/subscriptions/:subscriptionId':
    'manage_applications',

  // Application variables are application settings; a user's variables are part of editing users.
  'GET /api/applications/:id/variables': 'signed_in',
  'POST /api/applications/:id/variables': 'manage_applications',
  'PUT /api/applications/:id/variables/:variableId': 'manage_applications',
  'DELETE /api/applications/:id/variables/:variableId': 'manage_applications',
  'GET /api/applications/:appId/users/:userId/variables': 'signed_in',
  'PUT /api/applications/:appId/users/:userId/variables/:name': 'manage_applications',
  'DELETE /api/applications/:appId/users/:userId/variables/:name': 'manage_applications',

  'GET /api/blacklist': 'signed_in',
  'POST /api/blacklist': 'manage_applications',
  'DELETE /api/blacklist/:entryId': 'manage_applications',

  'GET /api/activity-logs': 'signed_in',
  'GET /api/activity-logs/stats': 'signed_in',

  'GET /api/webhooks': 'signed_in',
  'POST /api/webhooks': 'manage_applications',
  'PUT /api/webhooks/:id': 'manage_applications',
  'DELETE /api/webhooks/:id': 'manage_applications',
  'GET /api/webhooks/:id/secret': 'manage_applications',
  'GET /api/webhooks/:id/deliveries': 'signed_in',
  'POST /api/webhooks/:id/deliveries/:deliveryId/retry': 'manage_applications',
  'POST /api/test-webhook': 'manage_applications',

  'GET /api/samples/:language': 'signed_in',
  'GET /api/applications/:id/samples/:language': 'signed_in',
  'PUT /api/applications/:id/samples/:language': 'edit_code',
  'DELETE /api/applications/:id/samples/:language': 'edit_code',

  'GET /api/code-files': 'signed_in',
  'GET /api/code-files/:name': 'signed_in',
  'PUT /api/code-files/:name': 'edit_code',
  'GET /api/code-files/:name/versions': 'signed_in',
  'POST /api/code-files/:name/versions/:versionId/restore': 'edit_code',

  // A token is a credential that acts as its creator; listing them shows where
  // automation can reach, so reading the list needs the permission too.
  'GET /api/api-tokens': 'manage_api_tokens',
  'POST /api/api-tokens': 'manage_api_tokens',
  'DELETE /api/api-tokens/:id': 'manage_api_tokens',

  'GET /api/admin/users': 'manage_users',
  // Activation needs manage_users, roles and permissions need manage_permissions: the verb
  // checks which fields actually change.
  'PATCH /api/admin/users/:id': ['manage_users', 'manage_permissions'],
  'DELETE /api/admin/users/:id': 'manage_users',
  'GET /api/admin/audit': 'access_admin_panel',
  'GET /api/admin/overview': 'view_all_data',
};

/** The permission of the route a request matched; HEAD is served by its GET route. */
export function permissionOfRoute(method: string, url: string): RoutePermission | undefined {
  const key = `${method === 'HEAD' ? 'GET' : method} ${url}`;
  return Object.hasOwn(ownerRoutePermissions, key) ? ownerRoutePermissions[key] : undefined;
}
