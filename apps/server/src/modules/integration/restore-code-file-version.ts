import { and, eq } from 'drizzle-orm';
import { codeFileMessages, type CodeFile } from '@latchkey/contracts';
import { codeFileVersions } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { notFound } from '../../lib/errors.ts';
import { toCodeFileName } from './code-file-name.ts';
import { ensureCodeFiles } from './ensure-code-files.ts';
import { toCodeFile } from './to-code-file-response.ts';
import { lockCodeFile, writeCodeFileVersion } from './write-code-file-version.ts';

/**
 * Brings back an earlier version's text as the document's next version, so the restore is
 * itself in the history and can be undone the same way. Another account's version id, or
 * one of another document, is a 404.
 */
export async function restoreCodeFileVersion({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: { name: string; versionId: string };
}): Promise<CodeFile> {
  const name = toCodeFileName(input.name);
  await ensureCodeFiles({ ctx });
  const restored = await ctx.db.transaction(async (tx) => {
    // The lock first: a save pruning the history cannot remove the version between the
    // read below and the write.
    const locked = await lockCodeFile(tx, ctx.account.id, name);
    const [earlier] = await tx
      .select({ version: codeFileVersions.version, content: codeFileVersions.content })
      .from(codeFileVersions)
      .where(
        and(
          eq(codeFileVersions.id, input.versionId),
          eq(codeFileVersions.ownerAccountId, ctx.account.id),
          eq(codeFileVersions.name, name),
        ),
      );
    if (!earlier) throw notFound(codeFileMessages.versionNotFound);
    return writeCodeFileVersion({
      ctx: { ...ctx, db: tx },
      input: {
        locked,
        content: earlier.content,
        origin: 'restore',
        restoredFrom: earlier.version,
      },
    });
  });
  return toCodeFile(restored, ctx.account);
}
