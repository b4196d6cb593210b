import { importLimits, type ImportKind, type ImportProgress } from '@latchkey/contracts';
import { useEffect, useId, useRef, useState } from 'react';
import { formatFileSize } from '@/components/files/file-display.ts';
import { DialogForm } from '@/components/ui/form-dialog.tsx';
import { Label } from '@/components/ui/label.tsx';
import { UploadProgress } from '@/components/ui/upload-progress.tsx';
import { useFormFields } from '@/hooks/use-form-fields.ts';
import { useUploadImport } from '@/hooks/use-imports.ts';
import { cn } from '@/lib/utils.ts';
import {
  ACCEPTED_FORMATS_HINT,
  IMPORT_DIALOG_TITLE,
  IMPORT_FILE_ACCEPT,
  IMPORT_KIND_LABELS,
  validateImportFile,
} from './import-display.ts';

interface ImportFileFields {
  kind: ImportKind;
  file: File | null;
}

/** What each kind becomes, and which of KeyAuth's files holds it. */
const KIND_HINTS: Record<ImportKind, string> = {
  users: 'Accounts with their password hashes, HWIDs, bans and subscriptions.',
  keys: 'Licence keys, each under the plan you choose for its level.',
  subscriptions:
    "One plan per level. Save the seller API's fetchallsubs answer, or export the subscriptions table.",
  variables:
    "Application variables. Save the seller API's fetchallvars answer, or export the vars table.",
  'user-variables':
    "Each user's variables (import the users first). Save fetchalluservars, or export the uservars table.",
  blacklist:
    "Blocked HWIDs and IP addresses. Save the seller API's fetchallblacks answer, or export the bans table.",
  files:
    'The list of files to upload again (KeyAuth keeps only links). Save fetchallfiles, or export the files table.',
  application:
    "KeyAuth's owner ID, name and secret: a CSV of the apps table, from a self-hosted KeyAuth only.",
};

/**
 * The first step: what to import and the export file, uploaded with its progress shown. The
 * answer is a preview; nothing is imported until it is started.
 */
export function ImportFileForm({
  applicationId,
  applicationName,
  onPreviewed,
  onCancel,
}: {
  applicationId: number;
  applicationName: string;
  onPreviewed: (preview: ImportProgress) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const upload = useUploadImport(applicationId);
  const [progress, setProgress] = useState<{ sent: number; total: number } | null>(null);
  // Closing the dialog mid-upload stops the upload: no preview is made that nobody sees.
  const uploadAbort = useRef<AbortController | null>(null);
  useEffect(() => () => uploadAbort.current?.abort(), []);
  const { fields, setField, validationError, submit } = useFormFields<ImportFileFields>({
    initialFields: { kind: 'users', file: null },
    validate: ({ file }) => validateImportFile(file),
    onValidSubmit: ({ kind, file }) => {
      if (!file) return;
      setProgress({ sent: 0, total: file.size });
      uploadAbort.current = new AbortController();
      upload.mutate(
        {
          kind,
          file,
          onProgress: (sent, total) => setProgress({ sent, total }),
          signal: uploadAbort.current.signal,
        },
        { onSuccess: onPreviewed, onError: () => setProgress(null) },
      );
    },
  });

  return (
    <DialogForm
      title={IMPORT_DIALOG_TITLE}
      description={`Bring ${applicationName}'s users, keys, plans, variables, blacklist and files over from KeyAuth, one export file at a time. You see what will happen before anything is imported.`}
      submitLabel="Upload and preview"
      isSubmitting={upload.isPending}
      validationError={validationError}
      onSubmit={submit}
      onCancel={onCancel}
    >
      <fieldset className="grid gap-2" disabled={upload.isPending}>
        <legend className="mb-2 text-sm leading-none font-medium">What to import</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {(Object.keys(IMPORT_KIND_LABELS) as ImportKind[]).map((kind) => (
            <label
              key={kind}
              className={cn(
                'flex cursor-pointer items-start gap-3 rounded-md border border-border p-3 text-sm has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring/60',
                fields.kind === kind && 'border-primary bg-primary/5',
              )}
            >
              <input
                type="radio"
                name={`${id}-kind`}
                value={kind}
                checked={fields.kind === kind}
                onChange={() => setField('kind', kind)}
                className="mt-0.5 size-4 accent-primary"
              />
              <span className="grid gap-1">
                <span className="font-medium">{IMPORT_KIND_LABELS[kind]}</span>
                <span className="text-muted-foreground">{KIND_HINTS[kind]}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <div className="grid gap-2">
        <Label htmlFor={`${id}-file`}>
          Export file
          <span aria-hidden="true" className="-ml-1 text-destructive">
            *
          </span>
        </Label>
        <input
          id={`${id}-file`}
          type="file"
          accept={IMPORT_FILE_ACCEPT}
          aria-required="true"
          aria-describedby={`${id}-file-hint`}
          disabled={upload.isPending}
          className="block w-full min-w-0 text-sm file:mr-3 file:rounded-md file:border file:border-input file:bg-background file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-foreground hover:file:bg-accent"
          onChange={(event) => setField('file', event.target.files?.[0] ?? null)}
        />
        <p id={`${id}-file-hint`} className="text-xs text-muted-foreground">
          {ACCEPTED_FORMATS_HINT} Up to {formatFileSize(importLimits.maxFileBytes)}.
        </p>
        {fields.file && (
          <p className="text-sm text-muted-foreground">{formatFileSize(fields.file.size)}</p>
        )}
      </div>
      {progress !== null && (
        <UploadProgress
          progress={progress}
          finishingLabel="Reading the file…"
          prefix="Uploading: "
        />
      )}
    </DialogForm>
  );
}
