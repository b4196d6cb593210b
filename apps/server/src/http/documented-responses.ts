import type { z } from 'zod';
import {
  clientErrorResponseSchema,
  clientRetryAfterHeadersSchema,
  clientSignatureHeadersSchema,
  errorBodySchema,
  problemHeadersSchema,
  problemSchema,
  rateLimitedHeadersSchema,
  rateLimitHeadersSchema,
  unavailableHeadersSchema,
} from '@latchkey/contracts';
import type { ResponseContract, RouteContract } from './route-contract.ts';

const errorDescriptions: Record<number, string> = {
  400: 'Malformed request: invalid JSON, wrong types, values too long, text that is not valid Unicode.',
  401: 'Not signed in, or the session expired.',
  403: 'Refused: a foreign Origin, an x-account-id that is not the session\u2019s, or a missing permission.',
  404: 'Not found (or not the caller\u2019s).',
  409: 'Conflicts with what exists.',
  410: 'LINK_INVALID: the mailed link expired, was used, or never existed (one answer for all three).',
  413: 'Request body too large.',
  415: 'Unsupported content type: send application/json (application/octet-stream for an upload).',
  416: 'Range not satisfiable.',
  429: 'Too many requests.',
  500: 'Internal error; the details are in the server log, never in the body.',
  503: 'UNAVAILABLE: the database could not be reached for a moment (a restart, a failover); retry after Retry-After seconds.',
};

const clientErrorDescriptions: Record<number, string> = {
  400: 'INVALID_REQUEST: malformed JSON, wrong types, oversized values, a bad X-Request-Nonce.',
  401: 'INVALID_API_KEY: the API key is missing or unknown.',
  413: 'INVALID_REQUEST: request body too large.',
  429: 'RATE_LIMITED: too many requests or failed logins; wait Retry-After seconds.',
  500: 'INTERNAL_ERROR: a server fault; treat it like a network error.',
  503: 'INTERNAL_ERROR: the database could not be reached for a moment; retry after Retry-After seconds.',
};

const bodyMethods = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Every answer a route may give, by status: its own, plus the errors every route of its caller
 * shares (the owner guard's 401 and 403, the body parser's 400, 413 and 415, the client API's
 * 429). The OpenAPI document and the tests' response check both read this, so what is
 * documented is what is checked.
 */
export function documentedResponses(
  routeKey: string,
  contract: RouteContract,
): Record<number, ResponseContract> {
  const method = routeKey.split(' ')[0]!;
  const statuses = new Set<number>([400, 500, 503, ...(contract.errors ?? [])]);
  if (bodyMethods.has(method)) statuses.add(413);
  if (contract.caller === 'client') {
    statuses.add(429);
    const responses: Record<number, ResponseContract> = {};
    for (const [status, response] of Object.entries(contract.responses)) {
      responses[Number(status)] = { ...response, headers: clientSignatureHeadersSchema };
    }
    for (const status of statuses) {
      responses[status] = errorResponse(
        clientErrorDescriptions[status]!,
        clientErrorResponseSchema,
        status === 429 || status === 503
          ? clientRetryAfterHeadersSchema
          : clientSignatureHeadersSchema,
      );
    }
    return responses;
  }
  if (bodyMethods.has(method)) statuses.add(415);
  if (contract.caller === 'manage') return managementResponses(method, contract, statuses);
  if (contract.caller === 'owner') {
    statuses.add(401);
    statuses.add(403);
    if (contract.params) statuses.add(404);
  }
  if (contract.caller === 'portal') {
    // No session (or it ended), a foreign Origin or a refusal, an unknown portal, a throttle.
    for (const status of [401, 403, 404, 429]) statuses.add(status);
  }
  const responses: Record<number, ResponseContract> = { ...contract.responses };
  if (contract.errorBody === 'problem') {
    for (const status of statuses) {
      responses[status] = {
        description: errorDescriptions[status]!,
        schema: problemSchema,
        jsonMediaType: 'application/problem+json',
        ...(status === 503 ? { headers: unavailableHeadersSchema } : {}),
      };
    }
    return responses;
  }
  for (const status of statuses) {
    responses[status] = errorResponse(
      errorDescriptions[status]!,
      errorBodySchema,
      status === 503 ? unavailableHeadersSchema : undefined,
    );
  }
  return responses;
}

const managementErrorDescriptions: Record<number, string> = {
  ...errorDescriptions,
  401: 'TOKEN_INVALID: no bearer token, or it is unknown, revoked or expired.',
  403: 'IP_NOT_ALLOWED, SCOPE_MISSING (naming the scope) or PERMISSION_MISSING (the creator no longer holds the permission).',
  404: 'NOT_FOUND: not there, or outside the token\u2019s applications or owner.',
  422: 'IDEMPOTENCY_KEY_REUSED: the Idempotency-Key was used with another body.',
  429: 'RATE_LIMITED: the token\u2019s calls a minute are spent; wait Retry-After seconds.',
};

/** The management API's answers: its own with the rate-limit headers, errors as problems. */
function managementResponses(
  method: string,
  contract: RouteContract,
  statuses: Set<number>,
): Record<number, ResponseContract> {
  for (const status of [401, 403, 429]) statuses.add(status);
  if (contract.params) statuses.add(404);
  // Idempotency-Key: still running (409), or used with another request (422).
  if (method === 'POST') for (const status of [409, 422]) statuses.add(status);
  const responses: Record<number, ResponseContract> = {};
  for (const [status, response] of Object.entries(contract.responses)) {
    responses[Number(status)] = {
      ...response,
      headers: response.headers
        ? response.headers.extend(rateLimitHeadersSchema.shape)
        : rateLimitHeadersSchema,
    };
  }
  for (const status of statuses) {
    responses[status] = {
      description: managementErrorDescriptions[status]!,
      schema: problemSchema,
      jsonMediaType: 'application/problem+json',
      headers: status === 429 || status === 503 ? rateLimitedHeadersSchema : problemHeadersSchema,
    };
  }
  return responses;
}

const errorResponse = (
  description: string,
  schema: z.ZodType,
  headers?: z.ZodObject,
): ResponseContract => ({ description, schema, ...(headers ? { headers } : {}) });
