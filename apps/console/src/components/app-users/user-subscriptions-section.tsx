import type { Subscription } from '@latchkey/contracts';
import { Pencil, Plus, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { formatDateTime, formatShortDate } from '@/components/applications/application-display.ts';
import { EntitlementBadges } from '@/components/plans/entitlement-badges.tsx';
import { PlanSelect } from '@/components/plans/plan-select.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { ConfirmSubject, ConfirmTargetDialog } from '@/components/ui/confirm-dialog.tsx';
import { InputField } from '@/components/ui/form-field.tsx';
import { IconButton } from '@/components/ui/icon-button.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { useDialogTarget } from '@/hooks/use-dialog-target.ts';
import { usePlans } from '@/hooks/use-plans.ts';
import {
  SUBSCRIPTIONS_FETCH_ERROR,
  useGrantSubscription,
  useRemoveSubscription,
  useUpdateSubscription,
  useUserSubscriptions,
} from '@/hooks/use-subscriptions.ts';
import { fromDateTimeLocalValue, toDateTimeLocalValue } from './app-user-display.ts';
import { onEnter, UserDialogSection, type UserSectionProps } from './user-dialog-section.tsx';

/** The union of what the active subscriptions grant, sorted, as the client API answers it. */
export function activeEntitlements(subscriptions: readonly Subscription[]): string[] {
  const codes = new Set(
    subscriptions.filter(({ isActive }) => isActive).flatMap(({ entitlements }) => entitlements),
  );
  return [...codes].sort();
}

/** A subscription's updates window in words; null when it has none (every release). */
export function describeUpdatesWindow(
  subscription: Pick<Subscription, 'updatesUntil' | 'updatesPendingDays'>,
): string | null {
  if (subscription.updatesUntil !== null) {
    return `Updates until ${formatShortDate(subscription.updatesUntil)}`;
  }
  if (subscription.updatesPendingDays !== null) {
    const days = subscription.updatesPendingDays;
    return `${days === 1 ? '1 day' : `${days} days`} of updates from the next sign-in`;
  }
  return null;
}

/**
 * The plans an end user holds, in the Edit User dialog: each with its expiry (or Lifetime),
 * whether it is active and what it grants; grant a plan, change an expiry (extend or shorten),
 * remove one after a confirmation. Each change is saved at once.
 */
export function UserSubscriptionsSection({ applicationId, userId, username }: UserSectionProps) {
  const id = useId();
  const subscriptionsQuery = useUserSubscriptions(applicationId, userId);
  const plansQuery = usePlans(applicationId);
  const grant = useGrantSubscription(applicationId, userId);
  const update = useUpdateSubscription(applicationId, userId);
  const remove = useRemoveSubscription(applicationId, userId);
  const removing = useDialogTarget<Subscription>();
  const [editingId, setEditingId] = useState<string | null>(null);
  const [newExpiry, setNewExpiry] = useState('');
  const [newUpdatesUntil, setNewUpdatesUntil] = useState('');
  const [grantPlanId, setGrantPlanId] = useState('');
  const [grantExpiry, setGrantExpiry] = useState('');

  const subscriptions = subscriptionsQuery.data ?? [];
  const entitlements = activeEntitlements(subscriptions);
  const heldPlanIds = new Set(subscriptions.map(({ planId }) => planId));
  const grantablePlans = (plansQuery.data ?? []).filter(
    (plan) => !plan.archived && !heldPlanIds.has(plan.id),
  );

  const submitGrant = () => {
    if (grantPlanId === '' || grant.isPending) return;
    grant.mutate(
      {
        planId: grantPlanId,
        ...(grantExpiry.trim() === '' ? {} : { expiresAt: fromDateTimeLocalValue(grantExpiry) }),
      },
      {
        onSuccess: () => {
          setGrantPlanId('');
          setGrantExpiry('');
        },
      },
    );
  };

  const startEditing = (subscription: Subscription) => {
    setEditingId(subscription.id);
    setNewExpiry(toDateTimeLocalValue(subscription.expiresAt));
    setNewUpdatesUntil(toDateTimeLocalValue(subscription.updatesUntil));
  };

  const submitExpiry = (subscription: Subscription) => {
    if (update.isPending) return;
    update.mutate(
      {
        subscriptionId: subscription.id,
        expiresAt: fromDateTimeLocalValue(newExpiry),
        // Only a window that has started is shown, so only that one is sent.
        ...(subscription.updatesUntil === null
          ? {}
          : { updatesUntil: fromDateTimeLocalValue(newUpdatesUntil) }),
      },
      { onSuccess: () => setEditingId(null) },
    );
  };

  return (
    <>
      <UserDialogSection
        title="Subscriptions"
        description={<>The plans {username} holds, and until when.</>}
        query={subscriptionsQuery}
        loadingLabel="Loading subscriptions"
        fetchErrorMessage={SUBSCRIPTIONS_FETCH_ERROR}
      >
        {() => (
          <>
            <div className="flex flex-wrap items-center gap-2 text-sm">
              <span className="text-muted-foreground">Entitlements:</span>
              <EntitlementBadges codes={entitlements} ownerName={username} />
            </div>
            {subscriptions.length === 0 ? (
              <p className="text-sm text-muted-foreground">No subscriptions yet.</p>
            ) : (
              <ul aria-label={`Subscriptions of ${username}`} className="grid gap-2">
                {subscriptions.map((subscription) => (
                  <li
                    key={subscription.id}
                    data-testid={`subscription-${subscription.planName}`}
                    className="grid gap-2 rounded-md border border-border p-3"
                  >
                    <div className="flex flex-wrap items-center justify-between gap-2">
                      <div className="flex min-w-0 flex-wrap items-center gap-2">
                        <span className="truncate font-medium">{subscription.planName}</span>
                        {subscription.isActive ? (
                          <Badge variant="success">Active</Badge>
                        ) : (
                          <Badge variant="muted">Expired</Badge>
                        )}
                      </div>
                      <div className="flex items-center gap-1">
                        <span
                          className="text-sm whitespace-nowrap text-muted-foreground"
                          title={
                            subscription.expiresAt
                              ? formatDateTime(subscription.expiresAt)
                              : undefined
                          }
                        >
                          {subscription.expiresAt
                            ? `${subscription.isActive ? 'Expires' : 'Expired'} ${formatShortDate(subscription.expiresAt)}`
                            : 'Lifetime'}
                        </span>
                        <IconButton
                          label={`Change expiry of ${subscription.planName}`}
                          onClick={() => startEditing(subscription)}
                        >
                          <Pencil aria-hidden="true" />
                        </IconButton>
                        <IconButton
                          label={`Remove ${subscription.planName}`}
                          isDestructive
                          onClick={() => removing.open(subscription)}
                        >
                          <Trash2 aria-hidden="true" />
                        </IconButton>
                      </div>
                    </div>
                    {subscription.entitlements.length > 0 && (
                      <p className="font-mono text-xs text-muted-foreground">
                        {subscription.entitlements.join(', ')}
                      </p>
                    )}
                    {describeUpdatesWindow(subscription) && (
                      <p
                        className="text-xs text-muted-foreground"
                        title={
                          subscription.updatesUntil
                            ? formatDateTime(subscription.updatesUntil)
                            : undefined
                        }
                      >
                        {describeUpdatesWindow(subscription)}
                      </p>
                    )}
                    {editingId === subscription.id && (
                      <div className="flex flex-wrap items-end gap-2">
                        <InputField
                          id={`${id}-expiry-${subscription.id}`}
                          label={`New expiry of ${subscription.planName}`}
                          hint="In your local time. Empty is lifetime."
                          type="datetime-local"
                          value={newExpiry}
                          onValueChange={setNewExpiry}
                          onKeyDown={onEnter(() => submitExpiry(subscription))}
                          fieldClassName="min-w-0 flex-1"
                          autoFocus
                        />
                        {subscription.updatesUntil !== null && (
                          <InputField
                            id={`${id}-updates-${subscription.id}`}
                            label={`Updates of ${subscription.planName} until`}
                            hint="Releases published later are refused. Empty is every release."
                            type="datetime-local"
                            value={newUpdatesUntil}
                            onValueChange={setNewUpdatesUntil}
                            onKeyDown={onEnter(() => submitExpiry(subscription))}
                            fieldClassName="min-w-0 flex-1"
                          />
                        )}
                        <div className="flex gap-2 pb-5">
                          <Button variant="outline" size="sm" onClick={() => setEditingId(null)}>
                            Cancel
                          </Button>
                          <Button
                            size="sm"
                            disabled={update.isPending}
                            onClick={() => submitExpiry(subscription)}
                          >
                            {update.isPending && <Spinner />}
                            Save Expiry
                          </Button>
                        </div>
                      </div>
                    )}
                  </li>
                ))}
              </ul>
            )}
            {grantablePlans.length > 0 && (
              <div
                role="group"
                aria-label="Grant a plan"
                className="grid gap-2 sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_auto] sm:items-start"
              >
                <PlanSelect
                  id={`${id}-grant-plan`}
                  label="Grant a plan"
                  plans={grantablePlans}
                  value={grantPlanId}
                  onValueChange={setGrantPlanId}
                />
                <InputField
                  id={`${id}-grant-expiry`}
                  label="Expires at (optional)"
                  hint="Empty: the plan's duration from now."
                  type="datetime-local"
                  value={grantExpiry}
                  onValueChange={setGrantExpiry}
                  onKeyDown={onEnter(submitGrant)}
                />
                <Button
                  variant="outline"
                  className="sm:mt-[1.375rem]"
                  disabled={grantPlanId === '' || grant.isPending}
                  onClick={submitGrant}
                >
                  {grant.isPending ? <Spinner /> : <Plus aria-hidden="true" />}
                  Grant
                </Button>
              </div>
            )}
          </>
        )}
      </UserDialogSection>

      <ConfirmTargetDialog
        dialog={removing}
        title="Remove subscription?"
        description={(subscription) => (
          <>
            {username} loses <ConfirmSubject>{subscription.planName}</ConfirmSubject> and what it
            grants. Keys they redeemed stay used.
          </>
        )}
        confirmLabel="Remove Subscription"
        onConfirm={(subscription) => remove.mutate(subscription.id)}
      />
    </>
  );
}
