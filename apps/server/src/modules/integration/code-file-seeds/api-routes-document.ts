import { clientCallCatalogue } from '@latchkey/contracts';

/** One line per client call, from the catalogue every list of them reads. */
const clientRouteLines = Object.values(clientCallCatalogue)
  .map(({ method, path, brief }) => `  '${method} ${path}': '${brief.replaceAll("'", "\\'")}',`)
  .join('\n');

/** The seeded text of api-routes.ts (a reference document; see code-file-seeds.ts). */
export const apiRoutesDocument = String.raw`/**
 * api-routes.ts: the two APIs of Latchkey, at a glance.
 *
 * A reference document kept in your account (Latchkey never runs it). Note here which calls
 * your programs and scripts make, and anything you learned about them.
 */

// The client API: what your programs call. Authenticated by the application's API key
// (X-API-Key header), answers signed with Ed25519, limited per IP and application.
export const clientRoutes = {
${clientRouteLines}
} as const;

// The owner API: what the console calls with your session cookie. Scripts may call it too,
// from the console's origin; every change is refused from any other Origin. Each route needs
// a signed-in account and, for changes, the permission named (see permissions.ts).
export const ownerRoutes = {
  'GET /api/applications': 'your applications (signed in)',
  'POST /api/applications': 'create one (manage_applications)',
  'PUT /api/applications/:id': 'settings, messages, version, HWID lock (manage_applications)',
  'DELETE /api/applications/:id': 'delete it and its users (delete_applications)',
  'GET /api/applications/:id/users': 'its end users, paged (signed in)',
  'POST /api/applications/:id/users': 'create an end user (manage_applications)',
  'GET /api/blacklist': 'blocked IPs, usernames, e-mails, HWIDs (signed in)',
  'GET /api/activity-logs': 'authentication events (signed in)',
  'GET /api/webhooks': 'event notifications to your URLs (signed in)',
  'GET /api/applications/:id/samples/:language': 'a client sample with your key in it',
  'PUT /api/applications/:id/samples/:language': 'save your edit of it (edit_code)',
  'GET /api/code-files': 'these three documents (signed in)',
  'PUT /api/code-files/:name': 'save one; the previous version is kept (edit_code)',
  'GET /api/code-files/:name/versions': 'its history, newest first (signed in)',
  'POST /api/code-files/:name/versions/:versionId/restore': 'bring one back (edit_code)',
} as const;

// Errors of the owner API always look like { "message": "...", "code": "NOT_FOUND" }:
// 400 BAD_REQUEST, 401 UNAUTHENTICATED, 403 FORBIDDEN, 404 NOT_FOUND, 409 CONFLICT,
// 413 PAYLOAD_TOO_LARGE, 429 RATE_LIMITED. Another account's ids are always a 404.
// The whole reference, generated from the same schemas the server checks, is on the
// console's Documentation page.
`;
