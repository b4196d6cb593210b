import { formatFileSize } from '@/components/files/file-display.ts';
import { Progress } from '@/components/ui/progress.tsx';

/** Bytes of an upload sent so far, of all. */
export interface UploadBytes {
  sent: number;
  total: number;
}

/**
 * An upload's bar and its figures ("42% · 1.2 MB of 3 MB"), then `finishingLabel` once every
 * byte is sent and the server is still working on them.
 */
export function UploadProgress({
  progress,
  finishingLabel,
  prefix = '',
}: {
  progress: UploadBytes;
  finishingLabel: string;
  /** Words before the figures ("Uploading: "). */
  prefix?: string;
}) {
  const percent = progress.total === 0 ? 0 : (progress.sent / progress.total) * 100;
  return (
    <div className="grid gap-1.5">
      <Progress value={percent} aria-label="Upload progress" />
      <p className="text-sm text-muted-foreground tabular-nums" aria-live="polite">
        {percent >= 100
          ? finishingLabel
          : `${prefix}${Math.floor(percent)}% · ${formatFileSize(progress.sent)} of ${formatFileSize(progress.total)}`}
      </p>
    </div>
  );
}
