import { desc, eq } from 'drizzle-orm';
import { appUsers, type AppUser } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { loadOwnedApplication } from '../applications/load-owned-application.ts';

/** The end users of one of the owner's applications, newest first. */
export async function listAppUsers({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: { applicationId: number };
}): Promise<AppUser[]> {
  const application = await loadOwnedApplication({ ctx, input });
  return ctx.db
    .select()
    .from(appUsers)
    .where(eq(appUsers.applicationId, application.id))
    .orderBy(desc(appUsers.createdAt), desc(appUsers.id));
}
