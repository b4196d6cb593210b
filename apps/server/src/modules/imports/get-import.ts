import type { ImportProgress } from '@latchkey/contracts';
import type { OwnerContext } from '../../http/request-context.ts';
import { loadKeptKeyauthSettings } from './kept-keyauth-settings.ts';
import { loadOwnedImport } from './load-owned-import.ts';
import { toImportProgress } from './to-import-progress.ts';

/** The preview or progress of one import; polled by the console's progress bar. */
export async function getImport({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: { applicationId: number; importId: string };
}): Promise<ImportProgress> {
  const record = await loadOwnedImport({ ctx, input });
  return toImportProgress(record, await loadKeptKeyauthSettings(ctx.db, record.id));
}
