import {
  licenseStatuses,
  pagingLimits,
  type Application,
  type License,
  type LicenseStatus,
  type Plan,
} from '@latchkey/contracts';
import { FileDown, KeyRound, Trash2 } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { ConfirmSubject, ConfirmTargetDialog } from '@/components/ui/confirm-dialog.tsx';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { labelledOptions, OptionSelect } from '@/components/ui/option-select.tsx';
import { PagedDataTable } from '@/components/ui/paged-data-table.tsx';
import { RefreshButton } from '@/components/ui/refresh-button.tsx';
import { SearchInput } from '@/components/ui/search-input.tsx';
import { SectionCard } from '@/components/ui/section-card.tsx';
import { copyToClipboard } from '@/hooks/copy-to-clipboard.ts';
import { applicationLicensesQueryKey } from '@/hooks/owner-query-keys.ts';
import { useDialogTarget } from '@/hooks/use-dialog-target.ts';
import {
  LICENSES_FETCH_ERROR,
  licensesExportUrl,
  revealLicenseKey,
  useBanLicense,
  useDeleteLicense,
  useDeleteUnusedLicenses,
  useEmailLicense,
  useLicenses,
  useUnbanLicense,
  useUnusedLicenseCount,
} from '@/hooks/use-licenses.ts';
import { getErrorToastMessage } from '@/hooks/use-owner-mutation.ts';
import { usePagedSearch } from '@/hooks/use-paged-search.ts';
import { usePlans } from '@/hooks/use-plans.ts';
import { toast } from '@/hooks/use-toast.ts';
import { BanLicenseDialog } from './ban-license-dialog.tsx';
import { EmailLicenseDialog } from './email-license-dialog.tsx';
import { useMailDelivery } from '@/hooks/use-mail-delivery.ts';
import { GenerateLicensesDialog } from './generate-licenses-dialog.tsx';
import { GeneratedKeysDialog, type GeneratedBatch } from './generated-keys-dialog.tsx';
import { LICENSE_STATUS_LABELS } from './license-display.ts';
import { licensesTable } from './licenses-table.tsx';

/** Radix reserves '' for "no value": the filters' "all" choice. */
const ALL = 'all';

const countFormat = new Intl.NumberFormat('en-US');

/** The management page's Licences tab, the keys the application sells. */
export function LicensesPanel({ application }: { application: Application }) {
  const applicationId = application.id;
  const id = useId();
  const queryClient = useQueryClient();
  const list = usePagedSearch();
  const [status, setStatus] = useState<LicenseStatus | undefined>();
  const [planId, setPlanId] = useState<string | undefined>();
  const filters = { search: list.settledSearch, status, planId };
  const licensesQuery = useLicenses(applicationId, { ...filters, page: list.page });
  const plansQuery = usePlans(applicationId);
  const plans = plansQuery.data;

  const banLicense = useBanLicense(applicationId);
  const unbanLicense = useUnbanLicense(applicationId);
  const deleteLicense = useDeleteLicense(applicationId);
  const deleteUnused = useDeleteUnusedLicenses(applicationId);
  const banning = useDialogTarget<License>();
  const emailing = useDialogTarget<License>();
  const emailLicense = useEmailLicense(applicationId);
  const canMail = useMailDelivery() !== 'off';
  const unbanning = useDialogTarget<License>();
  const deleting = useDialogTarget<License>();
  const deletingUnusedOf = useDialogTarget<Plan>();
  const generatedKeys = useDialogTarget<GeneratedBatch>();
  const unusedCount = useUnusedLicenseCount(
    applicationId,
    deletingUnusedOf.isOpen ? (deletingUnusedOf.target?.id ?? null) : null,
  );

  const [revealedKeys, setRevealedKeys] = useState<Record<string, string>>({});
  const [revealingId, setRevealingId] = useState<string | null>(null);

  /** The whole key, asked of the server once and kept while the tab is open. */
  const fetchKey = async (license: License): Promise<string | null> => {
    const known = revealedKeys[license.id];
    if (known !== undefined) return known;
    setRevealingId(license.id);
    try {
      return await revealLicenseKey(applicationId, license.id);
    } catch (error) {
      toast({
        title: 'Error',
        description: getErrorToastMessage(error, 'Failed to reveal licence key'),
        variant: 'destructive',
      });
      return null;
    } finally {
      setRevealingId(null);
    }
  };

  const toggleReveal = async (license: License) => {
    if (revealedKeys[license.id] !== undefined) {
      setRevealedKeys(({ [license.id]: _hidden, ...rest }) => rest);
      return;
    }
    const key = await fetchKey(license);
    if (key !== null) setRevealedKeys((current) => ({ ...current, [license.id]: key }));
  };

  const copyKey = async (license: License) => {
    const key = await fetchKey(license);
    if (key !== null) await copyToClipboard(key, 'Licence key copied to clipboard');
  };

  const busyLicenseId =
    revealingId ??
    [unbanLicense, deleteLicense].find((mutation) => mutation.isPending)?.variables ??
    (banLicense.isPending ? banLicense.variables.licenseId : null);
  const isFiltered = list.settledSearch !== '' || status !== undefined || planId !== undefined;

  const generateButton = (
    <GenerateLicensesDialog
      applicationId={applicationId}
      plans={plans ?? []}
      onGenerated={(generated, plan) => generatedKeys.open({ generated, plan })}
    />
  );

  return (
    <>
      <SectionCard
        title="Licence Keys"
        description={
          <>
            Keys your customers redeem in {application.name}. Each key grants its plan once; ban a
            key to take back what it granted.
          </>
        }
        actions={
          <div className="flex flex-wrap gap-2">
            {generateButton}
            <DropdownMenu>
              <DropdownMenuTrigger asChild>
                <Button variant="outline" disabled={!plans || plans.length === 0}>
                  <Trash2 aria-hidden="true" />
                  Delete Unused
                </Button>
              </DropdownMenuTrigger>
              <DropdownMenuContent align="end">
                <DropdownMenuLabel>Delete the unused keys of</DropdownMenuLabel>
                {plans?.map((plan) => (
                  <DropdownMenuItem key={plan.id} onSelect={() => deletingUnusedOf.open(plan)}>
                    {plan.name}
                  </DropdownMenuItem>
                ))}
              </DropdownMenuContent>
            </DropdownMenu>
            <Button asChild variant="outline">
              <a href={licensesExportUrl(applicationId, filters)} download>
                <FileDown aria-hidden="true" />
                Export CSV
              </a>
            </Button>
          </div>
        }
        contentClassName="grid min-w-0 gap-4"
      >
        <div
          role="search"
          aria-label="Filter licence keys"
          className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_10rem_12rem_auto] sm:items-end"
        >
          <SearchInput
            value={list.search}
            onChange={list.setSearch}
            label="Search licence keys"
            placeholder="Key start, note or username..."
            maxLength={pagingLimits.search}
          />
          <FormField htmlFor={`${id}-status`} label="Status">
            <OptionSelect<LicenseStatus | typeof ALL>
              id={`${id}-status`}
              value={status ?? ALL}
              onValueChange={(value) => {
                setStatus(value === ALL ? undefined : value);
                list.setPage(1);
              }}
              allOption={{ value: ALL, label: 'All statuses' }}
              options={labelledOptions(licenseStatuses, LICENSE_STATUS_LABELS)}
            />
          </FormField>
          <FormField htmlFor={`${id}-plan`} label="Plan">
            <OptionSelect
              id={`${id}-plan`}
              value={planId ?? ALL}
              onValueChange={(value) => {
                setPlanId(value === ALL ? undefined : value);
                list.setPage(1);
              }}
              allOption={{ value: ALL, label: 'All plans' }}
              options={(plans ?? []).map((plan) => ({ value: plan.id, label: plan.name }))}
            />
          </FormField>
          <RefreshButton
            isRefreshing={licensesQuery.isFetching}
            onRefresh={() =>
              // Every filter's pages, not only this one: keys change behind the page (redeemed,
              // generated by a shop through the API), and another filter's cache is as old.
              void queryClient.invalidateQueries({
                queryKey: applicationLicensesQueryKey(applicationId),
              })
            }
          >
            Refresh
          </RefreshButton>
        </div>
        <PagedDataTable
          query={licensesQuery}
          pagerLabel="Licence key pages"
          onPageChange={list.setPage}
          table={licensesTable({
            plans,
            revealedKeys,
            busyLicenseId,
            onToggleReveal: (license) => void toggleReveal(license),
            onCopy: (license) => void copyKey(license),
            ...(canMail ? { onEmail: emailing.open } : {}),
            onBan: banning.open,
            onUnban: unbanning.open,
            onDelete: deleting.open,
          })}
          loadingLabel="Loading licence keys"
          errorTitle="Error loading licence keys"
          describeError={(error) => getErrorToastMessage(error, LICENSES_FETCH_ERROR)}
          canShowEmptyState={!isFiltered}
          empty={
            <EmptyState
              icon={KeyRound}
              title="No licence keys yet"
              description={
                plans && plans.length === 0
                  ? 'Create a plan in the Plans tab, then generate keys of it to sell or hand out.'
                  : 'Generate keys of a plan to sell or hand out; each one is redeemed once.'
              }
              action={generateButton}
            />
          }
        />
      </SectionCard>

      <GeneratedKeysDialog batch={generatedKeys.target} {...generatedKeys.dialogProps} />
      <EmailLicenseDialog
        license={emailing.target}
        {...emailing.dialogProps}
        isSubmitting={emailLicense.isPending}
        onSend={(license, to, done) => emailLicense.mutate({ licenseId: license.id, to }, done)}
      />
      <BanLicenseDialog
        license={banning.target}
        {...banning.dialogProps}
        isSubmitting={banLicense.isPending}
        onBan={(license, reason, done) =>
          banLicense.mutate({ licenseId: license.id, reason }, done)
        }
      />
      <ConfirmTargetDialog
        dialog={unbanning}
        title="Unban licence key?"
        description={(license) => (
          <>
            <code className="font-mono text-foreground">{license.key}</code> can be redeemed again.
            A key that was used does not give back what its ban took: grant or extend the
            subscription by hand if it should.
          </>
        )}
        confirmLabel="Unban Key"
        variant="default"
        onConfirm={(license) => unbanLicense.mutate(license.id)}
      />
      <ConfirmTargetDialog
        dialog={deleting}
        title="Delete licence key?"
        description={(license) => (
          <>
            <code className="font-mono text-foreground">{license.key}</code> will be deleted and can
            never be redeemed. A subscription it already extended keeps its expiry. This cannot be
            undone.
          </>
        )}
        confirmLabel="Delete Key"
        onConfirm={(license) => deleteLicense.mutate(license.id)}
      />
      <ConfirmTargetDialog
        dialog={deletingUnusedOf}
        title="Delete unused keys?"
        description={(plan) => (
          <>
            {unusedCount.isPending ? (
              'Counting the unused keys of '
            ) : unusedCount.isError ? (
              'The unused keys could not be counted. Every unused key of '
            ) : (
              <>
                <strong className="font-medium text-foreground" data-testid="unused-key-count">
                  {countFormat.format(unusedCount.data)} unused{' '}
                  {unusedCount.data === 1 ? 'key' : 'keys'}
                </strong>{' '}
                of{' '}
              </>
            )}
            <ConfirmSubject>{plan.name}</ConfirmSubject>
            {unusedCount.isPending ? '...' : ' will be deleted.'} Used and banned keys stay. This
            cannot be undone.
          </>
        )}
        confirmLabel="Delete Unused Keys"
        onConfirm={(plan) => deleteUnused.mutate(plan.id)}
      />
    </>
  );
}
