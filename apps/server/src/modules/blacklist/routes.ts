import type { RouteDefinition } from '../../http/route-definition.ts';
import type { FastifyInstance } from 'fastify';
import {
  blacklistEntryParamsSchema,
  blacklistListQuerySchema,
  createBlacklistEntryRequestSchema,
  type BlacklistEntry,
  type DeletedResponse,
} from '@latchkey/contracts';
import { parseInput } from '../../http/parse-input.ts';
import { setPagingHeaders } from '../../http/paging-headers.ts';
import { createBlacklistEntry } from './create-blacklist-entry.ts';
import { deleteBlacklistEntry } from './delete-blacklist-entry.ts';
import { listBlacklistEntries } from './list-blacklist-entries.ts';

/** The owner's blacklist. Registered inside the owner-guarded scope. */
export function registerBlacklistRoutes(app: FastifyInstance): void {
  app.get('/api/blacklist', async (request, reply): Promise<BlacklistEntry[]> => {
    const query = parseInput(blacklistListQuerySchema, request.query);
    const page = await listBlacklistEntries({ ctx: request.owner!, input: query });
    setPagingHeaders(reply, query, page);
    return page.rows;
  });

  app.post('/api/blacklist', async (request, reply) => {
    const input = parseInput(createBlacklistEntryRequestSchema, request.body);
    const entry = await createBlacklistEntry({ ctx: request.owner!, input });
    return reply.status(201).send(entry satisfies BlacklistEntry);
  });

  app.delete('/api/blacklist/:entryId', async (request): Promise<DeletedResponse> => {
    const { entryId } = parseInput(blacklistEntryParamsSchema, request.params);
    await deleteBlacklistEntry({ ctx: request.owner!, input: { entryId } });
    return { success: true, message: 'Blacklist entry deleted successfully' };
  });
}

/** The module's routes defined once (route-definition.ts); the rest are registered above. */
export const blacklistRoutes: readonly RouteDefinition[] = [];
