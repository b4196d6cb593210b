import type { FastifyBaseLogger } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import type { ClientApplication } from './client-app-cache.ts';

/**
 * One client call as it travels the pipeline: the application the API key identified (null
 * when none; login may still find it in its body), the client's normalised address, the
 * request's logger and headers, and the origin the client reached us by. A Fastify request
 * is one; the lean path makes a small one of its own.
 */
export interface ClientCallRequest {
  clientApp: ClientApplication | null;
  clientIp: string;
  log: FastifyBaseLogger;
  headers: IncomingHttpHeaders;
  /** The path's parameters, for the calls whose path has any (Fastify's request has them). */
  readonly params?: unknown;
  readonly protocol: string;
  readonly host: string;
}

/** Who made a call, as the verbs need it: the application is known by now. */
export interface ClientCaller {
  application: ClientApplication;
  ipAddress: string;
  log: FastifyBaseLogger;
  request: ClientCallRequest;
}
