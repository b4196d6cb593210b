import type { Application, Plan } from '@latchkey/contracts';
import { Layers } from 'lucide-react';
import { ConfirmSubject, ConfirmTargetDialog } from '@/components/ui/confirm-dialog.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { PagedDataTable } from '@/components/ui/paged-data-table.tsx';
import { SectionCard } from '@/components/ui/section-card.tsx';
import { useDialogTarget } from '@/hooks/use-dialog-target.ts';
import { getErrorToastMessage } from '@/hooks/use-owner-mutation.ts';
import {
  PLANS_FETCH_ERROR,
  useDeletePlan,
  usePlans,
  useSetPlanArchived,
} from '@/hooks/use-plans.ts';
import { CreatePlanDialog, EditPlanDialog } from './plan-form-dialog.tsx';
import { plansTable } from './plans-table.tsx';
import { SeatsPanel } from './seats-panel.tsx';

/** The management page's Plans tab, what the application sells. */
export function PlansPanel({ application }: { application: Application }) {
  const applicationId = application.id;
  const plansQuery = usePlans(applicationId);
  const archivePlan = useSetPlanArchived(applicationId, true);
  const unarchivePlan = useSetPlanArchived(applicationId, false);
  const deletePlan = useDeletePlan(applicationId);
  const editing = useDialogTarget<Plan>();
  const deleting = useDialogTarget<Plan>();

  const busyMutation = [archivePlan, unarchivePlan, deletePlan].find(
    (mutation) => mutation.isPending,
  );
  const createPlanButton = (
    <CreatePlanDialog applicationId={applicationId} applicationName={application.name} />
  );

  return (
    // Two cards when a plan is floating (the plans, the seats in use): spaced as the page's are.
    <div className="grid grid-cols-1 gap-6">
      <SectionCard
        title="Plans"
        description={
          <>
            What {application.name} sells: how long a licence lasts and which entitlements it
            grants. Archive a plan to stop offering it; its keys keep working.
          </>
        }
        actions={createPlanButton}
      >
        <PagedDataTable
          query={plansQuery}
          table={plansTable({
            busyPlanId: busyMutation?.variables ?? null,
            onEdit: editing.open,
            onToggleArchived: (plan) =>
              (plan.archived ? unarchivePlan : archivePlan).mutate(plan.id),
            onDelete: deleting.open,
          })}
          loadingLabel="Loading plans"
          errorTitle="Error loading plans"
          describeError={(error) => getErrorToastMessage(error, PLANS_FETCH_ERROR)}
          empty={
            <EmptyState
              icon={Layers}
              title="No plans yet"
              description="Create a plan to say how long a licence of this application lasts and what it unlocks."
              action={createPlanButton}
            />
          }
        />
      </SectionCard>

      <EditPlanDialog
        applicationId={applicationId}
        item={editing.target}
        {...editing.dialogProps}
      />
      <ConfirmTargetDialog
        dialog={deleting}
        title="Delete plan?"
        description={(plan) => (
          <>
            <ConfirmSubject>{plan.name}</ConfirmSubject> will be deleted. A plan that licence keys
            or subscriptions use cannot be deleted: archive it instead, so they keep their plan.
          </>
        )}
        confirmLabel="Delete Plan"
        onConfirm={(plan) => deletePlan.mutate(plan.id)}
      />
      {plansQuery.data?.some((plan) => plan.floating) ? (
        <SeatsPanel application={application} />
      ) : null}
    </div>
  );
}
