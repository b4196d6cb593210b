import { appFileListSchema, appFileSchema, applicationSchema } from '@latchkey/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api.ts';
import { uploadWithProgress } from '@/lib/upload-with-progress.ts';
import { applicationFilesQueryKey } from './owner-query-keys.ts';
import { useListMutation } from './use-owner-mutation.ts';

export const FILES_FETCH_ERROR = 'Failed to fetch files';

function filesUrl(applicationId: number, fileId?: string): string {
  const url = `/api/applications/${applicationId}/files`;
  return fileId === undefined ? url : `${url}/${encodeURIComponent(fileId)}`;
}

/** An application's files, newest first (GET /api/applications/:id/files): releases, a few. */
export function useAppFiles(applicationId: number) {
  return useQuery({
    queryKey: applicationFilesQueryKey(applicationId),
    queryFn: async () =>
      appFileListSchema.parse(await (await apiRequest('GET', filesUrl(applicationId))).json()),
  });
}

export interface AppFileUpload {
  file: Blob;
  name: string;
  version: string;
  platform: string;
  requiresSession: boolean;
  onProgress: (sent: number, total: number) => void;
  signal?: AbortSignal;
}

/** The bytes go as the body, the description in the query string (the server streams them). */
export function useUploadAppFile(applicationId: number) {
  return useListMutation({
    listQueryKey: applicationFilesQueryKey(applicationId),
    mutationFn: async (upload: AppFileUpload) => {
      const query = new URLSearchParams({
        name: upload.name,
        version: upload.version,
        requiresSession: String(upload.requiresSession),
      });
      if (upload.platform !== '') query.set('platform', upload.platform);
      const text = await uploadWithProgress({
        url: `${filesUrl(applicationId)}?${query}`,
        body: upload.file,
        onProgress: upload.onProgress,
        ...(upload.signal ? { signal: upload.signal } : {}),
      });
      return appFileSchema.parse(JSON.parse(text));
    },
    successMessage: 'File uploaded successfully',
    errorMessage: 'Failed to upload file',
  });
}

export function useDeleteAppFile(applicationId: number) {
  return useListMutation({
    listQueryKey: applicationFilesQueryKey(applicationId),
    mutationFn: async (fileId: string) => {
      await apiRequest('DELETE', filesUrl(applicationId, fileId));
    },
    successMessage: 'File deleted successfully',
    errorMessage: 'Failed to delete file',
  });
}

/** Marks a file as the release VERSION_MISMATCH answers offer, or (null) offers none. */
export function useSetCurrentRelease(applicationId: number) {
  return useListMutation({
    listQueryKey: applicationFilesQueryKey(applicationId),
    mutationFn: async (fileId: string | null) =>
      applicationSchema.parse(
        await (
          await apiRequest('PUT', `/api/applications/${applicationId}`, {
            currentReleaseFileId: fileId,
          })
        ).json(),
      ),
    successMessage: 'Current release updated successfully',
    errorMessage: 'Failed to update the current release',
  });
}
