import { and, eq } from 'drizzle-orm';
import { sampleLanguageCatalogue, type Sample, type SampleLanguage } from '@latchkey/contracts';
import { integrationSamples } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { recordOwnerWrite } from '../../audit/record-owner-write.ts';
import { loadOwnedApplication } from '../../ownership/load-owned-application.ts';

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
  const saved = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
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
    await recordOwnerWrite({
      ctx: { ...ctx, db: tx },
      input: {
        action: 'sample_saved',
        application: { id: application.id, name: application.name },
        target: { kind: 'sample', id: input.language, label: input.language },
        change: { characters: input.code.length },
      },
    });
    return row;
  });
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
  await ctx.db.transaction(async (tx) => {
    const reset = await tx
      .delete(integrationSamples)
      .where(
        and(
          eq(integrationSamples.ownerAccountId, ctx.account.id),
          eq(integrationSamples.applicationId, application.id),
          eq(integrationSamples.language, input.language),
        ),
      )
      .returning({ language: integrationSamples.language });
    // Resetting a sample that was never edited changes nothing: no entry.
    if (reset.length === 0) return;
    await recordOwnerWrite({
      ctx: { ...ctx, db: tx },
      input: {
        action: 'sample_reset',
        application: { id: application.id, name: application.name },
        target: { kind: 'sample', id: input.language, label: input.language },
      },
    });
  });
}
