import { and, eq, lte } from 'drizzle-orm';
import { CODE_FILE_HISTORY_LIMIT, codeFileMessages, type CodeFileName } from '@latchkey/contracts';
import type { Database } from '../../db/client.ts';
import { codeFiles, codeFileVersions, type CodeFileRow } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { recordOwnerWrite } from '../../audit/record-owner-write.ts';

/** Locks a document's row for the rest of the transaction: saves to it queue behind this. */
export async function lockCodeFile(
  tx: Database,
  ownerAccountId: string,
  name: CodeFileName,
): Promise<CodeFileRow> {
  const [row] = await tx
    .select()
    .from(codeFiles)
    .where(and(eq(codeFiles.ownerAccountId, ownerAccountId), eq(codeFiles.name, name)))
    .for('update');
  if (!row) throw notFound(codeFileMessages.notFound);
  return row;
}

/**
 * Makes `content` the document's next version, inside the caller's transaction and after
 * lockCodeFile: the number is read under the row lock, so two saves at once become two
 * versions one after the other, never one overwriting the other. Keeps the newest
 * CODE_FILE_HISTORY_LIMIT versions.
 */
export async function writeCodeFileVersion({
  ctx,
  input,
}: {
  ctx: OwnerContext & { db: Database };
  input: {
    locked: CodeFileRow;
    content: string;
    origin: 'save' | 'restore';
    restoredFrom?: number;
    baseVersion?: number;
  };
}): Promise<CodeFileRow> {
  const { locked } = input;
  if (input.baseVersion !== undefined && input.baseVersion !== locked.version) {
    throw new AppError('CONFLICT', codeFileMessages.staleVersion);
  }
  const version = locked.version + 1;
  const now = ctx.clock.now();
  const [updated] = await ctx.db
    .update(codeFiles)
    .set({ content: input.content, version, updatedAt: now })
    .where(
      and(eq(codeFiles.ownerAccountId, locked.ownerAccountId), eq(codeFiles.name, locked.name)),
    )
    .returning();
  await ctx.db.insert(codeFileVersions).values({
    ownerAccountId: locked.ownerAccountId,
    name: locked.name,
    version,
    content: input.content,
    origin: input.origin,
    restoredFrom: input.restoredFrom ?? null,
    savedByEmail: ctx.account.email,
    createdAt: now,
  });
  // The text itself stays in the history, where the account reads it: the trail notes the
  // version and its size (a reference document can hold an API key).
  await recordOwnerWrite({
    ctx,
    input: {
      action: input.origin === 'save' ? 'code_file_saved' : 'code_file_restored',
      application: null,
      target: { kind: 'code_file', id: locked.name, label: locked.name },
      change: {
        version,
        characters: input.content.length,
        ...(input.restoredFrom === undefined ? {} : { restoredFrom: input.restoredFrom }),
      },
    },
  });
  // Numbers are consecutive from 1, so the newest LIMIT versions are the ones above this.
  await ctx.db
    .delete(codeFileVersions)
    .where(
      and(
        eq(codeFileVersions.ownerAccountId, locked.ownerAccountId),
        eq(codeFileVersions.name, locked.name),
        lte(codeFileVersions.version, version - CODE_FILE_HISTORY_LIMIT),
      ),
    );
  return updated!;
}
