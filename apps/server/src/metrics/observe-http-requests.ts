import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onResponseHookHandler,
  RouteOptions,
} from 'fastify';
import type { HistogramCell, HotPathHistogram } from './hot-path-histogram.ts';

/** The route label of requests no route matched (unknown paths, the console's own pages). */
export const UNMATCHED_ROUTE = 'unmatched';

const STATUS_CLASSES = ['', '1xx', '2xx', '3xx', '4xx', '5xx'];

type Observe = (request: FastifyRequest, reply: FastifyReply) => void;

/**
 * Times every request into `histogram` by route pattern (`/api/applications/:id`, never the
 * raw path, so the series stay few), method and status class. Each route gets its own
 * onResponse hook holding its cells, so a request pays one small lookup by method and
 * status class and one observe of `reply.elapsedTime`: no label hashing, no route lookup.
 * Call before any route is registered (the onRoute hook sees only later routes).
 */
export function observeHttpRequests(
  app: FastifyInstance,
  histogram: HotPathHistogram,
): UnmatchedObserver {
  const observerFor = (route: string): Observe => {
    const observe = createRouteObserver(histogram, route);
    return (request, reply) => observe(request.method, reply.statusCode, reply.elapsedTime);
  };

  app.addHook('onRoute', (route: RouteOptions) => {
    const observe = observerFor(route.url);
    const hook: onResponseHookHandler = (request, reply, done) => {
      observe(request, reply);
      done();
    };
    const existing = route.onResponse;
    route.onResponse = existing
      ? [...(Array.isArray(existing) ? existing : [existing]), hook]
      : [hook];
  });

  // Not-found handlers are no route: onRoute never sees them. No app-wide hook either (it
  // would run on every client-API request): each scope takes one of these.
  const observeUnmatched = observerFor(UNMATCHED_ROUTE);
  return {
    hook: (request, reply, done) => {
      if (request.is404) observeUnmatched(request, reply);
      done();
    },
    onFinish: (request, reply) => {
      reply.raw.once('finish', () => observeUnmatched(request, reply));
    },
  };
}

/** Times one request of a route: a lookup by method and status class, one observe. */
export type RouteObserver = (method: string, statusCode: number, elapsedMs: number) => void;

/** The cells of one route, made as first needed (the lean v1 path times its calls with it). */
export function createRouteObserver(histogram: HotPathHistogram, route: string): RouteObserver {
  const cellsByMethod = new Map<string, (HistogramCell | undefined)[]>();
  return (method, statusCode, elapsedMs) => {
    let cells = cellsByMethod.get(method);
    if (!cells) {
      cells = [];
      cellsByMethod.set(method, cells);
    }
    const statusClass = Math.min(5, Math.max(1, Math.floor(statusCode / 100)));
    const cell = (cells[statusClass] ??= histogram.cell([
      route,
      method,
      STATUS_CLASSES[statusClass]!,
    ]));
    cell.observe(elapsedMs / 1000);
  };
}

/** How the scopes time requests no route matched. */
export interface UnmatchedObserver {
  /** A scope-wide onResponse hook (for scopes where a hook per request costs nothing that matters). */
  hook: onResponseHookHandler;
  /** Called by a not-found handler: times the answer when it has been sent, no hook needed. */
  onFinish: Observe;
}
