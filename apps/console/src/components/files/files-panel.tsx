import {
  APP_FILE_RELEASE_REQUIRES_SESSION,
  type AppFile,
  type Application,
} from '@latchkey/contracts';
import { FileDown } from 'lucide-react';
import { ConfirmSubject, ConfirmTargetDialog } from '@/components/ui/confirm-dialog.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { PagedDataTable } from '@/components/ui/paged-data-table.tsx';
import { SectionCard } from '@/components/ui/section-card.tsx';
import {
  FILES_FETCH_ERROR,
  useAppFiles,
  useDeleteAppFile,
  useSetCurrentRelease,
} from '@/hooks/use-app-files.ts';
import { useDialogTarget } from '@/hooks/use-dialog-target.ts';
import { getErrorToastMessage } from '@/hooks/use-owner-mutation.ts';
import { toast } from '@/hooks/use-toast.ts';
import { filesTable } from './files-table.tsx';
import { UploadFileDialog } from './upload-file-dialog.tsx';

/** The management page's Files tab: downloads for the programs, and the update. */
export function FilesPanel({ application }: { application: Application }) {
  const applicationId = application.id;
  const filesQuery = useAppFiles(applicationId);
  const deleteFile = useDeleteAppFile(applicationId);
  const setRelease = useSetCurrentRelease(applicationId);
  const deleting = useDialogTarget<AppFile>();

  const busyFileId = deleteFile.isPending
    ? deleteFile.variables
    : setRelease.isPending
      ? (setRelease.variables ?? application.currentReleaseFileId)
      : null;
  const uploadButton = (
    <UploadFileDialog applicationId={applicationId} applicationName={application.name} />
  );
  const isDeletingRelease = deleting.target?.id === application.currentReleaseFileId;

  return (
    <>
      <SectionCard
        title="Files"
        description={
          <>
            Installers and updates {application.name} can download with a session. Mark one as the
            current release (it must need no session) and a login from an older version is told
            where the new one is.
          </>
        }
        actions={uploadButton}
      >
        <PagedDataTable
          query={filesQuery}
          table={filesTable({
            currentReleaseFileId: application.currentReleaseFileId,
            busyFileId,
            onToggleRelease: (file) =>
              setRelease.mutate(file.id === application.currentReleaseFileId ? null : file.id),
            onReleaseRefused: () =>
              toast({
                variant: 'destructive',
                title: 'Error',
                description: APP_FILE_RELEASE_REQUIRES_SESSION,
              }),
            onDelete: deleting.open,
          })}
          loadingLabel="Loading files"
          errorTitle="Error loading files"
          describeError={(error) => getErrorToastMessage(error, FILES_FETCH_ERROR)}
          empty={
            <EmptyState
              icon={FileDown}
              title="No files yet"
              description="Upload an installer or an update: your program gets a short-lived download link for it, and its SHA-256 to check."
              action={uploadButton}
            />
          }
        />
      </SectionCard>
      <ConfirmTargetDialog
        dialog={deleting}
        title="Delete file?"
        description={(file) => (
          <>
            <ConfirmSubject>{file.name}</ConfirmSubject> ({file.version}) will be deleted, and
            download links already given for it stop working.
            {isDeletingRelease && ' It is the current release: no update will be offered.'}
          </>
        )}
        confirmLabel="Delete File"
        onConfirm={(file) => deleteFile.mutate(file.id)}
      />
    </>
  );
}
