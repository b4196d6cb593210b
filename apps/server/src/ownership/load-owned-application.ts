import { and, eq } from 'drizzle-orm';
import { applications, type Application } from '../db/schema/index.ts';
import type { OwnerContext } from '../http/request-context.ts';
import { notFound } from '../lib/errors.ts';

export const APPLICATION_NOT_FOUND = 'Application not found';

/** The condition every statement on one of the owner's applications carries. */
export function ownedApplicationWhere(ctx: OwnerContext, applicationId: number) {
  return and(eq(applications.id, applicationId), eq(applications.ownerAccountId, ctx.account.id));
}

/**
 * The ids of the owner's applications, or of the one named (whose ownership is then part of
 * the condition): a subquery for statements on tables keyed by application.
 */
export function ownedApplicationIds(ctx: OwnerContext, applicationId?: number) {
  return ctx.db
    .select({ id: applications.id })
    .from(applications)
    .where(
      applicationId === undefined
        ? eq(applications.ownerAccountId, ctx.account.id)
        : ownedApplicationWhere(ctx, applicationId),
    );
}

/**
 * The signed-in owner's application, or a 404. Another owner's application is
 * indistinguishable from one that does not exist.
 */
export async function loadOwnedApplication({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: { applicationId: number };
}): Promise<Application> {
  const [application] = await ctx.db
    .select()
    .from(applications)
    .where(ownedApplicationWhere(ctx, input.applicationId))
    .limit(1);
  if (!application) throw notFound(APPLICATION_NOT_FOUND);
  return application;
}
