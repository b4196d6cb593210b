import { z } from 'zod';
import {
  activityLogListSchema,
  createImportQuerySchema,
  importParamsSchema,
  importProgressSchema,
  startImportRequestSchema,
  appFileListSchema,
  downloadParamsSchema,
  errorBodySchema,
  appFileParamsSchema,
  appFileSchema,
  clientFileRequestSchema,
  clientFileResponseSchema,
  uploadAppFileQuerySchema,
  codeFileListSchema,
  codeFileParamsSchema,
  codeFileSchema,
  codeFileVersionListSchema,
  codeFileVersionParamsSchema,
  saveCodeFileRequestSchema,
  activityLogStatsQuerySchema,
  activityLogStatsSchema,
  activityLogsQuerySchema,
  adminUserListQuerySchema,
  adminUserParamsSchema,
  adminUserSchema,
  appUserListQuerySchema,
  appUserListSchema,
  appUserParamsSchema,
  appUserSchema,
  bulkAppUserRequestSchema,
  bulkAppUserResultSchema,
  banLicenseRequestSchema,
  deletedUnusedLicensesSchema,
  generateLicensesRequestSchema,
  generatedLicensesSchema,
  grantSubscriptionRequestSchema,
  licenseListQuerySchema,
  licenseListSchema,
  licenseParamsSchema,
  licenseSchema,
  revealedLicenseSchema,
  subscriptionListSchema,
  subscriptionParamsSchema,
  portalParamsSchema,
  portalDeviceParamsSchema,
  portalInfoSchema,
  portalAccountSchema,
  portalSignInRequestSchema,
  portalRedeemRequestSchema,
  portalPasswordRequestSchema,
  deviceParamsSchema,
  deviceListSchema,
  releasedDevicesSchema,
  clientDeviceResetRequestSchema,
  clientDeviceResetResponseSchema,
  updateSubscriptionRequestSchema,
  applicationListSchema,
  applicationParamsSchema,
  applicationSchema,
  applicationStatsSchema,
  auditEntrySchema,
  auditListQuerySchema,
  blacklistEntryListSchema,
  blacklistEntryParamsSchema,
  blacklistEntrySchema,
  blacklistListQuerySchema,
  clientAuthResponseSchema,
  clientLicenseCheckoutRequestSchema,
  clientLicenseCheckoutResponseSchema,
  clientLicenseLoginRequestSchema,
  clientLoginRequestSchema,
  clientRedeemRequestSchema,
  clientPublicKeyResponseSchema,
  clientRegisterRequestSchema,
  clientSessionRequestSchema,
  clientSessionResponseSchema,
  clientVerifyRequestSchema,
  clientVerifyResponseSchema,
  createAppUserRequestSchema,
  createApplicationRequestSchema,
  createBlacklistEntryRequestSchema,
  createPlanRequestSchema,
  createWebhookRequestSchema,
  currentUserSchema,
  dashboardStatsSchema,
  activityChartQuerySchema,
  activityChartSchema,
  defaultSampleParamsSchema,
  deletedResponseSchema,
  firebaseLoginRequestSchema,
  firebaseLoginResponseSchema,
  healthSchema,
  pagingResponseHeadersSchema,
  planListSchema,
  planParamsSchema,
  planSchema,
  runtimeConfigSchema,
  sampleParamsSchema,
  sampleSchema,
  saveSampleRequestSchema,
  siteOverviewQuerySchema,
  siteOverviewRowSchema,
  testWebhookRequestSchema,
  testWebhookResponseSchema,
  updateAdminUserRequestSchema,
  updateAppUserRequestSchema,
  updateApplicationRequestSchema,
  updatePlanRequestSchema,
  updateWebhookRequestSchema,
  webhookDeliveryListQuerySchema,
  webhookDeliveryParamsSchema,
  webhookDeliverySchema,
  webhookListSchema,
  webhookParamsSchema,
  webhookSchema,
  webhookSecretResponseSchema,
  applicationVariableListQuerySchema,
  applicationVariableListSchema,
  applicationVariableParamsSchema,
  applicationVariableSchema,
  clientSetUserVariableRequestSchema,
  clientUserVariableRequestSchema,
  clientVariableRequestSchema,
  clientVariableResponseSchema,
  createApplicationVariableRequestSchema,
  putUserVariableRequestSchema,
  updateApplicationVariableRequestSchema,
  userVariableListSchema,
  userVariableParamsSchema,
  userVariableSchema,
  apiTokenListSchema,
  type ApiTokenScope,
  apiTokenParamsSchema,
  createApiTokenRequestSchema,
  createdApiTokenSchema,
} from '@latchkey/contracts';

import { managementRouteContracts } from './management-route-contracts.ts';

/**
 * Who may call a route: anyone, a signed-in owner (session cookie), a program (X-API-Key), or
 * an end user in their application's portal (the portal's own cookie), or a shop's or
 * bot's script with a management API token (`Authorization: Bearer lk_…`).
 */
export type RouteCaller = 'public' | 'owner' | 'client' | 'portal' | 'manage';

export const routeTags = [
  {
    name: 'Client API',
    description: 'Called by vendors\u2019 programs with X-API-Key. Every answer is signed.',
  },
  {
    name: 'End-user portal',
    description:
      'The hosted page where end users manage their own account. Its own cookie, scoped to `/api/portal/{publicId}`; mutations must come from this site.',
  },
  { name: 'Service', description: 'Health, run-time configuration and this reference. Public.' },
  { name: 'Owner sign-in', description: 'Google sign-in through Firebase; a session cookie.' },
  { name: 'Dashboard', description: 'Owner API.' },
  { name: 'Applications', description: 'Owner API.' },
  { name: 'End users', description: 'Owner API: the end users of an application.' },
  {
    name: 'Plans',
    description: 'Owner API: what an application sells (a duration and entitlements).',
  },
  {
    name: 'Licences',
    description: 'Owner API: licence keys of a plan, and the subscriptions end users hold.',
  },
  {
    name: 'Variables',
    description:
      'Owner API: remote variables of an application and of its end users, which programs read (and, for their own user, write) with the client API.',
  },
  {
    name: 'Files',
    description: 'Owner API: an application’s downloadable files and its current release.',
  },
  { name: 'Blacklist', description: 'Owner API.' },
  { name: 'Activity', description: 'Owner API.' },
  { name: 'Webhooks', description: 'Owner API.' },
  { name: 'Samples', description: 'Owner API: the client samples of the /integration page.' },
  {
    name: 'Code editor',
    description: 'Owner API: the account\u2019s reference documents of the /code-editor page.',
  },
  { name: 'Administration', description: 'Owner API: accounts of the site (permissions apply).' },
  {
    name: 'Management API',
    description:
      'For shops and bots: `Authorization: Bearer lk_…` with a token from the API Tokens page, no cookies. Each operation names the scope it needs; the token\u2019s creator must also hold the permission its console twin needs. Errors are RFC 9457 problem details; every answer carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset. docs/management-api.md has examples.',
  },
  {
    name: 'API tokens',
    description:
      'Owner API: tokens of the management API, for shops and bots. Needs Manage API Tokens.',
  },
] as const;
export type RouteTag = (typeof routeTags)[number]['name'];

/** One documented answer. A JSON body has `schema`; other bodies name their media type. */
export interface ResponseContract {
  description: string;
  schema?: z.ZodType;
  mediaType?:
    | 'text/html'
    | 'application/javascript'
    | 'text/csv'
    | 'text/event-stream'
    | 'application/octet-stream';
  /** A JSON body of another JSON media type (the management API's problem details). */
  jsonMediaType?: 'application/problem+json';
  headers?: z.ZodObject;
}

export interface RouteContract {
  caller: RouteCaller;
  tag: RouteTag;
  summary: string;
  description?: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** A body that is not JSON (a file upload: its raw bytes); `body` is then its schema. */
  bodyMediaType?: 'application/octet-stream';
  /** The answers of the route itself; the errors every route of its caller shares are added by documentedResponses. */
  responses: Record<number, ResponseContract>;
  /** Error statuses of this route beyond those every route of its caller has. */
  errors?: readonly (401 | 403 | 404 | 409 | 413 | 416 | 422 | 429)[];
  /**
   * Management API routes only: the token scope the route needs, and the console route doing
   * the same thing, whose permission the token's creator must hold.
   */
  management?: { scope: ApiTokenScope; sameAs: string };
}

const ok = (
  schema: z.ZodType,
  description = 'Success.',
  headers?: z.ZodObject,
): ResponseContract => ({ description, schema, ...(headers ? { headers } : {}) });

const paged = (schema: z.ZodType, description: string): ResponseContract =>
  ok(
    schema,
    `${description} The body is one page; the paging headers carry the total.`,
    pagingResponseHeadersSchema,
  );

/** What GET /api/openapi.json answers, as far as a check needs (the rest is OpenAPI's own). */
const openApiDocumentSchema = z
  .looseObject({
    openapi: z.literal('3.1.0'),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    paths: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'OpenApiDocument' });

/**
 * The OpenAPI document is generated from this table (openapi-document.ts), and in tests every
 * answer of every route is checked against it (response-contract-check.ts). Keyed like
 * owner-route-permissions.ts: method and the URL as registered. A route missing here fails
 * route-contracts.test.ts, which says what to add.
 */
export const routeContracts: Record<string, RouteContract> = {
  'GET /api/v1/public-key': {
    caller: 'client',
    tag: 'Client API',
    summary: 'The server-wide signing key',
    description:
      'Answers to requests whose API key names no application are signed with this key; every other answer with the application\u2019s own key (shown on its page).',
    responses: { 200: ok(clientPublicKeyResponseSchema) },
  },
  'POST /api/v1/register': {
    caller: 'client',
    tag: 'Client API',
    summary: 'Register an end user',
    body: clientRegisterRequestSchema,
    responses: {
      200: ok(
        clientAuthResponseSchema,
        'Registered (success true) or refused (success false and a code).',
      ),
    },
    errors: [401],
  },
  'POST /api/v1/login': {
    caller: 'client',
    tag: 'Client API',
    summary: 'Log an end user in',
    description: 'The API key may come as `api_key` in the body instead of the X-API-Key header.',
    body: clientLoginRequestSchema,
    responses: {
      200: ok(
        clientAuthResponseSchema,
        'Logged in (success true, a session token) or refused (success false and a code).',
      ),
    },
    errors: [401],
  },
  'POST /api/v1/devices/reset': {
    caller: 'client',
    tag: 'Client API',
    summary: 'Release one of the end user\u2019s devices, or all (self-service)',
    description:
      'Needs the username and password, and `hwid` (the device to release) or `all: true`. Checked like a login, with the same throttles. Answers RESET_NOT_ALLOWED when the application does not allow self-service resets, RESET_COOLDOWN (with `next_reset_at`) within the cooldown, DEVICE_NOT_FOUND for a hwid the user does not have. The released devices\u2019 sessions end.',
    body: clientDeviceResetRequestSchema,
    responses: {
      200: ok(clientDeviceResetResponseSchema, 'Released, or refused.'),
    },
    errors: [401],
  },
  'POST /api/v1/license/redeem': {
    caller: 'client',
    tag: 'Client API',
    summary: 'Add a licence key to an end user\u2019s account',
    description:
      'Needs the username and password. The key extends (or starts) the subscription of its plan, from the later of now and its current expiry. Refused keys answer LICENSE_INVALID, LICENSE_USED, LICENSE_BANNED or LICENSE_EXPIRED and count against the licence throttles.',
    body: clientRedeemRequestSchema,
    responses: {
      200: ok(
        clientAuthResponseSchema,
        'Redeemed (with the user\u2019s entitlements and subscriptions) or refused.',
      ),
    },
    errors: [401],
  },
  'POST /api/v1/license/login': {
    caller: 'client',
    tag: 'Client API',
    summary: 'Log in with a licence key alone',
    description:
      'The first use creates an end user named `key-<licence id>` and redeems the key; later uses log that user in. The checks and the answer of a login follow.',
    body: clientLicenseLoginRequestSchema,
    responses: {
      200: ok(
        clientAuthResponseSchema,
        'Logged in (success true, a session token) or refused (success false and a code).',
      ),
    },
    errors: [401],
  },
  'POST /api/v1/license/checkout': {
    caller: 'client',
    tag: 'Client API',
    summary: 'Take an offline licence for a live session',
    description:
      'Needs the `session_token` of a started, unended session whose user is in good standing. `ttl_seconds` (default 7 days) runs from an hour to the application\u2019s `maxOfflineDays` (else 400). The answer\u2019s `license` is `LK1.<payload>.<signature>` (or `LK1E.` with `encrypt: true`, AES-256-GCM under a key derived from the session\u2019s HWID), signed by the application\u2019s key over a domain-separated message; `valid_until` is the earliest of issue + TTL, the account\u2019s expiry and the expiries its entitlements depend on. HWID_REQUIRED when the licence must be bound (encrypt, or HWID lock) and the session has no HWID. A licence cannot be recalled once issued. docs/client-api.md has the format and its verification.',
    body: clientLicenseCheckoutRequestSchema,
    responses: {
      200: ok(
        clientLicenseCheckoutResponseSchema,
        'Issued (success true, the licence and valid_until) or refused (success false and a code).',
      ),
    },
    errors: [401],
  },
  'POST /api/v1/var': {
    caller: 'client',
    tag: 'Client API',
    summary: 'Read an application variable',
    description:
      'Answers the variable\u2019s `value` in the signed body. A variable that requires a session (the default) needs the `session_token` of a started, unended session whose user is in good standing, else SESSION_INVALID (or the standing\u2019s code). An unknown name answers VARIABLE_NOT_FOUND. Never cached: an owner\u2019s change is the next answer.',
    body: clientVariableRequestSchema,
    responses: {
      200: ok(clientVariableResponseSchema, 'The value (success true) or a refusal.'),
    },
    errors: [401],
  },
  'POST /api/v1/user-var': {
    caller: 'client',
    tag: 'Client API',
    summary: 'Read one of the session\u2019s end user\u2019s own variables',
    description:
      'Needs a live `session_token`; the user is the session\u2019s. Answers `value` and `read_only`; VARIABLE_NOT_FOUND for a name the user does not hold.',
    body: clientUserVariableRequestSchema,
    responses: {
      200: ok(clientVariableResponseSchema, 'The value (success true) or a refusal.'),
    },
    errors: [401],
  },
  'POST /api/v1/user-var/set': {
    caller: 'client',
    tag: 'Client API',
    summary: 'Create or replace one of the session\u2019s end user\u2019s own variables',
    description:
      'Needs a live `session_token`. VARIABLE_READ_ONLY when the vendor made it read-only; VARIABLE_LIMIT_REACHED for a new name when the user already holds 100. A value over 16 KB (UTF-8) is a 400.',
    body: clientSetUserVariableRequestSchema,
    responses: {
      200: ok(clientVariableResponseSchema, 'Saved (success true, the value) or refused.'),
    },
    errors: [401],
  },
  'POST /api/v1/file': {
    caller: 'client',
    tag: 'Client API',
    summary: 'A short-lived download URL for one of the application’s files',
    description:
      'Needs the `session_token` of a started, unended session whose user is in good standing, unless the file was uploaded with `requiresSession=false`. Answers FILE_NOT_FOUND for an unknown file, another application’s or an upload in progress. The `url` needs no API key, serves the bytes (with Range) as often as asked until `expires_at` (5 minutes), and is bound to this file; check the downloaded bytes against `sha256`. Each URL issued counts one download.',
    body: clientFileRequestSchema,
    responses: {
      200: ok(
        clientFileResponseSchema,
        'Issued (success true, url, size, sha256, expires_at) or refused (success false and a code).',
      ),
    },
    errors: [401],
  },
  'GET /api/v1/downloads/:token': {
    caller: 'public',
    tag: 'Client API',
    summary: 'Download a file through the URL POST /api/v1/file answered',
    description:
      'No API key: the token in the path proves the grant (one file, until it expires). `Range` with one range (`bytes=a-b`, `bytes=a-`, `bytes=-n`) answers 206 with `Content-Range`; past the end is 416. `ETag` is the SHA-256. A tampered or expired token is a 403 with no bytes; refused tokens are throttled per address and per file (429 with Retry-After).',
    params: downloadParamsSchema,
    responses: {
      200: { description: 'The whole file.', mediaType: 'application/octet-stream' },
      206: { description: 'The range asked for.', mediaType: 'application/octet-stream' },
      416: ok(errorBodySchema, 'The range starts past the end of the file.'),
    },
    errors: [403, 404, 429],
  },
  'POST /api/v1/verify': {
    caller: 'client',
    tag: 'Client API',
    summary: 'Check that an end user may still use the program',
    body: clientVerifyRequestSchema,
    responses: {
      200: ok(
        clientVerifyResponseSchema,
        'Still valid (success true) or not (success false and a code).',
      ),
    },
    errors: [401],
  },
  'POST /api/v1/session/track': {
    caller: 'client',
    tag: 'Client API',
    summary: 'Start, keep alive (heartbeat every 30 s) or end a session',
    body: clientSessionRequestSchema,
    responses: {
      200: ok(
        clientSessionResponseSchema,
        'Done (success true) or refused (success false and a code).',
      ),
    },
    errors: [401],
  },

  'GET /api/portal/:publicId': {
    caller: 'public',
    tag: 'End-user portal',
    summary: 'The portal\u2019s name, for its sign-in page',
    description: 'A portal that is off answers 404, as an unknown id does.',
    params: portalParamsSchema,
    responses: { 200: ok(portalInfoSchema) },
    errors: [404],
  },
  'POST /api/portal/:publicId/session': {
    caller: 'public',
    tag: 'End-user portal',
    summary: 'Sign in with the username and password',
    description:
      'Throttled exactly as a client-API login (the same counters). Sets the portal cookie and answers the account. 401 for an unknown username or a wrong password alike; 403 for a blacklisted, paused or expired account; 429 with Retry-After.',
    params: portalParamsSchema,
    body: portalSignInRequestSchema,
    responses: { 201: ok(portalAccountSchema, 'Signed in.') },
    errors: [401, 403, 404, 429],
  },
  'DELETE /api/portal/:publicId/session': {
    caller: 'portal',
    tag: 'End-user portal',
    summary: 'Sign out',
    params: portalParamsSchema,
    responses: { 204: { description: 'Signed out; the cookie is cleared.' } },
  },
  'GET /api/portal/:publicId/account': {
    caller: 'portal',
    tag: 'End-user portal',
    summary: 'The signed-in end user\u2019s account',
    params: portalParamsSchema,
    responses: { 200: ok(portalAccountSchema) },
  },
  'DELETE /api/portal/:publicId/devices/:deviceId': {
    caller: 'portal',
    tag: 'End-user portal',
    summary: 'Release one of the end user\u2019s devices',
    description:
      'Under the self-service rules: 403 when the application does not allow it, 409 within the cooldown (the message says until when). Answers the account.',
    params: portalDeviceParamsSchema,
    responses: { 200: ok(portalAccountSchema) },
    errors: [409],
  },
  'POST /api/portal/:publicId/redeem': {
    caller: 'portal',
    tag: 'End-user portal',
    summary: 'Redeem a licence key onto the account',
    description: 'A refused key is a 400 saying why, and counts against the licence throttles.',
    params: portalParamsSchema,
    body: portalRedeemRequestSchema,
    responses: { 200: ok(portalAccountSchema) },
  },
  'POST /api/portal/:publicId/password': {
    caller: 'portal',
    tag: 'End-user portal',
    summary: 'Change the password',
    description:
      'Needs the current password (a wrong one is a 403 and counts as a failed login). Ends the user\u2019s other portal sessions.',
    params: portalParamsSchema,
    body: portalPasswordRequestSchema,
    responses: { 204: { description: 'Changed.' } },
  },

  'GET /api/health': {
    caller: 'public',
    tag: 'Service',
    summary: 'Ready to serve',
    responses: {
      200: ok(healthSchema, 'The server, the database and (locally) the emulator are ready.'),
      503: ok(healthSchema, 'The database or the identity emulator is unreachable.'),
    },
  },
  'GET /api/config': {
    caller: 'public',
    tag: 'Service',
    summary: 'Run-time configuration of the console',
    responses: { 200: ok(runtimeConfigSchema) },
  },

  'GET /api/openapi.json': {
    caller: 'public',
    tag: 'Service',
    summary: 'This OpenAPI 3.1 document',
    responses: { 200: ok(openApiDocumentSchema) },
  },
  'GET /api/reference': {
    caller: 'public',
    tag: 'Service',
    summary: 'The rendered reference (redirects to /api/reference/)',
    responses: { 301: { description: 'Redirects to /api/reference/.' } },
  },
  'GET /api/reference/': {
    caller: 'public',
    tag: 'Service',
    summary: 'The rendered reference of this document (Scalar)',
    responses: { 200: { description: 'The reference page.', mediaType: 'text/html' } },
  },
  'GET /api/reference/js/scalar.js': {
    caller: 'public',
    tag: 'Service',
    summary: 'The reference page\u2019s script, served from the installed package',
    responses: {
      200: { description: 'Scalar\u2019s bundle.', mediaType: 'application/javascript' },
    },
  },

  'POST /api/auth/firebase-login': {
    caller: 'public',
    tag: 'Owner sign-in',
    summary: 'Sign in with a Firebase ID token',
    description:
      'Sets the session cookie. Refused (403) unless it comes from the console\u2019s own origin.',
    body: firebaseLoginRequestSchema,
    responses: { 200: ok(firebaseLoginResponseSchema) },
    errors: [403],
  },
  'GET /api/logout': {
    caller: 'public',
    tag: 'Owner sign-in',
    summary: 'Sign out',
    responses: { 302: { description: 'Session ended and cookie cleared; redirects to /.' } },
  },
  'GET /api/auth/user': {
    caller: 'owner',
    tag: 'Owner sign-in',
    summary: 'The signed-in owner',
    responses: { 200: ok(currentUserSchema) },
  },

  'GET /api/dashboard/stats': {
    caller: 'owner',
    tag: 'Dashboard',
    summary: 'Totals across the owner\u2019s applications',
    responses: { 200: ok(dashboardStatsSchema) },
  },
  'GET /api/dashboard/activity-chart': {
    caller: 'owner',
    tag: 'Dashboard',
    summary: 'Activity per hour or day across the owner\u2019s applications',
    description:
      'Logins, failed logins, registrations, new sessions and live sessions per hour (range 24h) or per UTC day (7d, 30d), zero-filled, from pre-aggregated buckets.',
    query: activityChartQuerySchema,
    responses: { 200: ok(activityChartSchema) },
  },

  'GET /api/applications': {
    caller: 'owner',
    tag: 'Applications',
    summary: 'List applications',
    responses: { 200: ok(applicationListSchema) },
  },
  'POST /api/applications': {
    caller: 'owner',
    tag: 'Applications',
    summary: 'Create an application',
    body: createApplicationRequestSchema,
    responses: { 201: ok(applicationSchema, 'Created.') },
  },
  'PUT /api/applications/:id': {
    caller: 'owner',
    tag: 'Applications',
    summary: 'Update an application',
    params: applicationParamsSchema,
    body: updateApplicationRequestSchema,
    responses: { 200: ok(applicationSchema) },
  },
  'DELETE /api/applications/:id': {
    caller: 'owner',
    tag: 'Applications',
    summary: 'Delete an application and its end users',
    params: applicationParamsSchema,
    responses: { 200: ok(deletedResponseSchema) },
  },
  'GET /api/applications/:id/stats': {
    caller: 'owner',
    tag: 'Applications',
    summary: 'Statistics of one application',
    params: applicationParamsSchema,
    responses: { 200: ok(applicationStatsSchema) },
  },
  'GET /api/applications/:id/activity-chart': {
    caller: 'owner',
    tag: 'Applications',
    summary: 'Activity per hour or day of one application',
    description:
      'Logins, failed logins, registrations, new sessions and live sessions per hour (range 24h) or per UTC day (7d, 30d), zero-filled, from pre-aggregated buckets.',
    params: applicationParamsSchema,
    query: activityChartQuerySchema,
    responses: { 200: ok(activityChartSchema) },
    errors: [404],
  },

  'GET /api/applications/:id/users': {
    caller: 'owner',
    tag: 'End users',
    summary: 'List end users',
    params: applicationParamsSchema,
    query: appUserListQuerySchema,
    responses: { 200: paged(appUserListSchema, 'End users, newest first.') },
  },
  'POST /api/applications/:id/users': {
    caller: 'owner',
    tag: 'End users',
    summary: 'Create an end user',
    params: applicationParamsSchema,
    body: createAppUserRequestSchema,
    responses: { 201: ok(appUserSchema, 'Created.') },
    errors: [409],
  },
  'PUT /api/applications/:appId/users/:userId': {
    caller: 'owner',
    tag: 'End users',
    summary: 'Update an end user',
    params: appUserParamsSchema,
    body: updateAppUserRequestSchema,
    responses: { 200: ok(appUserSchema) },
    errors: [409],
  },
  'DELETE /api/applications/:appId/users/:userId': {
    caller: 'owner',
    tag: 'End users',
    summary: 'Delete an end user',
    params: appUserParamsSchema,
    responses: { 200: ok(deletedResponseSchema) },
  },
  'POST /api/applications/:id/users/bulk': {
    caller: 'owner',
    tag: 'End users',
    summary: 'Pause, unpause, set expiry, extend, reset HWID or delete many end users',
    description:
      'The users named in `userIds`, or every user the list shows for `matching.search`. Batches of at most 1,000, each its own transaction; `bulk_progress` events on the owner event stream after each. Answers when every batch is done.',
    params: applicationParamsSchema,
    body: bulkAppUserRequestSchema,
    responses: { 200: ok(bulkAppUserResultSchema) },
  },
  'POST /api/applications/:appId/users/:userId/pause': {
    caller: 'owner',
    tag: 'End users',
    summary: 'Pause an end user (ends their sessions)',
    params: appUserParamsSchema,
    responses: { 200: ok(appUserSchema) },
  },
  'POST /api/applications/:appId/users/:userId/unpause': {
    caller: 'owner',
    tag: 'End users',
    summary: 'Unpause an end user',
    params: appUserParamsSchema,
    responses: { 200: ok(appUserSchema) },
  },
  'POST /api/applications/:appId/users/:userId/reset-hwid': {
    caller: 'owner',
    tag: 'End users',
    summary: 'Forget the bound hardware id',
    description: 'Releases every device of the user, as `DELETE …/devices` does.',
    params: appUserParamsSchema,
    responses: { 200: ok(appUserSchema) },
  },
  'GET /api/applications/:appId/users/:userId/devices': {
    caller: 'owner',
    tag: 'End users',
    summary: 'List an end user\u2019s devices, oldest binding first',
    params: appUserParamsSchema,
    responses: { 200: ok(deviceListSchema) },
  },
  'DELETE /api/applications/:appId/users/:userId/devices': {
    caller: 'owner',
    tag: 'End users',
    summary: 'Release every device of an end user',
    description: 'The next login under HWID lock binds anew; the devices\u2019 sessions end.',
    params: appUserParamsSchema,
    responses: { 200: ok(releasedDevicesSchema) },
  },
  'DELETE /api/applications/:appId/users/:userId/devices/:deviceId': {
    caller: 'owner',
    tag: 'End users',
    summary: 'Release one device of an end user',
    description: 'Its seat is free for another machine; its sessions end.',
    params: deviceParamsSchema,
    responses: { 200: ok(releasedDevicesSchema) },
  },

  'GET /api/applications/:id/variables': {
    caller: 'owner',
    tag: 'Variables',
    summary: 'List an application\u2019s variables, by name',
    description: '`search` matches the name or the value, in any case.',
    params: applicationParamsSchema,
    query: applicationVariableListQuerySchema,
    responses: { 200: ok(applicationVariableListSchema) },
  },
  'POST /api/applications/:id/variables': {
    caller: 'owner',
    tag: 'Variables',
    summary: 'Create an application variable',
    description:
      'A name is 1 to 64 letters, digits, `_`, `.` or `-`; a value at most 64 KB (UTF-8). `requiresSession` is true unless sent false. A name the application already has is a 409.',
    params: applicationParamsSchema,
    body: createApplicationVariableRequestSchema,
    responses: { 201: ok(applicationVariableSchema, 'Created.') },
    errors: [409],
  },
  'PUT /api/applications/:id/variables/:variableId': {
    caller: 'owner',
    tag: 'Variables',
    summary: 'Update an application variable',
    description:
      'Absent fields stay as they are. Programs read the new value from their next call.',
    params: applicationVariableParamsSchema,
    body: updateApplicationVariableRequestSchema,
    responses: { 200: ok(applicationVariableSchema) },
    errors: [409],
  },
  'DELETE /api/applications/:id/variables/:variableId': {
    caller: 'owner',
    tag: 'Variables',
    summary: 'Delete an application variable',
    params: applicationVariableParamsSchema,
    responses: { 200: ok(deletedResponseSchema) },
  },
  'GET /api/applications/:appId/users/:userId/variables': {
    caller: 'owner',
    tag: 'Variables',
    summary: 'List an end user\u2019s variables, by name',
    params: appUserParamsSchema,
    responses: { 200: ok(userVariableListSchema) },
  },
  'PUT /api/applications/:appId/users/:userId/variables/:name': {
    caller: 'owner',
    tag: 'Variables',
    summary: 'Create or replace an end user\u2019s variable',
    description:
      'A value at most 16 KB (UTF-8); `readOnly` (default false) stops the program changing it. A new name when the user already holds 100 is a 409.',
    params: userVariableParamsSchema,
    body: putUserVariableRequestSchema,
    responses: { 200: ok(userVariableSchema) },
    errors: [409],
  },
  'DELETE /api/applications/:appId/users/:userId/variables/:name': {
    caller: 'owner',
    tag: 'Variables',
    summary: 'Delete an end user\u2019s variable',
    params: userVariableParamsSchema,
    responses: { 200: ok(deletedResponseSchema) },
  },

  'GET /api/applications/:id/files': {
    caller: 'owner',
    tag: 'Files',
    summary: 'List an application’s files',
    description: 'Complete uploads only, newest first.',
    params: applicationParamsSchema,
    responses: { 200: ok(appFileListSchema) },
  },
  'POST /api/applications/:id/files': {
    caller: 'owner',
    tag: 'Files',
    summary: 'Upload a file',
    description:
      'The body is the file’s bytes (`Content-Type: application/octet-stream`), streamed to storage; `name`, `version`, optional `platform` and `requiresSession` (default true) are query parameters. Larger than MAX_UPLOAD_MB (default 512) is a 413, and nothing is kept; neither is anything of an upload that fails or is aborted.',
    params: applicationParamsSchema,
    query: uploadAppFileQuerySchema,
    body: z.string().meta({ format: 'binary' }),
    bodyMediaType: 'application/octet-stream',
    responses: { 201: ok(appFileSchema, 'Stored.') },
  },
  'DELETE /api/applications/:id/files/:fileId': {
    caller: 'owner',
    tag: 'Files',
    summary: 'Delete a file',
    description: 'A file that was the current release stops being offered as the update.',
    params: appFileParamsSchema,
    responses: { 200: ok(deletedResponseSchema) },
  },
  'POST /api/applications/:id/imports': {
    caller: 'owner',
    tag: 'Applications',
    summary: 'Upload a KeyAuth export and preview its import',
    description:
      'The body is the export file\u2019s bytes (`Content-Type: application/octet-stream`): KeyAuth\u2019s users or keys JSON, a CSV of its table, or a text file of keys; `source=keyauth` and `kind=users|keys` are query parameters. Nothing is imported yet: the answer counts the rows, the conflicts (usernames or keys the application already has, skipped when run) and the unreadable rows, with their row numbers (the first 100 of each), and lists the KeyAuth levels to map to plans. A file that cannot be read at all is a 400; larger than 64 MiB is a 413.',
    params: applicationParamsSchema,
    query: createImportQuerySchema,
    body: z.string().meta({ format: 'binary' }),
    bodyMediaType: 'application/octet-stream',
    responses: { 201: ok(importProgressSchema, 'Previewed.') },
    errors: [413],
  },
  'POST /api/applications/:id/imports/:importId/start': {
    caller: 'owner',
    tag: 'Applications',
    summary: 'Start (or resume) a previewed KeyAuth import',
    description:
      '`levelPlans` maps KeyAuth levels to plans of the application: every level of a keys import must be mapped; a mapped level of a users import grants that plan until the KeyAuth expiry. Answers 202 with the progress at once; the rows are written in batches of 1000, each in one transaction. A failed import, or one whose server stopped, continues with the rows not yet done; a done import is answered as it is and imports nothing twice; one still running is a 409.',
    params: importParamsSchema,
    body: startImportRequestSchema,
    responses: { 202: ok(importProgressSchema, 'Started.') },
    errors: [409],
  },
  'GET /api/applications/:id/imports/:importId': {
    caller: 'owner',
    tag: 'Applications',
    summary: 'The preview or progress of a KeyAuth import',
    description: '`doneRows` of `readableRows` is the progress.',
    params: importParamsSchema,
    responses: { 200: ok(importProgressSchema) },
  },
  'GET /api/applications/:id/plans': {
    caller: 'owner',
    tag: 'Plans',
    summary: 'List an application\u2019s plans, archived ones included, by name',
    params: applicationParamsSchema,
    responses: { 200: ok(planListSchema) },
  },
  'POST /api/applications/:id/plans': {
    caller: 'owner',
    tag: 'Plans',
    summary: 'Create a plan',
    description:
      'Entitlement codes are deduplicated and sorted. A name the application already has is a 409.',
    params: applicationParamsSchema,
    body: createPlanRequestSchema,
    responses: { 201: ok(planSchema, 'Created.') },
    errors: [409],
  },
  'PUT /api/applications/:id/plans/:planId': {
    caller: 'owner',
    tag: 'Plans',
    summary: 'Update or archive a plan',
    description: 'Absent fields stay as they are. An archived plan gets no new keys.',
    params: planParamsSchema,
    body: updatePlanRequestSchema,
    responses: { 200: ok(planSchema) },
    errors: [409],
  },
  'DELETE /api/applications/:id/plans/:planId': {
    caller: 'owner',
    tag: 'Plans',
    summary: 'Delete a plan',
    description: 'A plan that licence keys or subscriptions use is a 409: archive it instead.',
    params: planParamsSchema,
    responses: { 200: ok(deletedResponseSchema) },
    errors: [409],
  },

  'POST /api/applications/:id/plans/:planId/delete-unused': {
    caller: 'owner',
    tag: 'Licences',
    summary: 'Delete every unused key of a plan',
    description: 'Unused keys past their redeem-by date included. Answers how many went.',
    params: planParamsSchema,
    responses: { 200: ok(deletedUnusedLicensesSchema) },
  },

  'GET /api/applications/:id/licenses': {
    caller: 'owner',
    tag: 'Licences',
    summary: 'List licence keys',
    description:
      '`key` is the display form (all but the last four characters hidden). `search` matches a whole key, its last four characters, the note or the username of whoever used it.',
    params: applicationParamsSchema,
    query: licenseListQuerySchema,
    responses: { 200: paged(licenseListSchema, 'Licence keys, newest first.') },
  },
  'POST /api/applications/:id/licenses': {
    caller: 'owner',
    tag: 'Licences',
    summary: 'Generate licence keys',
    description:
      'Each `X` of the mask is a random character of the case\u2019s alphabet (at least 80 bits in all, else 400). The answer holds the whole keys. An archived plan is a 409.',
    params: applicationParamsSchema,
    body: generateLicensesRequestSchema,
    responses: { 201: ok(generatedLicensesSchema, 'Created.') },
    errors: [409],
  },
  'GET /api/applications/:id/licenses/export.csv': {
    caller: 'owner',
    tag: 'Licences',
    summary: 'Export licence keys as CSV',
    description: 'The same filters as the list; the whole keys, newest first, streamed.',
    params: applicationParamsSchema,
    query: licenseListQuerySchema,
    responses: { 200: { description: 'CSV with a header row.', mediaType: 'text/csv' } },
  },
  'GET /api/applications/:id/licenses/:licenseId/key': {
    caller: 'owner',
    tag: 'Licences',
    summary: 'Reveal the whole text of a licence key',
    params: licenseParamsSchema,
    responses: { 200: ok(revealedLicenseSchema) },
  },
  'POST /api/applications/:id/licenses/:licenseId/ban': {
    caller: 'owner',
    tag: 'Licences',
    summary: 'Ban a licence key',
    description:
      'An unused key can no longer be redeemed; a used key\u2019s grant is taken back from the subscription it extended. Banning a banned key only updates the reason.',
    params: licenseParamsSchema,
    body: banLicenseRequestSchema,
    responses: { 200: ok(licenseSchema) },
  },
  'POST /api/applications/:id/licenses/:licenseId/unban': {
    caller: 'owner',
    tag: 'Licences',
    summary: 'Lift a licence key\u2019s ban',
    description: 'A used key\u2019s grant is given again. A key not banned is left as it is.',
    params: licenseParamsSchema,
    responses: { 200: ok(licenseSchema) },
  },
  'DELETE /api/applications/:id/licenses/:licenseId': {
    caller: 'owner',
    tag: 'Licences',
    summary: 'Delete a licence key',
    params: licenseParamsSchema,
    responses: { 200: ok(deletedResponseSchema) },
  },

  'GET /api/applications/:appId/users/:userId/subscriptions': {
    caller: 'owner',
    tag: 'Licences',
    summary: 'List an end user\u2019s subscriptions',
    params: appUserParamsSchema,
    responses: { 200: ok(subscriptionListSchema) },
  },
  'POST /api/applications/:appId/users/:userId/subscriptions': {
    caller: 'owner',
    tag: 'Licences',
    summary: 'Grant a plan to an end user',
    description:
      'Without `expiresAt`, for the plan\u2019s duration from now. Answers the user\u2019s subscriptions. A plan the user holds is a 409.',
    params: appUserParamsSchema,
    body: grantSubscriptionRequestSchema,
    responses: { 201: ok(subscriptionListSchema, 'Created.') },
    errors: [409],
  },
  'PUT /api/applications/:appId/users/:userId/subscriptions/:subscriptionId': {
    caller: 'owner',
    tag: 'Licences',
    summary: 'Extend or shorten a subscription',
    params: subscriptionParamsSchema,
    body: updateSubscriptionRequestSchema,
    responses: { 200: ok(subscriptionListSchema) },
  },
  'DELETE /api/applications/:appId/users/:userId/subscriptions/:subscriptionId': {
    caller: 'owner',
    tag: 'Licences',
    summary: 'Remove a subscription',
    params: subscriptionParamsSchema,
    responses: { 200: ok(subscriptionListSchema) },
  },

  'GET /api/blacklist': {
    caller: 'owner',
    tag: 'Blacklist',
    summary: 'List blacklist entries',
    query: blacklistListQuerySchema,
    responses: { 200: paged(blacklistEntryListSchema, 'Entries, newest first.') },
  },
  'POST /api/blacklist': {
    caller: 'owner',
    tag: 'Blacklist',
    summary: 'Add a blacklist entry',
    body: createBlacklistEntryRequestSchema,
    responses: { 201: ok(blacklistEntrySchema, 'Created.') },
    errors: [404, 409],
  },
  'DELETE /api/blacklist/:entryId': {
    caller: 'owner',
    tag: 'Blacklist',
    summary: 'Remove a blacklist entry',
    params: blacklistEntryParamsSchema,
    responses: { 200: ok(deletedResponseSchema) },
  },

  'GET /api/activity-logs': {
    caller: 'owner',
    tag: 'Activity',
    summary: 'One page of the activity log, newest first, filtered and searched',
    query: activityLogsQuerySchema,
    responses: { 200: paged(activityLogListSchema, 'Activity-log rows, newest first.') },
    errors: [404],
  },
  'GET /api/activity-logs/stats': {
    caller: 'owner',
    tag: 'Activity',
    summary: 'Totals over every activity-log row the same filters match',
    query: activityLogStatsQuerySchema,
    responses: { 200: ok(activityLogStatsSchema) },
    errors: [404],
  },

  'GET /api/events': {
    caller: 'owner',
    tag: 'Dashboard',
    summary: 'The console\u2019s live stream of the account\u2019s events',
    description:
      'Server-Sent Events. Each message\u2019s `event` is `activity` (a new activity-log row, as the log lists it), `stats` (an application\u2019s numbers moved), `app_user` or `application` (created, updated or deleted in a console), or `bulk_progress` (where a bulk action stands); its `data` is JSON naming what changed (`OwnerEvent` in the contracts). A comment line every 25 s keeps it open. Only the signed-in account\u2019s events; at most `SSE_MAX_CONNECTIONS_PER_ACCOUNT` streams per account on one instance (the next is 429); a reader that falls more than 1 MiB behind is disconnected.',
    responses: { 200: { description: 'An endless event stream.', mediaType: 'text/event-stream' } },
    errors: [429],
  },

  'GET /api/webhooks': {
    caller: 'owner',
    tag: 'Webhooks',
    summary: 'List webhooks',
    responses: { 200: ok(webhookListSchema) },
  },
  'POST /api/webhooks': {
    caller: 'owner',
    tag: 'Webhooks',
    summary: 'Create a webhook',
    body: createWebhookRequestSchema,
    responses: { 201: ok(webhookSchema, 'Created.') },
    errors: [404],
  },
  'PUT /api/webhooks/:id': {
    caller: 'owner',
    tag: 'Webhooks',
    summary: 'Update a webhook',
    params: webhookParamsSchema,
    body: updateWebhookRequestSchema,
    responses: { 200: ok(webhookSchema) },
  },
  'DELETE /api/webhooks/:id': {
    caller: 'owner',
    tag: 'Webhooks',
    summary: 'Delete a webhook',
    params: webhookParamsSchema,
    responses: { 200: ok(deletedResponseSchema) },
  },
  'GET /api/webhooks/:id/secret': {
    caller: 'owner',
    tag: 'Webhooks',
    summary: 'Reveal a webhook\u2019s signing secret',
    params: webhookParamsSchema,
    responses: { 200: ok(webhookSecretResponseSchema) },
  },
  'GET /api/webhooks/:id/deliveries': {
    caller: 'owner',
    tag: 'Webhooks',
    summary: 'A webhook\u2019s delivery log',
    params: webhookParamsSchema,
    query: webhookDeliveryListQuerySchema,
    responses: { 200: paged(z.array(webhookDeliverySchema), 'Deliveries, newest first.') },
  },
  'POST /api/webhooks/:id/deliveries/:deliveryId/retry': {
    caller: 'owner',
    tag: 'Webhooks',
    summary: 'Send a delivery again (409 while an attempt is in flight)',
    params: webhookDeliveryParamsSchema,
    responses: { 200: ok(webhookDeliverySchema) },
    errors: [409],
  },
  'POST /api/test-webhook': {
    caller: 'owner',
    tag: 'Webhooks',
    summary: 'Queue a sample event to the owner\u2019s webhooks',
    body: testWebhookRequestSchema,
    responses: { 200: ok(testWebhookResponseSchema) },
  },

  'GET /api/samples/:language': {
    caller: 'owner',
    tag: 'Samples',
    summary: 'The bare sample template of a language',
    params: defaultSampleParamsSchema,
    responses: { 200: ok(sampleSchema) },
  },
  'GET /api/applications/:id/samples/:language': {
    caller: 'owner',
    tag: 'Samples',
    summary: 'A sample rendered for an application (or the owner\u2019s saved edit)',
    params: sampleParamsSchema,
    responses: { 200: ok(sampleSchema) },
  },
  'PUT /api/applications/:id/samples/:language': {
    caller: 'owner',
    tag: 'Samples',
    summary: 'Save an edited sample',
    params: sampleParamsSchema,
    body: saveSampleRequestSchema,
    responses: { 200: ok(sampleSchema) },
  },
  'DELETE /api/applications/:id/samples/:language': {
    caller: 'owner',
    tag: 'Samples',
    summary: 'Reset a sample to the rendered default',
    params: sampleParamsSchema,
    responses: { 200: ok(sampleSchema, 'The sample as it is now: the rendered default.') },
  },

  'GET /api/code-files': {
    caller: 'owner',
    tag: 'Code editor',
    summary: 'The account\u2019s reference documents, without their text',
    responses: { 200: ok(codeFileListSchema) },
  },
  'GET /api/code-files/:name': {
    caller: 'owner',
    tag: 'Code editor',
    summary: 'One reference document',
    params: codeFileParamsSchema,
    responses: { 200: ok(codeFileSchema) },
  },
  'PUT /api/code-files/:name': {
    caller: 'owner',
    tag: 'Code editor',
    summary: 'Save a reference document as its next version',
    params: codeFileParamsSchema,
    body: saveCodeFileRequestSchema,
    responses: { 200: ok(codeFileSchema) },
    errors: [409],
  },
  'GET /api/code-files/:name/versions': {
    caller: 'owner',
    tag: 'Code editor',
    summary: 'A reference document\u2019s kept versions, newest first',
    params: codeFileParamsSchema,
    responses: { 200: ok(codeFileVersionListSchema) },
  },
  'POST /api/code-files/:name/versions/:versionId/restore': {
    caller: 'owner',
    tag: 'Code editor',
    summary: 'Make a kept version the document\u2019s next version',
    params: codeFileVersionParamsSchema,
    responses: { 200: ok(codeFileSchema) },
  },

  'GET /api/api-tokens': {
    caller: 'owner',
    tag: 'API tokens',
    summary: 'List the account\u2019s management API tokens (never their text)',
    responses: { 200: ok(apiTokenListSchema) },
  },
  'POST /api/api-tokens': {
    caller: 'owner',
    tag: 'API tokens',
    summary: 'Create a management API token',
    description:
      'The answer carries the token\u2019s text in `token`: the only time it is shown. Only a keyed digest is stored.',
    body: createApiTokenRequestSchema,
    responses: { 201: ok(createdApiTokenSchema, 'Created.') },
    errors: [404],
  },
  'DELETE /api/api-tokens/:id': {
    caller: 'owner',
    tag: 'API tokens',
    summary: 'Revoke a management API token (refused everywhere at once)',
    params: apiTokenParamsSchema,
    responses: { 200: ok(deletedResponseSchema) },
  },

  'GET /api/admin/users': {
    caller: 'owner',
    tag: 'Administration',
    summary: 'List the site\u2019s accounts',
    query: adminUserListQuerySchema,
    responses: { 200: paged(z.array(adminUserSchema), 'Accounts.') },
  },
  'PATCH /api/admin/users/:id': {
    caller: 'owner',
    tag: 'Administration',
    summary: 'Change an account\u2019s role, permissions or active flag',
    params: adminUserParamsSchema,
    body: updateAdminUserRequestSchema,
    responses: { 200: ok(adminUserSchema) },
  },
  'DELETE /api/admin/users/:id': {
    caller: 'owner',
    tag: 'Administration',
    summary: 'Delete an account and everything it owns',
    params: adminUserParamsSchema,
    responses: { 200: ok(deletedResponseSchema) },
  },
  'GET /api/admin/audit': {
    caller: 'owner',
    tag: 'Administration',
    summary: 'The audit trail, newest first',
    query: auditListQuerySchema,
    responses: { 200: paged(z.array(auditEntrySchema), 'Audit entries.') },
  },
  'GET /api/admin/overview': {
    caller: 'owner',
    tag: 'Administration',
    summary: 'Every account of the site, counts only',
    query: siteOverviewQuerySchema,
    responses: { 200: paged(z.array(siteOverviewRowSchema), 'One row per account.') },
  },

  ...managementRouteContracts,
};
