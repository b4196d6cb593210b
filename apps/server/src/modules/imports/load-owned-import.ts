import { and, eq } from 'drizzle-orm';
import { IMPORT_NOT_FOUND } from '@latchkey/contracts';
import { imports, type ImportRecord } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { notFound } from '../../lib/errors.ts';
import { loadOwnedApplication } from '../../ownership/load-owned-application.ts';

/**
 * One import of one of the owner's applications, or a 404. The application is checked first,
 * so another owner's application answers 'Application not found' like every owner route.
 */
export async function loadOwnedImport({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: { applicationId: number; importId: string };
}): Promise<ImportRecord> {
  const application = await loadOwnedApplication({ ctx, input });
  const [record] = await ctx.db
    .select()
    .from(imports)
    .where(and(eq(imports.id, input.importId), eq(imports.applicationId, application.id)));
  if (!record) throw notFound(IMPORT_NOT_FOUND);
  return record;
}
