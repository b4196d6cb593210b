import {
  importProgressSchema,
  type ImportKind,
  type ImportProgress,
  type StartImportRequest,
} from '@latchkey/contracts';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { apiRequest } from '@/lib/api.ts';
import { uploadWithProgress } from '@/lib/upload-with-progress.ts';
import {
  APPLICATIONS_QUERY_KEY,
  applicationFilesQueryKey,
  applicationImportQueryKey,
  applicationLicensesQueryKey,
  applicationPlansQueryKey,
  applicationStatsQueryKey,
  applicationVariablesQueryKey,
  appUsersQueryKey,
} from './owner-query-keys.ts';
import { BLACKLIST_QUERY_KEY } from './use-blacklist.ts';
import { DASHBOARD_STATS_QUERY_KEY } from './owner-query-keys.ts';
import { getErrorToastMessage } from './use-owner-mutation.ts';
import { toast } from './use-toast.ts';

/** How often a running import's progress is read: often enough to move, cheap for the server. */
export const IMPORT_POLL_INTERVAL_MS = 1_000;

export const IMPORT_UPLOAD_ERROR = 'Failed to read the export file';
export const IMPORT_START_ERROR = 'Failed to start the import';
export const IMPORT_FAILED = 'The import stopped before the end';

function importsUrl(applicationId: number, importId?: string): string {
  const url = `/api/applications/${applicationId}/imports`;
  return importId === undefined ? url : `${url}/${encodeURIComponent(importId)}`;
}

function toastError(error: unknown, fallback: string): void {
  toast({
    title: 'Error',
    description: getErrorToastMessage(error, fallback),
    variant: 'destructive',
  });
}

/**
 * One import's preview and progress (GET /api/applications/:id/imports/:importId), read again
 * every second while it runs and not at all otherwise: the server does the work, this only
 * watches it.
 */
export function useImportProgress(applicationId: number, importId: string | null) {
  return useQuery({
    queryKey: applicationImportQueryKey(applicationId, importId ?? ''),
    queryFn: async () =>
      importProgressSchema.parse(
        await (await apiRequest('GET', importsUrl(applicationId, importId ?? ''))).json(),
      ),
    enabled: importId !== null,
    refetchInterval: (query) =>
      query.state.data?.status === 'running' ? IMPORT_POLL_INTERVAL_MS : false,
  });
}

export interface ImportUpload {
  kind: ImportKind;
  file: Blob;
  onProgress: (sent: number, total: number) => void;
  signal?: AbortSignal;
}

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/**
 * Uploads a KeyAuth export for a preview. The bytes go as the body (JSON, CSV or text alike);
 * the answer seeds the import's progress query, so the preview shows without another read.
 */
export function useUploadImport(applicationId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      kind,
      file,
      onProgress,
      signal,
    }: ImportUpload): Promise<ImportProgress> => {
      const query = new URLSearchParams({ source: 'keyauth', kind });
      const text = await uploadWithProgress({
        url: `${importsUrl(applicationId)}?${query}`,
        body: file,
        onProgress,
        ...(signal ? { signal } : {}),
      });
      return importProgressSchema.parse(JSON.parse(text));
    },
    onSuccess: (preview) => {
      queryClient.setQueryData(applicationImportQueryKey(applicationId, preview.id), preview);
    },
    // An upload is aborted when its dialog closes: the owner chose that, nothing to report.
    onError: (error) => {
      if (!isAbort(error)) toastError(error, IMPORT_UPLOAD_ERROR);
    },
  });
}

export interface ImportStart {
  importId: string;
  levelPlans: NonNullable<StartImportRequest['levelPlans']>;
}

/**
 * Starts a previewed import, or resumes a failed one (the server skips what it already wrote).
 * After a refusal the progress is read again: a 409 means it is already running elsewhere.
 */
export function useStartImport(applicationId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ importId, levelPlans }: ImportStart): Promise<ImportProgress> =>
      importProgressSchema.parse(
        await (
          await apiRequest('POST', `${importsUrl(applicationId, importId)}/start`, { levelPlans })
        ).json(),
      ),
    onSuccess: (progress) => {
      queryClient.setQueryData(applicationImportQueryKey(applicationId, progress.id), progress);
    },
    onError: (error, { importId }) => {
      toastError(error, IMPORT_START_ERROR);
      void queryClient.invalidateQueries({
        queryKey: applicationImportQueryKey(applicationId, importId),
      });
    },
  });
}

/**
 * What an import may have added to: the lists and counts that show it, and the application
 * itself (the list holds its KeyAuth settings), read again alone rather than with everything
 * under it.
 */
export function invalidateImportedData(
  queryClient: QueryClient,
  applicationId: number,
): Promise<unknown> {
  return Promise.all([
    ...[
      appUsersQueryKey(applicationId),
      applicationLicensesQueryKey(applicationId),
      applicationStatsQueryKey(applicationId),
      applicationPlansQueryKey(applicationId),
      applicationVariablesQueryKey(applicationId),
      applicationFilesQueryKey(applicationId),
      BLACKLIST_QUERY_KEY,
      DASHBOARD_STATS_QUERY_KEY,
    ].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
    queryClient.invalidateQueries({ queryKey: APPLICATIONS_QUERY_KEY, exact: true }),
  ]);
}

/**
 * When a run this console watched ends: the lists it added to are read again, and a toast
 * says how it went (the dialog may be showing something else, or be closed by then).
 */
export function useImportFinishedNotice({
  applicationId,
  progress,
  describeDone,
}: {
  applicationId: number;
  progress: ImportProgress | undefined;
  describeDone: (progress: ImportProgress) => string;
}): void {
  const queryClient = useQueryClient();
  const lastStatus = useRef(progress?.status);
  useEffect(() => {
    const previous = lastStatus.current;
    lastStatus.current = progress?.status;
    // Only an end seen happening: a preview opened again must not toast twice.
    if (!progress || previous !== 'running' || progress.status === 'running') return;
    void invalidateImportedData(queryClient, applicationId);
    if (progress.status === 'done') {
      toast({ title: 'Success', description: describeDone(progress) });
    } else if (progress.status === 'failed') {
      toastError(null, IMPORT_FAILED);
    }
  }, [applicationId, progress, describeDone, queryClient]);
}
