import {
  mailKindLabels,
  mailStatuses,
  type Application,
  type MailMessage,
  type MailStatus,
} from '@latchkey/contracts';
import { Mail, MailOpen, RotateCw, SearchX } from 'lucide-react';
import { useState } from 'react';
import { formatDateTime } from '@/components/applications/application-display.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { rowActionsColumn, type DataTableDefinition } from '@/components/ui/data-table.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { Label } from '@/components/ui/label.tsx';
import { labelledOptions, OptionSelect } from '@/components/ui/option-select.tsx';
import { PagedDataTable } from '@/components/ui/paged-data-table.tsx';
import { RefreshButton } from '@/components/ui/refresh-button.tsx';
import { SectionCard } from '@/components/ui/section-card.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { useDebouncedValue } from '@/hooks/use-debounced-value.ts';
import { useDialogTarget } from '@/hooks/use-dialog-target.ts';
import { MAIL_LOG_FETCH_ERROR, useMailLog, useResendMail } from '@/hooks/use-mail.ts';
import { getErrorToastMessage } from '@/hooks/use-owner-mutation.ts';
import { cn } from '@/lib/utils.ts';
import { mailStatusLabels, mailStatusVariants } from './mail-display.ts';
import { MailFeaturesCard } from './mail-features-card.tsx';
import { MailMessageDialog } from './mail-message-dialog.tsx';
import { MailSenderCard } from './mail-sender-card.tsx';
import { MailTemplatesCard } from './mail-templates-card.tsx';

const ALL_STATUSES = 'all';

/**
 * The management page's E-mail tab: who the mail comes from, what the application mails by
 * itself, the wording of each mail, and the application's mail log. Every message to its end
 * users, newest first, with its status and the last error; a failed one can be sent again, and
 * in development the local mailbox's copy can be opened.
 */
export function MailPanel({ application }: { application: Application }) {
  const applicationId = application.id;
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<MailStatus | null>(null);
  const settledSearch = useDebouncedValue(search).trim();
  const mailQuery = useMailLog({ applicationId, page, search: settledSearch, status });
  const resend = useResendMail(applicationId);
  const opening = useDialogTarget<MailMessage>();
  const isFiltered = settledSearch !== '' || status !== null;

  return (
    <div className="flex flex-col gap-6">
      <MailSenderCard application={application} />
      <MailFeaturesCard application={application} />
      <MailTemplatesCard application={application} />
      <SectionCard
        title="Mail Log"
        description={
          <>
            Every e-mail {application.name} sent its end users, newest first. Temporary failures are
            retried for a day; a failed message can be sent again.
          </>
        }
      >
        <PagedDataTable
          query={mailQuery}
          search={{
            value: search,
            onChange: (value) => {
              setSearch(value);
              setPage(1);
            },
          }}
          toolbar={
            <div className="flex flex-wrap items-end justify-between gap-3">
              <div className="flex min-w-44 flex-col gap-1.5">
                <Label htmlFor="mail-status-filter">Status</Label>
                <OptionSelect
                  id="mail-status-filter"
                  value={status ?? ALL_STATUSES}
                  onValueChange={(chosen: string) => {
                    setStatus(chosen === ALL_STATUSES ? null : (chosen as MailStatus));
                    setPage(1);
                  }}
                  allOption={{ value: ALL_STATUSES, label: 'All statuses' }}
                  options={labelledOptions(mailStatuses, mailStatusLabels)}
                />
              </div>
              <RefreshButton
                isRefreshing={mailQuery.isFetching}
                onRefresh={() => void mailQuery.refetch()}
              >
                Refresh
              </RefreshButton>
            </div>
          }
          table={mailLogTable({
            resendingId: resend.isPending ? (resend.variables ?? null) : null,
            onOpen: opening.open,
            onResend: (message) => resend.mutate(message.id),
          })}
          loadingLabel="Loading mail"
          errorTitle="Error loading mail"
          describeError={(error) => getErrorToastMessage(error, MAIL_LOG_FETCH_ERROR)}
          empty={
            isFiltered ? (
              <EmptyState
                icon={SearchX}
                title="No matching mail"
                description="No message has this status, or an address or subject containing this text."
              />
            ) : (
              <EmptyState
                icon={Mail}
                title="No mail sent yet"
                description="Mail appears here as it is sent: a password reset asked for from your program or the account portal."
              />
            )
          }
          pagerLabel="Mail log pages"
          onPageChange={setPage}
        />
      </SectionCard>
      <MailMessageDialog
        applicationId={applicationId}
        message={opening.target}
        {...opening.dialogProps}
      />
    </div>
  );
}

function mailLogTable({
  resendingId,
  onOpen,
  onResend,
}: {
  /** The message being queued again; its button waits for it. */
  resendingId: string | null;
  onOpen: (message: MailMessage) => void;
  onResend: (message: MailMessage) => void;
}): DataTableDefinition<MailMessage> {
  return {
    label: 'Mail',
    searchBox: { label: 'Search mail', placeholder: 'Search by address or subject...' },
    getRowKey: (message) => message.id,
    // The status beside the address: on a phone the rest scrolls sideways.
    columns: [
      { header: 'To', cellClassName: 'max-w-56 truncate', cell: (message) => message.to },
      {
        header: 'Status',
        cell: (message) => (
          <Badge variant={mailStatusVariants[message.status]}>
            {mailStatusLabels[message.status]}
          </Badge>
        ),
      },
      {
        header: 'Kind',
        cellClassName: 'whitespace-nowrap',
        cell: (message) => mailKindLabels[message.kind],
      },
      { header: 'Attempts', cellClassName: 'tabular-nums', cell: (message) => message.attempts },
      {
        header: 'Last Error',
        cellProps: (message) => ({
          className: cn('max-w-56 truncate', !message.lastError && 'text-muted-foreground'),
          title: message.lastError ?? undefined,
        }),
        cell: (message) => message.lastError ?? '—',
      },
      {
        header: 'Sent',
        cellClassName: 'whitespace-nowrap text-muted-foreground',
        cell: (message) => (message.sentAt ? formatDateTime(message.sentAt) : '—'),
      },
      rowActionsColumn((message) => (
        <div className="flex justify-end gap-2">
          {message.canOpen && (
            <Button
              variant="outline"
              size="sm"
              aria-label={`Open the ${mailKindLabels[message.kind].toLowerCase()} mail to ${message.to}`}
              onClick={() => onOpen(message)}
            >
              <MailOpen aria-hidden="true" />
              Open
            </Button>
          )}
          {message.status === 'failed' && (
            <Button
              variant="outline"
              size="sm"
              disabled={message.id === resendingId}
              aria-label={`Send the mail to ${message.to} again`}
              onClick={() => onResend(message)}
            >
              {message.id === resendingId ? <Spinner /> : <RotateCw aria-hidden="true" />}
              Send Again
            </Button>
          )}
        </div>
      )),
    ],
  };
}
