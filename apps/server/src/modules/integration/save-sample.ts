import { and, eq } from 'drizzle-orm';
import { sampleLanguageCatalogue, type Sample, type SampleLanguage } from '@latchkey/contracts';
import { integrationSamples } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { loadOwnedApplication } from '../applications/load-owned-application.ts';

/**
 * Keeps the account's edited sample for one application and language (replacing any before).
 * The answer carries the base URL the default would use, as the samples call does.
 */
export async function saveSample({
  ctx,
  input,
}: {
  ctx: OwnerContext & { baseUrl: string };
  input: { applicationId: number; language: SampleLanguage; code: string };
}): Promise<Sample> {
  const application = await loadOwnedApplication({ ctx, input });
  const now = ctx.clock.now();
  const [saved] = await ctx.db
    .insert(integrationSamples)
    .values({
      ownerAccountId: ctx.account.id,
      applicationId: application.id,
      language: input.language,
      code: input.code,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: [
        integrationSamples.ownerAccountId,
        integrationSamples.applicationId,
        integrationSamples.language,
      ],
      set: { code: input.code, updatedAt: now },
    })
    .returning();
  return {
    language: input.language,
    filename: sampleLanguageCatalogue[input.language].filename,
    code: saved!.code,
    baseUrl: ctx.baseUrl,
    isCustomized: true,
    updatedAt: saved!.updatedAt.toISOString(),
  };
}

/** Forgets the account's edit, so the samples call serves the rendered default again. */
export async function resetSample({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: { applicationId: number; language: SampleLanguage };
}): Promise<void> {
  const application = await loadOwnedApplication({ ctx, input });
  await ctx.db
    .delete(integrationSamples)
    .where(
      and(
        eq(integrationSamples.ownerAccountId, ctx.account.id),
        eq(integrationSamples.applicationId, application.id),
        eq(integrationSamples.language, input.language),
      ),
    );
}
