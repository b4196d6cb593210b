import { and, desc, eq, sql } from 'drizzle-orm';
import { CODE_FILE_HISTORY_LIMIT, type CodeFileVersionList } from '@latchkey/contracts';
import { codeFileVersions } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { toCodeFileName } from './code-file-name.ts';
import { ensureCodeFiles } from './ensure-code-files.ts';

/** A document's kept versions, newest first, without their text (sizes only). */
export async function listCodeFileVersions({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: { name: string };
}): Promise<CodeFileVersionList> {
  const name = toCodeFileName(input.name);
  const files = await ensureCodeFiles({ ctx });
  const current = files.find((file) => file.name === name)?.version;
  const rows = await ctx.db
    .select({
      id: codeFileVersions.id,
      version: codeFileVersions.version,
      createdAt: codeFileVersions.createdAt,
      savedBy: codeFileVersions.savedByEmail,
      origin: codeFileVersions.origin,
      restoredFrom: codeFileVersions.restoredFrom,
      sizeBytes: sql<number>`octet_length(${codeFileVersions.content})`.mapWith(Number),
    })
    .from(codeFileVersions)
    .where(
      and(eq(codeFileVersions.ownerAccountId, ctx.account.id), eq(codeFileVersions.name, name)),
    )
    .orderBy(desc(codeFileVersions.version))
    .limit(CODE_FILE_HISTORY_LIMIT);
  return {
    versions: rows.map((row) => ({
      ...row,
      createdAt: row.createdAt.toISOString(),
      isCurrent: row.version === current,
    })),
    limit: CODE_FILE_HISTORY_LIMIT,
  };
}
