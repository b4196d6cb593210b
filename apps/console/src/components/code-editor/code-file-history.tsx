import type { CodeFileName, CodeFileVersion } from '@latchkey/contracts';
import { History, RotateCcw } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { LoadErrorState } from '@/components/ui/load-error-state.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { useCodeFileVersions, useRestoreCodeFileVersion } from '@/hooks/use-code-files.ts';
import { getErrorToastMessage } from '@/hooks/use-owner-mutation.ts';
import { formatDateTime } from '@/components/applications/application-display.ts';
import { describeVersionOrigin, formatSize } from './code-editor-display.ts';

export const VERSIONS_FETCH_ERROR = 'Failed to load the version history';

/**
 * A document's kept versions, newest first, each earlier one with Restore (after a
 * confirmation). A restore is a new version, so it can be undone from this same list.
 */
export function CodeFileHistory({
  name,
  canRestore,
  hasUnsavedChanges,
  onRestored,
}: {
  name: CodeFileName;
  canRestore: boolean;
  hasUnsavedChanges: boolean;
  onRestored: () => void;
}) {
  const versionsQuery = useCodeFileVersions(name);
  const restore = useRestoreCodeFileVersion();
  const [target, setTarget] = useState<CodeFileVersion | null>(null);

  const heading = (
    <h3 className="flex items-center gap-2 text-base font-semibold">
      <History aria-hidden="true" className="size-4" />
      Version History
    </h3>
  );

  if (versionsQuery.isPending) {
    return (
      <section
        className="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-3"
        aria-label="Version History"
      >
        {heading}
        <div
          role="status"
          aria-busy="true"
          className="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-2"
        >
          <span className="sr-only">Loading the version history…</span>
          <Skeleton className="h-12 w-full" />
          <Skeleton className="h-12 w-full" />
        </div>
      </section>
    );
  }
  if (versionsQuery.isError) {
    return (
      <section
        className="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-3"
        aria-label="Version History"
      >
        {heading}
        <LoadErrorState
          title="Error loading the history"
          description={getErrorToastMessage(versionsQuery.error, VERSIONS_FETCH_ERROR)}
          isRetrying={versionsQuery.isFetching}
          onRetry={() => void versionsQuery.refetch()}
        />
      </section>
    );
  }

  const { versions, limit } = versionsQuery.data;
  const current = versions.find((version) => version.isCurrent);
  return (
    <section className="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-3" aria-label="Version History">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        {heading}
        <p className="text-xs text-muted-foreground">
          Every save keeps the previous version; the newest {limit} are kept.
        </p>
      </div>
      {versions.length <= 1 ? (
        <EmptyState
          icon={History}
          title="No earlier versions yet"
          description="When you save this file, the version before it appears here, ready to restore."
          className="py-6"
        />
      ) : (
        <ol
          aria-label={`Versions of ${name}`}
          className="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-2"
        >
          {versions.map((version) => (
            <li
              key={version.id}
              className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-border px-3 py-2"
            >
              <div className="grid grid-cols-[minmax(0,1fr)] min-w-0 gap-0.5">
                <p className="flex flex-wrap items-center gap-2 text-sm font-medium">
                  Version {version.version}
                  {version.isCurrent && <Badge variant="success">Current</Badge>}
                </p>
                <p className="text-xs break-words text-muted-foreground">
                  {describeVersionOrigin(version)} · {formatDateTime(version.createdAt)} ·{' '}
                  {formatSize(version.sizeBytes)}
                </p>
              </div>
              {canRestore && !version.isCurrent && (
                <Button
                  variant="outline"
                  size="sm"
                  disabled={restore.isPending}
                  aria-label={`Restore version ${version.version}`}
                  onClick={() => setTarget(version)}
                >
                  <RotateCcw aria-hidden="true" />
                  Restore
                </Button>
              )}
            </li>
          ))}
        </ol>
      )}
      <ConfirmDialog
        open={target !== null}
        onOpenChange={(open) => {
          if (!open) setTarget(null);
        }}
        title={target ? `Restore version ${target.version} of ${name}?` : ''}
        description={
          target
            ? `Its text becomes the current version${current ? ` (version ${current.version + 1})` : ''}. The text you have now stays in the history, so you can go back to it.${hasUnsavedChanges ? ' Your unsaved changes to this file will be discarded.' : ''}`
            : ''
        }
        confirmLabel="Restore Version"
        variant="default"
        onConfirm={() => {
          if (!target) return;
          restore.mutate(
            { name, versionId: target.id, version: target.version },
            { onSuccess: onRestored },
          );
        }}
      />
    </section>
  );
}
