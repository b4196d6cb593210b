import { z } from 'zod';
import {
  clientFileRequestSchema,
  clientFileResponseSchema,
  clientDeviceResetRequestSchema,
  clientDeviceResetResponseSchema,
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
  clientSetUserVariableRequestSchema,
  clientUserVariableRequestSchema,
  clientVariableRequestSchema,
  clientVariableResponseSchema,
} from '@latchkey/contracts';

import { ok, type RouteContract } from './route-contract.ts';

export {
  routeTags,
  type ResponseContract,
  type RouteCaller,
  type RouteContract,
  type RouteTag,
} from './route-contract.ts';

/** What GET /api/openapi.json answers, as far as a check needs (the rest is OpenAPI's own). */
const openApiDocumentSchema = z
  .looseObject({
    openapi: z.literal('3.1.0'),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    paths: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'OpenApiDocument' });

/**
 * The contracts of the routes no module defines with routeDefiner: the client API's calls,
 * which its own request pipeline registers, and the API reference, which its plugin serves.
 * Keyed `METHOD /path` as registered; route-table.ts adds every module's definitions to them.
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
};
