import { sql } from 'drizzle-orm';
import { apiTokens, applications } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { notFound } from '../../lib/errors.ts';
import { recordOwnerWrite } from '../../audit/record-owner-write.ts';
import type { ApplicationEvents } from '../../events/application-events.ts';
import {
  APPLICATION_NOT_FOUND,
  ownedApplicationWhere,
} from '../../ownership/load-owned-application.ts';

/**
 * Deletes an application with everything that belongs to it, in one transaction: the foreign
 * keys of end users, their sessions, activity logs and blacklist entries cascade, and API
 * tokens restricted to it forget it (a token restricted to it alone then reaches nothing,
 * never everything), so either all of it goes or none of it does, its audit entry with it.
 */
export async function deleteApplication({
  ctx,
  input,
}: {
  ctx: OwnerContext & { applicationEvents: ApplicationEvents };
  input: { applicationId: number };
}): Promise<void> {
  const deleted = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .delete(applications)
      .where(ownedApplicationWhere(ctx, input.applicationId))
      .returning({ id: applications.id, apiKey: applications.apiKey, name: applications.name });
    if (!row) return undefined;
    await tx
      .update(apiTokens)
      .set({ applicationIds: sql`array_remove(${apiTokens.applicationIds}, ${row.id}::int)` })
      .where(sql`${row.id}::int = any(${apiTokens.applicationIds})`);
    // The name as it was: the entry outlives the application.
    await recordOwnerWrite({
      ctx: { ...ctx, db: tx },
      input: {
        action: 'application_deleted',
        application: { id: row.id, name: row.name },
        target: { kind: 'application', id: row.id, label: row.name },
      },
    });
    return row;
  });
  if (!deleted) throw notFound(APPLICATION_NOT_FOUND);
  ctx.log.info({ applicationId: deleted.id }, 'application deleted');
  await ctx.applicationEvents.emitChange(
    { kind: 'deleted', applicationId: deleted.id, apiKey: deleted.apiKey },
    ctx.log,
  );
}
