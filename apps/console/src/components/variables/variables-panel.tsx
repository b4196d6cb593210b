import type { Application, ApplicationVariable } from '@latchkey/contracts';
import { SearchX, Variable } from 'lucide-react';
import { useState } from 'react';
import { ConfirmSubject, ConfirmTargetDialog } from '@/components/ui/confirm-dialog.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { PagedDataTable } from '@/components/ui/paged-data-table.tsx';
import { SectionCard } from '@/components/ui/section-card.tsx';
import { useDebouncedValue } from '@/hooks/use-debounced-value.ts';
import { useDialogTarget } from '@/hooks/use-dialog-target.ts';
import { getErrorToastMessage } from '@/hooks/use-owner-mutation.ts';
import {
  VARIABLES_FETCH_ERROR,
  useApplicationVariables,
  useDeleteVariable,
} from '@/hooks/use-variables.ts';
import { CreateVariableDialog, EditVariableDialog } from './variable-form-dialog.tsx';
import { variablesTable } from './variables-table.tsx';

/** The management page's Variables tab, values programs read at run time. */
export function VariablesPanel({ application }: { application: Application }) {
  const applicationId = application.id;
  const [search, setSearch] = useState('');
  const settledSearch = useDebouncedValue(search).trim();
  const variablesQuery = useApplicationVariables(applicationId, settledSearch);
  const deleteVariable = useDeleteVariable(applicationId);
  const editing = useDialogTarget<ApplicationVariable>();
  const deleting = useDialogTarget<ApplicationVariable>();

  const createVariableButton = (
    <CreateVariableDialog applicationId={applicationId} applicationName={application.name} />
  );

  return (
    <>
      <SectionCard
        title="Variables"
        description={
          <>
            Values {application.name} reads at run time: a kill switch, a download mirror, a feature
            flag. A change applies to the next request of every running copy.
          </>
        }
        actions={createVariableButton}
      >
        <PagedDataTable
          query={variablesQuery}
          search={{ value: search, onChange: setSearch }}
          table={variablesTable({
            busyVariableId: deleteVariable.isPending ? (deleteVariable.variables ?? null) : null,
            onEdit: editing.open,
            onDelete: deleting.open,
          })}
          loadingLabel="Loading variables"
          errorTitle="Error loading variables"
          describeError={(error) => getErrorToastMessage(error, VARIABLES_FETCH_ERROR)}
          empty={
            settledSearch ? (
              <EmptyState
                icon={SearchX}
                title="No matching variables"
                description="No variable's name or value contains this text."
              />
            ) : (
              <EmptyState
                icon={Variable}
                title="No variables yet"
                description="Create a variable to change what your program does without shipping a new version."
                action={createVariableButton}
              />
            )
          }
        />
      </SectionCard>

      <EditVariableDialog
        applicationId={applicationId}
        item={editing.target}
        {...editing.dialogProps}
      />
      <ConfirmTargetDialog
        dialog={deleting}
        title="Delete variable?"
        description={(variable) => (
          <>
            <ConfirmSubject isCode>{variable.name}</ConfirmSubject> will be deleted. Programs asking
            for it will get VARIABLE_NOT_FOUND.
          </>
        )}
        confirmLabel="Delete Variable"
        onConfirm={(variable) => deleteVariable.mutate(variable.id)}
      />
    </>
  );
}
