import { and, eq, inArray } from 'drizzle-orm';
import {
  API_TOKEN_EXPIRY_PAST,
  type CreatedApiToken,
  type createApiTokenRequestSchema,
} from '@latchkey/contracts';
import type { z } from 'zod';
import { apiTokens, applications } from '../../db/schema/index.ts';
import { apiTokenPrefix, generateApiToken } from '../../lib/api-token-format.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { keyedDigest } from '../../lib/keyed-digest.ts';
import { APPLICATION_NOT_FOUND } from '../../ownership/load-owned-application.ts';
import { recordApiTokenAuditEntry } from './record-api-token-audit-entry.ts';
import type { ApiTokenContext } from './api-token-context.ts';
import { toApiTokenResponse } from './to-api-token-response.ts';

/**
 * Issues a management API token. Its text is in this answer and nowhere else: only its keyed
 * digest is stored, so not even the owner can see it again. An application restriction may
 * name only the owner's own applications (another owner's is a 404, as everywhere).
 */
export async function createApiToken({
  ctx,
  input,
}: {
  ctx: ApiTokenContext;
  input: z.output<typeof createApiTokenRequestSchema>;
}): Promise<CreatedApiToken> {
  const now = ctx.clock.now();
  if (input.expiresAt && input.expiresAt.getTime() <= now.getTime()) {
    throw badRequest(API_TOKEN_EXPIRY_PAST);
  }
  if (input.applicationIds) {
    const owned = await ctx.db
      .select({ id: applications.id })
      .from(applications)
      .where(
        and(
          eq(applications.ownerAccountId, ctx.account.id),
          inArray(applications.id, input.applicationIds),
        ),
      );
    if (owned.length !== input.applicationIds.length) throw notFound(APPLICATION_NOT_FOUND);
  }
  const token = generateApiToken();
  const row = await ctx.db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(apiTokens)
      .values({
        ownerAccountId: ctx.account.id,
        name: input.name,
        prefix: apiTokenPrefix(token),
        tokenDigest: keyedDigest(token, 'api-token', ctx.serverSecret),
        scopes: input.scopes,
        applicationIds: input.applicationIds,
        allowedIps: input.allowedIps,
        expiresAt: input.expiresAt,
        createdAt: now,
      })
      .returning();
    if (!inserted) throw new Error('insert returned no row');
    await recordApiTokenAuditEntry({
      ctx: { ...ctx, db: tx },
      action: 'api_token_created',
      token: inserted,
    });
    return inserted;
  });
  ctx.log.info({ apiTokenId: row.id, prefix: row.prefix }, 'API token created');
  return { ...toApiTokenResponse(row), token };
}
