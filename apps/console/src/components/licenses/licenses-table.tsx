import type { License, Plan } from '@latchkey/contracts';
import { Ban, Copy, Eye, EyeOff, Mail, ShieldCheck, Trash2 } from 'lucide-react';
import { createdColumn } from '@/components/applications/created-column.ts';
import { formatDateTime, formatShortDate } from '@/components/applications/application-display.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { rowActionsColumn, type DataTableDefinition } from '@/components/ui/data-table.tsx';
import { RowActions } from '@/components/ui/row-actions.tsx';
import { cn } from '@/lib/utils.ts';
import { LICENSE_STATUS_BADGES, LICENSE_STATUS_LABELS } from './license-display.ts';

function Muted({ children }: { children: string }) {
  return <span className="text-sm text-muted-foreground italic">{children}</span>;
}

/** An application's licence keys, with reveal, copy, send by mail, ban or unban, and delete per row. */
export function licensesTable({
  plans,
  revealedKeys,
  busyLicenseId,
  onToggleReveal,
  onCopy,
  onEmail,
  onBan,
  onUnban,
  onDelete,
}: {
  plans: readonly Plan[] | undefined;
  /** Whole keys the owner asked to see, by licence id. */
  revealedKeys: Readonly<Record<string, string>>;
  /** The key being revealed, unbanned or deleted; its buttons wait for it. */
  busyLicenseId: string | null;
  onToggleReveal: (license: License) => void;
  onCopy: (license: License) => void;
  /** Absent when the server sends no mail: the button is not offered. */
  onEmail?: (license: License) => void;
  onBan: (license: License) => void;
  onUnban: (license: License) => void;
  onDelete: (license: License) => void;
}): DataTableDefinition<License> {
  const planNames = new Map(plans?.map((plan) => [plan.id, plan.name]));
  // A phone shows key, status and plan beside the actions menu without scrolling sideways: the
  // three columns pad less there, and a plan's name wraps instead of running under the menu.
  const phonePadding = 'max-sm:px-2';
  return {
    label: 'Licence keys',
    getRowKey: (license) => license.id,
    getRowProps: (license) => ({ 'data-testid': `license-row-${license.id}` }),
    columns: [
      {
        header: 'Key',
        headerClassName: phonePadding,
        cellClassName: cn('whitespace-nowrap', phonePadding),
        cell: (license) => {
          const revealed = revealedKeys[license.id];
          return (
            <code
              className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs"
              data-revealed={revealed !== undefined || undefined}
            >
              {revealed ?? (
                <>
                  {/* A phone shows the last four, what tells keys apart: the whole masked key
                      would put them under the pinned row actions, and the rest says nothing. */}
                  <span className="sm:hidden">…{license.key.slice(-4)}</span>
                  <span className="hidden sm:inline">{license.key}</span>
                </>
              )}
            </code>
          );
        },
      },
      {
        header: 'Status',
        headerClassName: phonePadding,
        cellClassName: phonePadding,
        cell: (license) => (
          <div className="grid gap-0.5">
            <Badge variant={LICENSE_STATUS_BADGES[license.status]}>
              {LICENSE_STATUS_LABELS[license.status]}
            </Badge>
            {license.status === 'banned' && license.bannedReason && (
              <span
                className="max-w-48 truncate text-xs text-muted-foreground"
                title={license.bannedReason}
              >
                {license.bannedReason}
              </span>
            )}
            {license.status !== 'banned' && license.status !== 'used' && license.redeemBy && (
              <span
                className="text-xs whitespace-nowrap text-muted-foreground"
                title={formatDateTime(license.redeemBy)}
              >
                Redeem by {formatShortDate(license.redeemBy)}
              </span>
            )}
          </div>
        ),
      },
      {
        header: 'Plan',
        headerClassName: phonePadding,
        cellClassName: cn(
          'max-w-48 truncate max-sm:max-w-28 max-sm:whitespace-normal max-sm:wrap-anywhere',
          phonePadding,
        ),
        cell: (license) => planNames.get(license.planId) ?? <Muted>Unknown plan</Muted>,
      },
      {
        header: 'Note',
        cellClassName: 'max-w-56',
        cell: (license) =>
          license.note ? (
            <div className="truncate" title={license.note}>
              {license.note}
            </div>
          ) : (
            <Muted>None</Muted>
          ),
      },
      {
        header: 'Used By',
        cellClassName: 'max-w-48 truncate',
        cell: (license) => license.usedByUsername ?? <Muted>Nobody</Muted>,
      },
      {
        header: 'Used At',
        cellClassName: 'whitespace-nowrap text-muted-foreground',
        cellProps: (license) => ({
          title: license.usedAt ? formatDateTime(license.usedAt) : undefined,
        }),
        cell: (license) => (license.usedAt ? formatShortDate(license.usedAt) : '—'),
      },
      createdColumn(),
      rowActionsColumn(
        (license) => {
          const isBusy = license.id === busyLicenseId;
          const isRevealed = revealedKeys[license.id] !== undefined;
          return (
            <RowActions
              rowName={`key …${license.key.slice(-4)}`}
              actions={[
                {
                  label: isRevealed ? 'Hide key' : 'Reveal key',
                  icon: isRevealed ? EyeOff : Eye,
                  isDisabled: isBusy,
                  onSelect: () => onToggleReveal(license),
                },
                {
                  label: 'Copy key',
                  icon: Copy,
                  isDisabled: isBusy,
                  onSelect: () => onCopy(license),
                },
                onEmail !== undefined &&
                  license.status !== 'banned' && {
                    label: 'Send key by e-mail',
                    icon: Mail,
                    isDisabled: isBusy,
                    onSelect: () => onEmail(license),
                  },
                license.status === 'banned'
                  ? {
                      label: 'Unban key',
                      icon: ShieldCheck,
                      isDisabled: isBusy,
                      onSelect: () => onUnban(license),
                    }
                  : {
                      label: 'Ban key',
                      icon: Ban,
                      isDisabled: isBusy,
                      isDestructive: true,
                      onSelect: () => onBan(license),
                    },
                {
                  label: 'Delete key',
                  icon: Trash2,
                  isDisabled: isBusy,
                  isDestructive: true,
                  onSelect: () => onDelete(license),
                },
              ]}
            />
          );
        },
        // The phone's one menu button needs little room beside it.
        { cellClassName: 'max-sm:px-1' },
      ),
    ],
  };
}
