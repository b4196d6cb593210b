import {
  codeFileListSchema,
  codeFileSchema,
  codeFileVersionListSchema,
  type CodeFile,
  type CodeFileName,
} from '@latchkey/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, getQueryFn } from '@/lib/api.ts';
import { getErrorToastMessage } from './use-owner-mutation.ts';
import { toast } from './use-toast.ts';

/** Everything about the documents sits under the list's URL: one invalidation refreshes all. */
export const CODE_FILES_QUERY_KEY = ['/api/code-files'] as const;

const fileUrl = (name: CodeFileName) => `/api/code-files/${encodeURIComponent(name)}`;

export function codeFileQueryKey(name: CodeFileName) {
  return [...CODE_FILES_QUERY_KEY, name] as const;
}

export function codeFileVersionsQueryKey(name: CodeFileName) {
  return [...CODE_FILES_QUERY_KEY, name, 'versions'] as const;
}

/** The account's three reference documents, without their text. */
export function useCodeFiles() {
  return useQuery({
    queryKey: CODE_FILES_QUERY_KEY,
    queryFn: getQueryFn({ on401: 'throw', schema: codeFileListSchema }),
  });
}

export function useCodeFile(name: CodeFileName) {
  return useQuery({
    queryKey: codeFileQueryKey(name),
    queryFn: async () =>
      codeFileSchema.parse(await (await apiRequest('GET', fileUrl(name))).json()),
  });
}

export function useCodeFileVersions(name: CodeFileName) {
  return useQuery({
    queryKey: codeFileVersionsQueryKey(name),
    queryFn: async () =>
      codeFileVersionListSchema.parse(
        await (await apiRequest('GET', `${fileUrl(name)}/versions`)).json(),
      ),
  });
}

/** The code editor's own toasts. */
export const FILE_SAVED_TITLE = 'File Saved';
export const SAVE_FAILED_TITLE = 'Save Failed';
export const SAVE_FAILED_MESSAGE = 'There was an error saving the file.';
export const VERSION_RESTORED_TITLE = 'Version Restored';
export const RESTORE_FAILED_TITLE = 'Restore Failed';
export const RESTORE_FAILED_MESSAGE = 'There was an error restoring the version.';

/** The spec's sentence, then the server's reason when it gave one (a refusal, a conflict). */
function failureDescription(error: unknown, fallback: string): string {
  const reason = getErrorToastMessage(error, '');
  return reason ? `${fallback} ${reason}` : fallback;
}

function useCodeFileMutation<TVariables>({
  mutationFn,
  successTitle,
  successDescription,
  failureTitle,
  failureMessage,
}: {
  mutationFn: (variables: TVariables) => Promise<CodeFile>;
  successTitle: string;
  successDescription: (file: CodeFile, variables: TVariables) => string;
  failureTitle: string;
  failureMessage: string;
}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (file, variables) => {
      // The answer is the document as saved: the box shows it without another round trip.
      queryClient.setQueryData(codeFileQueryKey(file.name), file);
      toast({ title: successTitle, description: successDescription(file, variables) });
    },
    onError: (error) => {
      toast({
        title: failureTitle,
        description: failureDescription(error, failureMessage),
        variant: 'destructive',
      });
    },
    // Also after a failure: a conflict means someone saved elsewhere, so show their version.
    onSettled: () => queryClient.invalidateQueries({ queryKey: CODE_FILES_QUERY_KEY }),
  });
}

/** PUT /api/code-files/:name from the version the edit started at (a 409 if it moved on). */
export function useSaveCodeFile() {
  return useCodeFileMutation({
    mutationFn: async ({
      name,
      content,
      baseVersion,
    }: {
      name: CodeFileName;
      content: string;
      baseVersion: number;
    }) =>
      codeFileSchema.parse(
        await (await apiRequest('PUT', fileUrl(name), { content, baseVersion })).json(),
      ),
    successTitle: FILE_SAVED_TITLE,
    successDescription: (file) => `${file.name} was updated successfully.`,
    failureTitle: SAVE_FAILED_TITLE,
    failureMessage: SAVE_FAILED_MESSAGE,
  });
}

/** POST …/versions/:versionId/restore: the old text comes back as a new version. */
export function useRestoreCodeFileVersion() {
  return useCodeFileMutation({
    mutationFn: async ({
      name,
      versionId,
    }: {
      name: CodeFileName;
      versionId: string;
      version: number;
    }) =>
      codeFileSchema.parse(
        await (
          await apiRequest(
            'POST',
            `${fileUrl(name)}/versions/${encodeURIComponent(versionId)}/restore`,
          )
        ).json(),
      ),
    successTitle: VERSION_RESTORED_TITLE,
    successDescription: (file, { version }) =>
      `${file.name} is back to version ${version}, saved as version ${file.version}.`,
    failureTitle: RESTORE_FAILED_TITLE,
    failureMessage: RESTORE_FAILED_MESSAGE,
  });
}
