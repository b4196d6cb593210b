import {
  bulkAppUserActionLabels,
  bulkAppUserLimits,
  bulkSkipReasonLabels,
  type AppUserListRow,
  type BulkAppUserAction,
  type BulkAppUserResult,
  type BulkProgress,
} from '@latchkey/contracts';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { Checkbox } from '@/components/ui/checkbox.tsx';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import type { DataTableColumn } from '@/components/ui/data-table.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Progress } from '@/components/ui/progress.tsx';
import { useBulkAppUserAction } from '@/hooks/use-app-users.ts';
import { onOwnerEvent } from '@/lib/owner-events.ts';
import { randomId } from '@/lib/random-id.ts';
import type { AppUserSelection } from './use-app-user-selection.ts';

const formatCount = (count: number) => count.toLocaleString('en-US');
const usersText = (count: number) => `${formatCount(count)} user${count === 1 ? '' : 's'}`;

/** The first column of a users table: a checkbox per row, and one for the page in the heading. */
export function selectionColumn(
  selection: AppUserSelection,
  pageRows: readonly AppUserListRow[],
): DataTableColumn<AppUserListRow> {
  const pageIds = pageRows.map((user) => user.id);
  const selectedOnPage = pageIds.filter((id) => selection.isSelected(id)).length;
  const pageState =
    selectedOnPage === 0
      ? false
      : selectedOnPage === pageIds.length
        ? true
        : ('indeterminate' as const);
  return {
    header: 'Select',
    headerClassName: 'w-10',
    headerContent: (
      <Checkbox
        aria-label="Select all users on this page"
        checked={pageIds.length > 0 && pageState}
        disabled={pageIds.length === 0}
        onCheckedChange={(checked) => selection.setPage(pageIds, checked === true)}
      />
    ),
    cellClassName: 'w-10',
    cell: (user) => (
      <Checkbox
        aria-label={`Select ${user.username}`}
        checked={selection.isSelected(user.id)}
        onCheckedChange={(checked) => selection.toggle(user.id, checked === true, pageIds)}
      />
    ),
  };
}

/** What each action's confirmation says will happen (after "Pause 250 users?"). */
const consequences: Record<BulkAppUserAction, string> = {
  pause: 'They cannot log in until unpaused, and their open sessions end now.',
  unpause: 'They can log in again, unless their account has expired.',
  set_expiry:
    'Their accounts expire at the time below (leave it empty for never). Users it leaves expired lose their open sessions now.',
  extend:
    'Each expiry moves later by the days below, counted from today where it has passed. Users who never expire are left as they are.',
  reset_hwid:
    'Each can log in from a different device on their next login; the sessions of their released devices end now.',
  delete: 'They will be permanently deleted with their sessions. This action cannot be undone.',
};

const ACTION_ORDER: BulkAppUserAction[] = [
  'pause',
  'unpause',
  'set_expiry',
  'extend',
  'reset_hwid',
  'delete',
];

/** Where one bulk action stands: progress from the event stream, then the server's answer. */
type Operation =
  | {
      status: 'running';
      operationId: string;
      action: BulkAppUserAction;
      progress: BulkProgress | null;
    }
  | { status: 'finished'; result: BulkAppUserResult }
  | { status: 'failed'; action: BulkAppUserAction; progress: BulkProgress | null };

/**
 * The bar above a users table once rows are ticked: how many, "Select all N matching this
 * search", the six actions, each behind a confirmation that states the count; then a progress
 * bar fed by the stream's `bulk_progress` events of this operation (robust without them: it
 * fills when the answer arrives) and the result, done and skipped with the reasons.
 */
export function BulkUserActions({
  applicationId,
  selection,
  pageUserIds,
  totalCount,
  isTotalCapped,
}: {
  applicationId: number;
  selection: AppUserSelection;
  /** The users of the page shown: once all are ticked, the rest of the matches are offered. */
  pageUserIds: readonly string[];
  totalCount: number;
  isTotalCapped: boolean;
}) {
  const bulkAction = useBulkAppUserAction();
  // The dialog keeps its last action while it closes, so its texts do not blank mid-animation.
  const [confirming, setConfirming] = useState<{ action: BulkAppUserAction; isOpen: boolean }>({
    action: 'pause',
    isOpen: false,
  });
  const dialogAction = confirming.action;
  const [expiresAt, setExpiresAt] = useState('');
  const [days, setDays] = useState('30');
  const [operation, setOperation] = useState<Operation | null>(null);

  const runningId = operation?.status === 'running' ? operation.operationId : null;
  useEffect(() => {
    if (!runningId) return undefined;
    return onOwnerEvent((event) => {
      if (event.type !== 'bulk_progress' || event.data.operationId !== runningId) return;
      setOperation((current) =>
        current?.status === 'running' && current.operationId === runningId
          ? { ...current, progress: event.data }
          : current,
      );
    });
  }, [runningId]);

  const totalText = isTotalCapped ? `${formatCount(totalCount)}+` : formatCount(totalCount);
  const count = selection.isAllMatching ? totalCount : selection.selectedIds.size;
  const countText = selection.isAllMatching
    ? `${totalText} user${totalCount === 1 && !isTotalCapped ? '' : 's'}`
    : usersText(count);
  const selectedText = !selection.isAllMatching
    ? `${countText} selected`
    : selection.search
      ? `All ${countText} matching this search selected`
      : `All ${countText} selected`;
  const isRunning = operation?.status === 'running';
  const daysValue = Number(days);
  const isDaysValid =
    Number.isInteger(daysValue) && daysValue >= 1 && daysValue <= bulkAppUserLimits.extendDays;
  const canOfferAllMatching =
    !selection.isAllMatching &&
    pageUserIds.length > 0 &&
    pageUserIds.every((id) => selection.selectedIds.has(id)) &&
    totalCount > pageUserIds.length;

  const start = (action: BulkAppUserAction) => {
    const operationId = randomId();
    setOperation({ status: 'running', operationId, action, progress: null });
    bulkAction.mutate(
      {
        applicationId,
        operationId,
        action,
        ...(selection.isAllMatching
          ? { matching: { search: selection.search } }
          : { userIds: [...selection.selectedIds] }),
        ...(action === 'set_expiry'
          ? { expiresAt: expiresAt ? new Date(expiresAt).toISOString() : null }
          : {}),
        ...(action === 'extend' ? { days: daysValue } : {}),
      },
      {
        onSuccess: (result) => {
          setOperation({ status: 'finished', result });
          selection.clear();
        },
        onError: () =>
          setOperation((current) =>
            current?.status === 'running'
              ? { status: 'failed', action, progress: current.progress }
              : current,
          ),
      },
    );
  };

  if (count === 0 && !operation) return null;
  return (
    <section
      aria-label="Bulk actions"
      className="flex flex-col gap-3 rounded-md border bg-muted/40 p-3"
    >
      {count > 0 && (
        <div className="flex flex-wrap items-center gap-2">
          <span
            className="text-sm font-medium"
            aria-live="polite"
            data-testid="bulk-selected-count"
          >
            {selectedText}
          </span>
          {canOfferAllMatching && (
            <Button
              variant="link"
              size="sm"
              className="h-auto p-0"
              onClick={selection.selectAllMatching}
            >
              {selection.search
                ? `Select all ${totalText} matching this search`
                : `Select all ${totalText} users`}
            </Button>
          )}
          <Button variant="ghost" size="sm" onClick={selection.clear}>
            Clear selection
          </Button>
        </div>
      )}
      {count > 0 && (
        <div
          role="toolbar"
          aria-label="Actions on the selected users"
          className="flex flex-wrap gap-2"
        >
          {ACTION_ORDER.map((action) => (
            <Button
              key={action}
              variant={action === 'delete' ? 'destructive' : 'outline'}
              size="sm"
              disabled={isRunning}
              onClick={() => setConfirming({ action, isOpen: true })}
            >
              {bulkAppUserActionLabels[action]}
            </Button>
          ))}
        </div>
      )}
      {operation && <OperationStatus operation={operation} onDismiss={() => setOperation(null)} />}

      <ConfirmDialog
        open={confirming.isOpen}
        onOpenChange={(isOpen) => setConfirming({ action: dialogAction, isOpen })}
        title={`${bulkAppUserActionLabels[dialogAction]} ${countText}?`}
        description={consequences[dialogAction]}
        confirmLabel={`${bulkAppUserActionLabels[dialogAction]} ${countText}`}
        variant={dialogAction === 'delete' || dialogAction === 'pause' ? 'destructive' : 'default'}
        isConfirmDisabled={dialogAction === 'extend' && !isDaysValid}
        onConfirm={() => start(dialogAction)}
      >
        {dialogAction === 'set_expiry' && (
          <div className="grid gap-2">
            <Label htmlFor="bulk-expires-at">New expiry</Label>
            <Input
              id="bulk-expires-at"
              type="datetime-local"
              value={expiresAt}
              onChange={(event) => setExpiresAt(event.target.value)}
            />
          </div>
        )}
        {dialogAction === 'extend' && (
          <div className="grid gap-2">
            <Label htmlFor="bulk-extend-days">Days to add</Label>
            <Input
              id="bulk-extend-days"
              type="number"
              inputMode="numeric"
              min={1}
              max={bulkAppUserLimits.extendDays}
              value={days}
              aria-invalid={!isDaysValid}
              onChange={(event) => setDays(event.target.value)}
            />
          </div>
        )}
      </ConfirmDialog>
    </section>
  );
}

function OperationStatus({
  operation,
  onDismiss,
}: {
  operation: Operation;
  onDismiss: () => void;
}) {
  if (operation.status === 'finished') {
    const { result } = operation;
    return (
      <div className="flex flex-col gap-2" data-testid="bulk-result">
        <Progress
          value={100}
          aria-label="Bulk action progress"
          aria-valuetext={`${formatCount(result.total)} of ${formatCount(result.total)} users`}
        />
        <p className="text-sm" role="status">
          {bulkAppUserActionLabels[result.action]}: {formatCount(result.done)} done,{' '}
          {formatCount(result.skipped)} skipped.
        </p>
        {result.skippedReasons.length > 0 && (
          <ul className="list-inside list-disc text-sm text-muted-foreground">
            {result.skippedReasons.map(({ reason, count }) => (
              <li key={reason}>
                Skipped, {bulkSkipReasonLabels[reason]}: {formatCount(count)}
              </li>
            ))}
          </ul>
        )}
        <div>
          <Button variant="outline" size="sm" onClick={onDismiss}>
            Dismiss
          </Button>
        </div>
      </div>
    );
  }
  const { progress } = operation;
  const handled = progress ? progress.done + progress.skipped : 0;
  const percent = progress && progress.total > 0 ? (handled / progress.total) * 100 : 0;
  const label = bulkAppUserActionLabels[operation.action];
  return (
    <div className="flex flex-col gap-2" data-testid="bulk-progress">
      <Progress
        value={percent}
        aria-label="Bulk action progress"
        aria-valuetext={
          progress ? `${formatCount(handled)} of ${formatCount(progress.total)} users` : 'Starting'
        }
      />
      <p className="text-sm" role="status">
        {operation.status === 'failed'
          ? `${label} stopped on an error${progress ? ` after ${formatCount(handled)} of ${formatCount(progress.total)} users` : ''}; the batches before it are done.`
          : progress
            ? `${label}: ${formatCount(handled)} of ${formatCount(progress.total)} users`
            : `${label}: starting…`}
      </p>
      {operation.status === 'failed' && (
        <div>
          <Button variant="outline" size="sm" onClick={onDismiss}>
            Dismiss
          </Button>
        </div>
      )}
    </div>
  );
}
