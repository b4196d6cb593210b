import type { z } from 'zod';
import { pagingResponseHeadersSchema, type ApiTokenScope } from '@latchkey/contracts';

/*
 * What a route's contract is: who calls it, its schemas and its answers. Each module's route
 * definitions carry theirs (route-definition.ts); route-table.ts gathers them for the whole API.
 */

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
  {
    name: 'Mail',
    description:
      'Owner API: the mail an application sends its end users (password resets): the log, a message opened, a failed one sent again.',
  },
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
    name: 'Shops',
    description:
      'Owner API: shop connections (Stripe, Lemon Squeezy, Paddle, Gumroad, Sellix, SellApp) and the orders they sent; and each connection\u2019s URL, which its shop calls with signed events.',
  },
  {
    name: 'KeyAuth-compatible API',
    description:
      'For programs built on KeyAuth\u2019s own client libraries: form fields (`type`, `name`, `ownerid`, later `sessionid`) posted (or sent as a query) to `/api/1.2/` or `/api/1.3/`, answered in KeyAuth\u2019s shapes and signatures, every outcome an HTTP 200. docs/keyauth-migration.md has the request types and what differs from KeyAuth.',
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
    | 'text/plain'
    | 'application/octet-stream';
  /** A JSON body of another JSON media type (the management API's problem details). */
  jsonMediaType?: 'application/problem+json';
  /**
   * Exact bodies sent as text/plain instead of the JSON `schema` (KeyAuth's bare
   * `KeyAuth_Invalid`, which KeyAuth's clients compare byte for byte).
   */
  plainTexts?: readonly string[];
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
  /**
   * A body that is not JSON (a file upload: its raw bytes; KeyAuth's form fields); `body` is
   * then its schema, read by the handler.
   */
  bodyMediaType?: 'application/octet-stream' | 'application/x-www-form-urlencoded';
  /** The answers of the route itself; the errors every route of its caller shares are added by documentedResponses. */
  responses: Record<number, ResponseContract>;
  /**
   * 'problem': errors are RFC 9457 problem details (application/problem+json), for a public
   * route whose callers are other services' machines (a shop), as the management API's are.
   */
  errorBody?: 'problem';
  /** Error statuses of this route beyond those every route of its caller has. */
  errors?: readonly (401 | 403 | 404 | 409 | 410 | 413 | 416 | 422 | 429)[];
  /**
   * Management API routes only: the token scope the route needs, and the console route doing
   * the same thing, whose permission the token's creator must hold.
   */
  management?: { scope: ApiTokenScope; sameAs: string };
}

/** A JSON answer of `schema`. */
export const ok = (
  schema: z.ZodType,
  description = 'Success.',
  headers?: z.ZodObject,
): ResponseContract => ({ description, schema, ...(headers ? { headers } : {}) });

/** One page of a list: the body is the page, the paging headers carry the total. */
export const paged = (schema: z.ZodType, description: string): ResponseContract =>
  ok(
    schema,
    `${description} The body is one page; the paging headers carry the total.`,
    pagingResponseHeadersSchema,
  );
