import type { AppFile } from '@latchkey/contracts';
import { BadgeCheck, CircleOff, Trash2 } from 'lucide-react';
import { createdColumn } from '@/components/applications/created-column.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { CopyButton } from '@/components/ui/copy-button.tsx';
import { rowActionsColumn, type DataTableDefinition } from '@/components/ui/data-table.tsx';
import { IconButton } from '@/components/ui/icon-button.tsx';
import { formatFileSize, shortenSha256 } from './file-display.ts';

/**
 * An application's files, with set or clear as current release (offered only for files that
 * need no session), and delete.
 */
export function filesTable({
  currentReleaseFileId,
  busyFileId,
  onToggleRelease,
  onReleaseRefused,
  onDelete,
}: {
  currentReleaseFileId: string | null;
  /** The file being deleted or (un)marked as the release; its buttons wait for it. */
  busyFileId: string | null;
  onToggleRelease: (file: AppFile) => void;
  /** Asked of a file that cannot be the current release: says why. */
  onReleaseRefused: (file: AppFile) => void;
  onDelete: (file: AppFile) => void;
}): DataTableDefinition<AppFile> {
  return {
    label: 'Files',
    getRowKey: (file) => file.id,
    getRowProps: (file) => ({ 'data-testid': `file-row-${file.id}` }),
    columns: [
      {
        header: 'Name',
        cellClassName: 'max-w-64',
        cell: (file) => (
          <div className="flex flex-col items-start gap-1">
            <span className="max-w-full truncate font-medium" title={file.name}>
              {file.name}
            </span>
            {file.id === currentReleaseFileId && <Badge variant="success">Current release</Badge>}
            {file.requiresSession && <Badge variant="muted">Requires a session</Badge>}
          </div>
        ),
      },
      { header: 'Version', cellClassName: 'whitespace-nowrap', cell: (file) => file.version },
      {
        header: 'Platform',
        cell: (file) =>
          file.platform ?? <span className="text-sm text-muted-foreground italic">Any</span>,
      },
      {
        header: 'Size',
        cellClassName: 'whitespace-nowrap',
        cellProps: (file) => ({ title: `${file.size.toLocaleString('en-US')} bytes` }),
        cell: (file) => formatFileSize(file.size),
      },
      {
        header: 'SHA-256',
        cellClassName: 'whitespace-nowrap',
        cell: (file) => (
          <span className="inline-flex items-center gap-1">
            <code className="font-mono text-xs" title={file.sha256}>
              {shortenSha256(file.sha256)}
            </code>
            <CopyButton
              value={file.sha256}
              label={`Copy SHA-256 of ${file.name}`}
              toastMessage="SHA-256 copied to clipboard"
            />
          </span>
        ),
      },
      {
        header: 'Downloads',
        cellClassName: 'tabular-nums',
        cell: (file) => file.downloadCount.toLocaleString('en-US'),
      },
      createdColumn(),
      rowActionsColumn(
        (file) => {
          const isBusy = file.id === busyFileId;
          const isRelease = file.id === currentReleaseFileId;
          // The server refuses it too: a program on an older version cannot sign in, so it
          // could never download a release that requires a session. The button stays
          // focusable and hoverable (aria-disabled, not disabled) so its tooltip can say why,
          // and a click says so too instead of doing nothing.
          const cannotBeRelease = !isRelease && file.requiresSession;
          return (
            <div className="flex items-center justify-end gap-0.5">
              <IconButton
                label={
                  isRelease
                    ? 'Clear current release'
                    : cannotBeRelease
                      ? 'Requires a session, so it cannot be the current release'
                      : 'Set as current release'
                }
                disabled={isBusy}
                aria-disabled={cannotBeRelease || undefined}
                className={cannotBeRelease ? 'opacity-50' : undefined}
                onClick={() => (cannotBeRelease ? onReleaseRefused(file) : onToggleRelease(file))}
              >
                {isRelease ? <CircleOff aria-hidden="true" /> : <BadgeCheck aria-hidden="true" />}
              </IconButton>
              <IconButton
                label="Delete file"
                disabled={isBusy}
                isDestructive
                onClick={() => onDelete(file)}
              >
                <Trash2 aria-hidden="true" />
              </IconButton>
            </div>
          );
        },
        { cellClassName: '' },
      ),
    ],
  };
}
