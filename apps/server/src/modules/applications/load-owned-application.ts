import { and, eq } from 'drizzle-orm';
import { applications, type Application } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { notFound } from '../../lib/errors.ts';

export const APPLICATION_NOT_FOUND = 'Application not found';

/** The condition every statement on one of the owner's applications carries. */
export function ownedApplicationWhere(ctx: OwnerContext, applicationId: number) {
  return and(eq(applications.id, applicationId), eq(applications.ownerAccountId, ctx.account.id));
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
