import { and, eq } from 'drizzle-orm';
import {
  DEFAULT_APPLICATION_VERSION,
  sampleLanguageCatalogue,
  type Sample,
  type SampleLanguage,
} from '@latchkey/contracts';
import { integrationSamples, type Application } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { loadOwnedApplication } from '../../ownership/load-owned-application.ts';
import { renderSample } from './render-sample.ts';
import { loadSampleTemplate } from './sample-templates.ts';

/**
 * One of the owner's applications' samples in a language: the account's saved edit when
 * there is one, else the template rendered with the application's API key, the public base
 * URL, its version and its signing public key. Another owner's application is a 404.
 */
export async function getSample({
  ctx,
  input,
}: {
  ctx: OwnerContext & { baseUrl: string };
  input: { applicationId: number; language: SampleLanguage };
}): Promise<Sample> {
  const application = await loadOwnedApplication({ ctx, input });
  const [saved] = await ctx.db
    .select()
    .from(integrationSamples)
    .where(
      and(
        eq(integrationSamples.ownerAccountId, ctx.account.id),
        eq(integrationSamples.applicationId, application.id),
        eq(integrationSamples.language, input.language),
      ),
    )
    .limit(1);
  const { filename } = sampleLanguageCatalogue[input.language];
  if (saved) {
    return {
      language: input.language,
      filename,
      code: saved.code,
      baseUrl: ctx.baseUrl,
      isCustomized: true,
      updatedAt: saved.updatedAt.toISOString(),
    };
  }
  return {
    language: input.language,
    filename,
    code: await renderDefaultSample(application, input.language, ctx.baseUrl),
    baseUrl: ctx.baseUrl,
    isCustomized: false,
    updatedAt: null,
  };
}

export async function renderDefaultSample(
  application: Pick<Application, 'apiKey' | 'version' | 'signingPublicKey'>,
  language: SampleLanguage,
  baseUrl: string,
): Promise<string> {
  return renderSample(await loadSampleTemplate(language), {
    apiKey: application.apiKey,
    baseUrl,
    version: application.version || DEFAULT_APPLICATION_VERSION,
    signingPublicKey: application.signingPublicKey,
  });
}
