import {
  applicationIdSchema,
  sampleLanguageSchema,
  type SampleLanguage,
} from '@latchkey/contracts';

/** The last application chosen on /integration, for a visit without `?app=` in the address. */
export const INTEGRATION_APPLICATION_KEY = 'latchkey-integration-app';

export interface IntegrationSelection {
  applicationId: number | null;
  language: SampleLanguage;
}

/** Reads `?app=ID&language=…`; anything unreadable counts as not chosen. */
export function readIntegrationSearch(search: string): IntegrationSelection {
  const params = new URLSearchParams(search);
  const applicationId = applicationIdSchema.safeParse(params.get('app') ?? '');
  const language = sampleLanguageSchema.safeParse(params.get('language') ?? '');
  return {
    applicationId: applicationId.success ? applicationId.data : null,
    language: language.success ? language.data : 'csharp',
  };
}

/** The address of a selection; the default language is left out to keep links short. */
export function buildIntegrationPath({ applicationId, language }: IntegrationSelection): string {
  const params = new URLSearchParams();
  if (applicationId !== null) params.set('app', String(applicationId));
  if (language !== 'csharp') params.set('language', language);
  const query = params.toString();
  return query ? `/integration?${query}` : '/integration';
}

export function readRememberedApplicationId(): number | null {
  try {
    const parsed = applicationIdSchema.safeParse(localStorage.getItem(INTEGRATION_APPLICATION_KEY));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function rememberApplicationId(applicationId: number): void {
  try {
    localStorage.setItem(INTEGRATION_APPLICATION_KEY, String(applicationId));
  } catch {
    // Without storage the address alone remembers the choice.
  }
}
