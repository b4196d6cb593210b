import type { FastifyInstance } from 'fastify';
import {
  blacklistEntryListSchema,
  blacklistEntryParamsSchema,
  blacklistEntrySchema,
  blacklistListQuerySchema,
  createBlacklistEntryRequestSchema,
  deletedResponseSchema,
  type BlacklistEntry,
  type DeletedResponse,
} from '@latchkey/contracts';
import { setPagingHeaders } from '../../http/paging-headers.ts';
import { ok, paged } from '../../http/route-contract.ts';
import { registerRoutes, routeDefiner } from '../../http/route-definition.ts';
import { createBlacklistEntry } from './create-blacklist-entry.ts';
import { deleteBlacklistEntry } from './delete-blacklist-entry.ts';
import { listBlacklistEntries } from './list-blacklist-entries.ts';

const defineRoute = routeDefiner<void>();

/** The owner's blacklist. */
export const blacklistRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/blacklist',
    permission: 'signed_in',
    caller: 'owner',
    tag: 'Blacklist',
    summary: 'List blacklist entries',
    query: blacklistListQuerySchema,
    responses: { 200: paged(blacklistEntryListSchema, 'Entries, newest first.') },
    handle: async ({ query, request, reply }): Promise<BlacklistEntry[]> => {
      const page = await listBlacklistEntries({ ctx: request.owner!, input: query });
      setPagingHeaders(reply, query, page);
      return page.rows;
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/blacklist',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'Blacklist',
    summary: 'Add a blacklist entry',
    body: createBlacklistEntryRequestSchema,
    responses: { 201: ok(blacklistEntrySchema, 'Created.') },
    errors: [404, 409],
    handle: async ({ body, request, reply }) => {
      const entry = await createBlacklistEntry({ ctx: request.owner!, input: body });
      return reply.status(201).send(entry satisfies BlacklistEntry);
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/blacklist/:entryId',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'Blacklist',
    summary: 'Remove a blacklist entry',
    params: blacklistEntryParamsSchema,
    responses: { 200: ok(deletedResponseSchema) },
    handle: async ({ params, request }): Promise<DeletedResponse> => {
      await deleteBlacklistEntry({ ctx: request.owner!, input: { entryId: params.entryId } });
      return { success: true, message: 'Blacklist entry deleted successfully' };
    },
  }),
];

/** The owner's blacklist. Registered inside the owner-guarded scope. */
export function registerBlacklistRoutes(app: FastifyInstance): void {
  registerRoutes(app, blacklistRoutes, undefined);
}
