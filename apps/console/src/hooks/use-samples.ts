import { sampleSchema, type Sample, type SampleLanguage } from '@latchkey/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, getQueryFn } from '@/lib/api.ts';
import { APPLICATIONS_QUERY_KEY } from './owner-query-keys.ts';
import { useOwnerMutation } from './use-owner-mutation.ts';

/**
 * Under the applications' key: a change to an application (its key, its version) refetches
 * the samples rendered from it.
 */
export function sampleQueryKey(applicationId: number, language: SampleLanguage) {
  return [...APPLICATIONS_QUERY_KEY, applicationId, 'samples', language] as const;
}

function sampleUrl(applicationId: number, language: SampleLanguage): string {
  return `/api/applications/${applicationId}/samples/${language}`;
}

async function readSample(response: Response): Promise<Sample> {
  return sampleSchema.parse(await response.json());
}

/** One application's sample in one language: the account's edit, else the rendered default. */
export function useSample(applicationId: number, language: SampleLanguage) {
  return useQuery({
    queryKey: sampleQueryKey(applicationId, language),
    queryFn: async () => readSample(await apiRequest('GET', sampleUrl(applicationId, language))),
  });
}

/** The bare template of a language, placeholders unfilled (GET /api/samples/:language). */
export function useSampleTemplate(language: SampleLanguage) {
  return useQuery({
    queryKey: [`/api/samples/${language}`],
    queryFn: getQueryFn({ on401: 'throw', schema: sampleSchema }),
  });
}

export interface SampleTarget {
  applicationId: number;
  language: SampleLanguage;
}

export const SAMPLE_SAVED_MESSAGE = 'Code template updated successfully';
export const SAMPLE_SAVE_ERROR = 'Failed to update code template';
export const SAMPLE_RESET_MESSAGE = 'Code template reset to the default';
export const SAMPLE_RESET_ERROR = 'Failed to reset code template';

/** PUT …/samples/:language: keeps the account's edit; the box shows the answer at once. */
export function useSaveSample() {
  const queryClient = useQueryClient();
  return useOwnerMutation({
    mutationFn: async ({ applicationId, language, code }: SampleTarget & { code: string }) => {
      const saved = await readSample(
        await apiRequest('PUT', sampleUrl(applicationId, language), { code }),
      );
      queryClient.setQueryData(sampleQueryKey(applicationId, language), saved);
      return saved;
    },
    successMessage: SAMPLE_SAVED_MESSAGE,
    errorMessage: SAMPLE_SAVE_ERROR,
  });
}

/** DELETE …/samples/:language: forgets the edit; the answer is the rendered default. */
export function useResetSample() {
  const queryClient = useQueryClient();
  return useOwnerMutation({
    mutationFn: async ({ applicationId, language }: SampleTarget) => {
      const restored = await readSample(
        await apiRequest('DELETE', sampleUrl(applicationId, language)),
      );
      queryClient.setQueryData(sampleQueryKey(applicationId, language), restored);
      return restored;
    },
    successMessage: SAMPLE_RESET_MESSAGE,
    errorMessage: SAMPLE_RESET_ERROR,
  });
}
