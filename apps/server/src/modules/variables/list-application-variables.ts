import { and, asc, eq, ilike, or } from 'drizzle-orm';
import type { ApplicationVariable } from '@latchkey/contracts';
import { appVariables } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { containsPattern } from '../../lib/contains-pattern.ts';
import { loadOwnedApplication } from '../../ownership/load-owned-application.ts';
import { toApplicationVariableResponse } from './to-application-variable-response.ts';

/**
 * An application's variables by name (the unique index's order), those whose name or value
 * contains `search` in any case when it is given. Not paged: an application holds a handful
 * of switches and settings, not a table of data.
 */
export async function listApplicationVariables({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: { applicationId: number; search?: string | undefined };
}): Promise<ApplicationVariable[]> {
  // Another owner's application is indistinguishable from a missing one (404).
  const application = await loadOwnedApplication({ ctx, input });
  const pattern = input.search ? containsPattern(input.search) : null;
  const rows = await ctx.db
    .select()
    .from(appVariables)
    .where(
      and(
        eq(appVariables.applicationId, application.id),
        pattern
          ? or(ilike(appVariables.name, pattern), ilike(appVariables.value, pattern))
          : undefined,
      ),
    )
    .orderBy(asc(appVariables.name));
  return rows.map(toApplicationVariableResponse);
}
