import type { ClientCallEntry } from '@latchkey/contracts';
import type { z } from 'zod';
import { ok, type RouteContract } from '../../http/route-contract.ts';
import { parseClientInput } from './client-api-error.ts';
import type { ClientCallServices } from './client-call-services.ts';
import type { ClientCallRequest, ClientCaller } from './client-caller.ts';

/** How the pipeline finds the caller of a call, for the definitions' `run`. */
export interface CallerFinder {
  /** The identified application's caller; a 401 when the API key named none. */
  callerOf(request: ClientCallRequest): ClientCaller;
  /** Login's: the header's application, else the one the body's `api_key` names. */
  callerWithBodyKey(request: ClientCallRequest, bodyApiKey: string | null): Promise<ClientCaller>;
}

/**
 * What the server adds to a catalogue entry for the OpenAPI document: its summary and
 * description there, and what its 200 answer means.
 */
export interface ClientCallDocs {
  summary: string;
  description?: string;
  answered?: string;
}

/** A call that needs an application answers 401 without a known API key. */
const IDENTIFIED_CALL_ERRORS: RouteContract['errors'] = [401];

interface ClientCallOptions {
  /**
   * The body, in bytes, the call must accept even beyond the server's own limit; its limit is
   * the larger of the two, so an operator's raised limit still holds.
   */
  bodyLimit?: number;
  /**
   * Answered by the lean path when the request is the common one (the application cached, a
   * JSON body of stated length): the calls a program makes every few seconds.
   */
  isLean?: boolean;
}

type Parsed<Request> = Request extends z.ZodType ? z.output<Request> : undefined;
/** A call's input: the body's fields, and its path's parameters where it has any. */
type Input<Request, Params> = Params extends z.ZodObject
  ? Parsed<Request> & z.output<Params>
  : Parsed<Request>;

/** A call as the pipeline holds it: method, path and contract, its verb folded into `run`. */
export interface ClientCallDefinition extends ClientCallOptions {
  method: ClientCallEntry['method'];
  /** The full path, `/api/v1/...`: also the metrics' route label. */
  url: ClientCallEntry['path'];
  contract: RouteContract;
  /**
   * Checks the body against the contract (a 400 in the v1 shape), finds the caller, then runs
   * the verb. Throws synchronously when the body or the caller is refused.
   */
  run(
    body: unknown,
    request: ClientCallRequest,
    callers: CallerFinder,
    services: ClientCallServices,
  ): Promise<object>;
}

/**
 * Declares one client call on its catalogue entry (method, path, schemas). The order inside
 * `run` is the contract's: the body is checked before the API key, so a malformed body is a
 * 400 even without a key.
 */
export function clientCall<
  Request extends z.ZodType | null,
  Params extends z.ZodObject | undefined = undefined,
>(
  entry: ClientCallEntry & { request: Request; params?: Params },
  spec: ClientCallOptions & {
    docs: ClientCallDocs;
    /**
     * Login only: the API key the body may carry instead of the header (the header, when
     * sent, decides).
     */
    bodyApiKey?: (input: Input<Request, Params>) => string | null;
    answer(
      input: Input<Request, Params>,
      caller: ClientCaller,
      services: ClientCallServices,
    ): Promise<object>;
  },
): ClientCallDefinition {
  const { docs, bodyApiKey, answer, ...options } = spec;
  const schema = entry.request;
  const paramsSchema = entry.params;
  const parse = (body: unknown, request: ClientCallRequest) => {
    const input = schema === null ? undefined : parseClientInput(schema, body);
    // A path's parameters (the meter's name) join the body's fields in the verb's input.
    if (paramsSchema === undefined) return input as Input<Request, Params>;
    return {
      ...(input as object),
      ...parseClientInput(paramsSchema, request.params),
    } as Input<Request, Params>;
  };
  const run: ClientCallDefinition['run'] = bodyApiKey
    ? async (body, request, callers, services) => {
        const input = parse(body, request);
        return answer(input, await callers.callerWithBodyKey(request, bodyApiKey(input)), services);
      }
    : (body, request, callers, services) =>
        answer(parse(body, request), callers.callerOf(request), services);
  return { ...options, ...definitionOf(entry, docs, IDENTIFIED_CALL_ERRORS), run };
}

/** Declares a call that needs no application: it answers the same to every program. */
export function openClientCall(
  entry: ClientCallEntry & { request: null },
  spec: { docs: ClientCallDocs; answer(services: ClientCallServices): object },
): ClientCallDefinition {
  return {
    ...definitionOf(entry, spec.docs, undefined),
    run: (_body, _request, _callers, services) => Promise.resolve(spec.answer(services)),
  };
}

const definitionOf = (
  { method, path, params, request, response }: ClientCallEntry,
  { summary, description, answered }: ClientCallDocs,
  errors: RouteContract['errors'],
) => ({
  method,
  url: path,
  contract: {
    caller: 'client',
    tag: 'Client API',
    summary,
    ...(description === undefined ? {} : { description }),
    ...(params === undefined ? {} : { params }),
    ...(request === null ? {} : { body: request }),
    responses: { 200: ok(response, answered) },
    ...(errors === undefined ? {} : { errors }),
  } satisfies RouteContract,
});
