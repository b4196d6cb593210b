import { MANAGEMENT_API_PREFIX, type OwnerEvent } from '@latchkey/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OwnerEventHub } from '../../events/owner-event-hub.ts';

const mutatingMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * An onSend hook of the owner and management scopes: each successful change made in a console
 * (or by a management API token) is told to the
 * account's other consoles (another tab, another browser), so their lists and numbers follow
 * without polling. One place for every route, rather than a publish call in each verb; routes
 * that report their own progress (bulk actions) are left to do so.
 */
export function publishConsoleChanges(hub: OwnerEventHub) {
  return async function onSend(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
    const account = (request.owner ?? request.management)?.account;
    if (!mutatingMethods.has(request.method) || reply.statusCode >= 300 || !account) {
      return payload;
    }
    const event = changeOf(request, payload);
    if (event) void hub.publish(account.id, event);
    return payload;
  };
}

function changeOf(request: FastifyRequest, payload: unknown): OwnerEvent | null {
  const route = consoleRouteOf(request.routeOptions.url ?? '');
  if (!route.startsWith('/api/applications')) return null;
  const params = request.params as Record<string, string | undefined>;
  const applicationId = Number(params.id ?? params.appId ?? createdId(payload));
  if (!Number.isInteger(applicationId)) return null;
  const method = request.method;
  if (route === '/api/applications' || route === '/api/applications/:id') {
    const change = method === 'POST' ? 'created' : method === 'DELETE' ? 'deleted' : 'updated';
    return { type: 'application', data: { applicationId, change } };
  }
  if (route === '/api/applications/:id/users/bulk') return null;
  if (route === '/api/applications/:id/users' && method === 'POST') {
    const userId = createdId(payload);
    return {
      type: 'app_user',
      data: { applicationId, userId: userId === null ? null : String(userId), change: 'created' },
    };
  }
  if (route.startsWith('/api/applications/:appId/users/:userId')) {
    const isDeleted = route === '/api/applications/:appId/users/:userId' && method === 'DELETE';
    return {
      type: 'app_user',
      data: {
        applicationId,
        userId: params.userId ?? null,
        change: isDeleted ? 'deleted' : 'updated',
      },
    };
  }
  // Plans, licence keys, samples: the application's numbers (keys used and unused) may move.
  return { type: 'stats', data: { applicationId } };
}

/**
 * A management API route as the console route it mirrors, so a shop's or bot's change reaches
 * open consoles like a console's own: `/api/manage/v1/applications/:id/users/:userId`
 * is `/api/applications/:appId/users/:userId`.
 */
function consoleRouteOf(route: string): string {
  if (!route.startsWith(`${MANAGEMENT_API_PREFIX}/`)) return route;
  return `/api${route.slice(MANAGEMENT_API_PREFIX.length)}`.replace(
    /^\/api\/applications\/:id\/users\/:userId/,
    '/api/applications/:appId/users/:userId',
  );
}

/** The `id` of a created record in a JSON answer, or null. */
function createdId(payload: unknown): string | number | null {
  if (typeof payload !== 'string') return null;
  try {
    const id = (JSON.parse(payload) as { id?: unknown }).id;
    return typeof id === 'string' || typeof id === 'number' ? id : null;
  } catch {
    return null;
  }
}
