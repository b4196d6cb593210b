import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { parseInput } from './parse-input.ts';
import type { RouteContract } from './route-contract.ts';
import type { RoutePermission } from './route-permission.ts';

export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

type Parsed<Schema> = Schema extends z.ZodType ? z.output<Schema> : undefined;

/** What a handler is given: the request's inputs already checked against the route's schemas. */
export interface RouteInput<Params, Query, Body> {
  params: Parsed<Params>;
  query: Parsed<Query>;
  body: Parsed<Body>;
  request: FastifyRequest;
  reply: FastifyReply;
}

/**
 * One route, declared once beside its module: its method and path, its contract (schemas,
 * answers, the OpenAPI text), what an owner needs to call it, and its handler. Everything else
 * that needs a route (the Fastify route, the owner guard's permission check, the OpenAPI
 * document, the answer checks, the fuzz and security suites) reads it from the definition.
 */
export interface RouteDefinition<
  Params extends z.ZodObject | undefined = z.ZodObject | undefined,
  Query extends z.ZodObject | undefined = z.ZodObject | undefined,
  Body extends z.ZodType | undefined = z.ZodType | undefined,
  Services = never,
> extends Omit<RouteContract, 'params' | 'query' | 'body'> {
  method: RouteMethod;
  path: string;
  params?: Params;
  query?: Query;
  body?: Body;
  /** Owner routes: what the signed-in account must hold, checked before the handler runs. */
  permission?: RoutePermission;
  /**
   * The body, in bytes, the route must accept even beyond the server's own limit; the route's
   * limit is the larger of the two, so an operator's raised limit still holds.
   */
  bodyLimit?: number;
  /**
   * Answers the request: a value is sent as JSON with status 200, or the handler sends on
   * `reply` itself (another status, another media type). `services` are what the composition
   * root gives the module's routes when it registers them.
   */
  handle(input: RouteInput<Params, Query, Body>, services: Services): unknown;
}

/**
 * A module's definer: `const defineRoute = routeDefiner<PlanServices>()` types the services
 * every handler of the module is given, and each definition's inputs from its own schemas.
 * At run time a definition is the object written.
 */
export function routeDefiner<Services = never>() {
  return <
    Params extends z.ZodObject | undefined = undefined,
    Query extends z.ZodObject | undefined = undefined,
    Body extends z.ZodType | undefined = undefined,
  >(
    definition: RouteDefinition<Params, Query, Body, Services>,
  ): RouteDefinition<Params, Query, Body, Services> => definition;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The definition a route was registered from, for the hooks that read it (the guards). */
    definition?: RouteDefinition;
  }
}

/** The key tests and tables use for a route: `METHOD /path`, the path as registered. */
export const routeKeyOf = (definition: Pick<RouteDefinition, 'method' | 'path'>) =>
  `${definition.method} ${definition.path}`;

/** A definition's contract: what the OpenAPI document and the answer checks read. */
export function contractOf(definition: RouteDefinition): RouteContract {
  const {
    method: _method,
    path: _path,
    permission: _permission,
    bodyLimit: _bodyLimit,
    handle: _handle,
    ...contract
  } = definition;
  return contract as RouteContract;
}

/**
 * Registers each definition in `scope`: its inputs parsed with its schemas (the first problem
 * is the 400's message), in the order params, query, body, then its handler called with
 * `services`. A definition's path is the whole API's (the key every table knows it by), so in
 * a scope with a prefix it is registered relative to that prefix.
 */
export function registerRoutes<Services>(
  scope: FastifyInstance,
  definitions: readonly RouteDefinition<
    z.ZodObject | undefined,
    z.ZodObject | undefined,
    z.ZodType | undefined,
    Services
  >[],
  services: Services,
): void {
  for (const definition of definitions) {
    const { params, query, body } = definition;
    // A raw-bytes body (an upload) is the handler's to read.
    const jsonBody = definition.bodyMediaType ? undefined : body;
    if (!definition.path.startsWith(scope.prefix)) {
      throw new Error(`${routeKeyOf(definition)} is not under its scope's prefix ${scope.prefix}`);
    }
    scope.route({
      method: definition.method,
      url: definition.path.slice(scope.prefix.length),
      ...(definition.bodyLimit === undefined
        ? {}
        : { bodyLimit: Math.max(definition.bodyLimit, scope.initialConfig.bodyLimit ?? 0) }),
      config: { definition: definition as RouteDefinition },
      handler: async (request, reply) =>
        definition.handle(
          {
            params: params ? parseInput(params, request.params) : undefined,
            query: query ? parseInput(query, request.query) : undefined,
            body: jsonBody ? parseInput(jsonBody, request.body) : undefined,
            request,
            reply,
          },
          services,
        ),
    });
  }
}

/**
 * `definitions` to register with their inputs left to their handlers, for routes whose checks
 * must come before any input is read (a foreign Origin is a 403 whatever the body says): the
 * handler parses each input itself, after those checks. The definitions themselves keep their
 * schemas, so the contract and the tests still read them.
 */
export function withInputsLeftToHandlers<Services>(
  definitions: readonly RouteDefinition<
    z.ZodObject | undefined,
    z.ZodObject | undefined,
    z.ZodType | undefined,
    Services
  >[],
) {
  return definitions.map(
    ({ params: _params, query: _query, body: _body, ...definition }) => definition,
  );
}
