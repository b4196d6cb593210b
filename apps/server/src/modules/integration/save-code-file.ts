import type { CodeFile } from '@latchkey/contracts';
import type { OwnerContext } from '../../http/request-context.ts';
import { toCodeFileName } from './code-file-name.ts';
import { ensureCodeFiles } from './ensure-code-files.ts';
import { toCodeFile } from './to-code-file-response.ts';
import { lockCodeFile, writeCodeFileVersion } from './write-code-file-version.ts';

/**
 * Saves a reference document as its next version; the previous one stays in the history.
 * With `baseVersion`, a save made from an outdated copy is a 409 instead of an overwrite.
 */
export async function saveCodeFile({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: { name: string; content: string; baseVersion?: number | undefined };
}): Promise<CodeFile> {
  const name = toCodeFileName(input.name);
  await ensureCodeFiles({ ctx });
  const saved = await ctx.db.transaction(async (tx) => {
    const locked = await lockCodeFile(tx, ctx.account.id, name);
    return writeCodeFileVersion({
      ctx: { ...ctx, db: tx },
      input: {
        locked,
        content: input.content,
        origin: 'save',
        ...(input.baseVersion === undefined ? {} : { baseVersion: input.baseVersion }),
      },
    });
  });
  return toCodeFile(saved, ctx.account);
}
