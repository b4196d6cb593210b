import { codeFileMessages, type CodeFile } from '@latchkey/contracts';
import type { OwnerContext } from '../../http/request-context.ts';
import { notFound } from '../../lib/errors.ts';
import { toCodeFileName } from './code-file-name.ts';
import { ensureCodeFiles } from './ensure-code-files.ts';
import { toCodeFile } from './to-code-file-response.ts';

/** One of the account's reference documents with its text; other names are a 404. */
export async function getCodeFile({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: { name: string };
}): Promise<CodeFile> {
  const name = toCodeFileName(input.name);
  const row = (await ensureCodeFiles({ ctx })).find((candidate) => candidate.name === name);
  if (!row) throw notFound(codeFileMessages.notFound);
  return toCodeFile(row, ctx.account);
}
