import type { ImportProgress } from '@latchkey/contracts';
import { CircleAlert, CircleCheck, RotateCw } from 'lucide-react';
import { Button } from '@/components/ui/button.tsx';
import {
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog.tsx';
import { Progress } from '@/components/ui/progress.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { ImportCounts } from './import-counts.tsx';
import {
  countOf,
  describeImportResult,
  describeRowProgress,
  IMPORT_CONTINUES_NOTE,
  IMPORT_DIALOG_TITLE,
  progressPercent,
  type StartedImport,
} from './import-display.ts';
import { ImportFilesToUpload } from './import-files-to-upload.tsx';
import { ImportKeyauthSettingsView } from './import-keyauth-settings.tsx';

const DESCRIPTIONS: Record<StartedImport['status'], (progress: ImportProgress) => string> = {
  running: (progress) => `Importing ${countOf(progress.kind, progress.readableRows)}.`,
  done: (progress) => `The import finished: ${describeImportResult(progress)}.`,
  failed: () => 'The import stopped before the end. What it wrote is kept; resuming skips it.',
};

/**
 * A started import: its progress while it runs (read every second by the caller), then what
 * it did, or why it stopped with a way to resume. Closing leaves it running on the server.
 */
export function ImportRunView({
  applicationId,
  applicationName,
  progress,
  isProgressStale,
  isResuming,
  onResume,
  onClose,
}: {
  applicationId: number;
  applicationName: string;
  progress: StartedImport;
  /** The last read of the progress failed: the figures may be behind. */
  isProgressStale: boolean;
  isResuming: boolean;
  onResume: () => void;
  onClose: () => void;
}) {
  const { status } = progress;
  const rowProgress = describeRowProgress(progress);

  return (
    <div className="grid gap-4">
      <DialogHeader>
        <DialogTitle>{IMPORT_DIALOG_TITLE}</DialogTitle>
        <DialogDescription>{DESCRIPTIONS[status](progress)}</DialogDescription>
      </DialogHeader>
      <div className="grid gap-1.5">
        <Progress
          value={progressPercent(progress)}
          aria-label="Import progress"
          aria-valuemin={0}
          aria-valuemax={progress.readableRows}
          aria-valuenow={progress.doneRows}
          aria-valuetext={rowProgress}
          indicatorClassName={status === 'failed' ? 'bg-destructive' : undefined}
        />
        <p className="flex items-center gap-2 text-sm text-muted-foreground tabular-nums">
          {status === 'running' && <Spinner className="size-3.5" />}
          {rowProgress}
        </p>
      </div>
      <ImportCounts
        label={status === 'running' ? 'So far' : 'What the import did'}
        counts={[
          { label: 'Created', value: progress.createdRows },
          { label: 'Skipped', value: progress.skippedRows, isWarning: true },
          { label: 'Unreadable, left out', value: progress.unreadableRows, isWarning: true },
        ]}
      />
      {progress.keyauthSettings && (
        <ImportKeyauthSettingsView settings={progress.keyauthSettings} />
      )}
      {progress.kind === 'files' && (
        <ImportFilesToUpload
          applicationId={applicationId}
          applicationName={applicationName}
          progress={progress}
        />
      )}
      {status === 'done' && (
        <p className="flex items-center gap-2 text-sm font-medium text-success">
          <CircleCheck className="size-4 shrink-0" aria-hidden="true" />
          Import finished
        </p>
      )}
      {status === 'failed' && (
        <div
          role="alert"
          className="flex items-start gap-3 rounded-lg border border-destructive/40 bg-destructive/10 px-4 py-3 text-sm text-destructive"
        >
          <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <p className="min-w-0 break-words">{progress.error ?? 'The import stopped.'}</p>
        </div>
      )}
      {status === 'running' && (
        <p className="text-sm text-muted-foreground">
          {IMPORT_CONTINUES_NOTE}
          {isProgressStale && ' The last progress check failed; trying again.'}
        </p>
      )}
      <DialogFooter>
        {status === 'failed' && (
          <Button onClick={onResume} disabled={isResuming}>
            {isResuming ? <Spinner /> : <RotateCw aria-hidden="true" />}
            Resume import
          </Button>
        )}
        <Button variant={status === 'failed' ? 'outline' : 'default'} onClick={onClose}>
          {status === 'done' ? 'Done' : 'Close'}
        </Button>
      </DialogFooter>
    </div>
  );
}
