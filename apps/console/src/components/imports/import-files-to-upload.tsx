import type { AppFile, ImportProgress } from '@latchkey/contracts';
import { CircleCheck, Upload } from 'lucide-react';
import { useId, useState } from 'react';
import { UploadFileDialog } from '@/components/files/upload-file-dialog.tsx';
import { Button } from '@/components/ui/button.tsx';
import { CopyButton } from '@/components/ui/copy-button.tsx';
import { formatCount, unlistedCount } from './import-display.ts';

export const FILE_IDS_CHANGE_NOTE =
  "KeyAuth kept only a link to each file, which Latchkey does not fetch: upload each one again (here, or on the application's Files tab). Then change each KeyAuth file ID in your program to the new file's Latchkey ID.";

/**
 * A files import's files, each with a way to upload it again under its KeyAuth name and
 * session rule, and the Latchkey id it got, which replaces KeyAuth's id in the program.
 */
export function ImportFilesToUpload({
  applicationId,
  applicationName,
  progress,
}: {
  applicationId: number;
  applicationName: string;
  progress: ImportProgress;
}) {
  const id = useId();
  // What was uploaded from this list while the dialog is open, by the file's row number.
  const [uploaded, setUploaded] = useState<Readonly<Record<number, AppFile>>>({});
  const files = progress.filesToUpload;
  const unlisted = unlistedCount(files.length, progress.readableRows);

  return (
    // The upload dialog's form is drawn elsewhere in the page but is a child of this one in
    // React, whose submit would reach the import's own form: it stops here.
    <div className="grid gap-2" onSubmit={(event) => event.stopPropagation()}>
      <h3 id={`${id}-title`} className="text-sm font-medium">
        Files to upload again ({formatCount(progress.readableRows)})
      </h3>
      <p className="text-sm text-muted-foreground">{FILE_IDS_CHANGE_NOTE}</p>
      {files.length === 0 ? (
        <p className="rounded-md border border-border bg-muted/40 px-3 py-2 text-sm text-muted-foreground">
          The file lists no files.
        </p>
      ) : (
        // Focusable, so a keyboard can scroll a long list.
        <div
          role="region"
          aria-labelledby={`${id}-title`}
          tabIndex={0}
          className="max-h-72 overflow-y-auto rounded-md border border-border outline-none focus-visible:ring-[3px] focus-visible:ring-ring/60"
        >
          <ul className="divide-y divide-border text-sm">
            {files.map((file) => {
              const done = uploaded[file.rowNumber];
              return (
                <li
                  key={file.rowNumber}
                  className="flex flex-col gap-2 px-3 py-2 sm:flex-row sm:items-center sm:justify-between"
                >
                  <div className="grid min-w-0 gap-0.5">
                    <span className="font-medium break-all">{file.name}</span>
                    <span className="text-muted-foreground">
                      KeyAuth ID{' '}
                      <code className="font-mono text-xs break-all">{file.keyauthFileId}</code>
                      {' · '}
                      {file.requiresSession ? 'Requires a session' : 'No session needed'}
                    </span>
                    {done && (
                      <span className="flex flex-wrap items-center gap-1 text-success">
                        <CircleCheck aria-hidden="true" className="size-3.5 shrink-0" />
                        Uploaded: Latchkey ID
                        <code className="font-mono text-xs break-all text-foreground">
                          {done.id}
                        </code>
                        <CopyButton
                          value={done.id}
                          label={`Copy the Latchkey ID of ${file.name}`}
                          toastMessage="File ID copied"
                        />
                      </span>
                    )}
                  </div>
                  <UploadFileDialog
                    applicationId={applicationId}
                    applicationName={applicationName}
                    prefill={{ name: file.name, requiresSession: file.requiresSession }}
                    onUploaded={(appFile) =>
                      setUploaded((current) => ({ ...current, [file.rowNumber]: appFile }))
                    }
                    trigger={
                      <Button
                        type="button"
                        variant="outline"
                        size="sm"
                        className="shrink-0 self-start sm:self-center"
                        aria-label={`${done ? 'Upload again' : 'Upload'} ${file.name}`}
                      >
                        <Upload aria-hidden="true" />
                        {done ? 'Upload again' : 'Upload'}
                      </Button>
                    }
                  />
                </li>
              );
            })}
          </ul>
        </div>
      )}
      {unlisted > 0 && (
        <p className="text-sm text-muted-foreground">
          and {formatCount(unlisted)} more in the file: upload them on the Files tab
        </p>
      )}
    </div>
  );
}
