import { desc, eq } from 'drizzle-orm';
import { applications, type Application } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';

/** The owner's applications, newest first. */
export async function listApplications({ ctx }: { ctx: OwnerContext }): Promise<Application[]> {
  return ctx.db
    .select()
    .from(applications)
    .where(eq(applications.ownerAccountId, ctx.account.id))
    .orderBy(desc(applications.createdAt), desc(applications.id));
}
