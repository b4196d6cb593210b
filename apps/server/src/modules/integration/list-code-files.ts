import type { CodeFileSummary } from '@latchkey/contracts';
import type { OwnerContext } from '../../http/request-context.ts';
import { ensureCodeFiles } from './ensure-code-files.ts';
import { toCodeFileSummary } from './to-code-file-response.ts';

/** The account's three reference documents, without their text (the editor's file list). */
export async function listCodeFiles({ ctx }: { ctx: OwnerContext }): Promise<CodeFileSummary[]> {
  const rows = await ensureCodeFiles({ ctx });
  return rows.map((row) => toCodeFileSummary(row, ctx.account));
}
