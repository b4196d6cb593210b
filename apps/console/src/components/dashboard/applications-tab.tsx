import type { Application } from '@latchkey/contracts';
import type { UseQueryResult } from '@tanstack/react-query';
import { AppWindow, CircleAlert, Plus, RefreshCw } from 'lucide-react';
import { ApplicationsTable } from '@/components/applications/applications-table.tsx';
import { CreateApplicationDialog } from '@/components/applications/create-application-dialog.tsx';
import { EditApplicationSettingsDialog } from '@/components/applications/application-settings-dialog.tsx';
import { Button } from '@/components/ui/button.tsx';
import { ConfirmTargetDialog } from '@/components/ui/confirm-dialog.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { SectionCard } from '@/components/ui/section-card.tsx';
import { TableSkeleton } from '@/components/ui/table-skeleton.tsx';
import { useDeleteApplication } from '@/hooks/use-applications.ts';
import { useDialogTarget } from '@/hooks/use-dialog-target.ts';
import { getErrorToastMessage } from '@/hooks/use-owner-mutation.ts';

/** The dashboard's Applications tab. */
export function ApplicationsTab({
  applicationsQuery,
  selectedApplicationId,
  onSelect,
  onShowUsers,
  onDeleted,
}: {
  applicationsQuery: UseQueryResult<Application[]>;
  selectedApplicationId: number | null;
  onSelect: (application: Application) => void;
  onShowUsers: (application: Application) => void;
  onDeleted: (applicationId: number) => void;
}) {
  // Fields are read where they are used: TanStack Query re-renders this tab for the fields it
  // read, and a list on screen has no use for a background refetch's isFetching.
  const { data: applications, isPending, isError } = applicationsQuery;
  const deleteApplication = useDeleteApplication();
  const editing = useDialogTarget<Application>();
  const deleting = useDialogTarget<Application>();

  return (
    <>
      <SectionCard
        title="Applications"
        description="Each application has its own API key and users. Select one to see its users."
        actions={<CreateApplicationDialog />}
      >
        {isPending ? (
          <TableSkeleton label="Loading applications" />
        ) : isError ? (
          <EmptyState
            icon={CircleAlert}
            tone="destructive"
            title="Error loading applications"
            description={getErrorToastMessage(
              applicationsQuery.error,
              applicationsQuery.error.message,
            )}
            action={
              <Button
                variant="outline"
                onClick={() => void applicationsQuery.refetch()}
                disabled={applicationsQuery.isFetching}
              >
                <RefreshCw aria-hidden="true" />
                Try Again
              </Button>
            }
          />
        ) : applications.length === 0 ? (
          <EmptyState
            icon={AppWindow}
            title="No Applications"
            description="Create your first application to get an API key and start adding users."
            action={
              <CreateApplicationDialog
                trigger={
                  <Button>
                    <Plus aria-hidden="true" />
                    Create Application
                  </Button>
                }
              />
            }
          />
        ) : (
          <ApplicationsTable
            applications={applications}
            selectedApplicationId={selectedApplicationId}
            onSelect={onSelect}
            onShowUsers={onShowUsers}
            onEdit={editing.open}
            onDelete={deleting.open}
          />
        )}
      </SectionCard>

      <EditApplicationSettingsDialog application={editing.target} {...editing.dialogProps} />
      {/* Deleting asks first: it destroys every end user of the application. */}
      <ConfirmTargetDialog
        dialog={deleting}
        title="Delete application?"
        description={(application) => (
          <>
            <strong className="font-medium text-foreground">{application.name}</strong>, its API key
            and every one of its end users, sessions and logs will be permanently deleted. Programs
            using this key will stop working. This action cannot be undone.
          </>
        )}
        confirmLabel="Delete Application"
        onConfirm={({ id }) => deleteApplication.mutate(id, { onSuccess: () => onDeleted(id) })}
      />
    </>
  );
}
