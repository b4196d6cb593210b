import { appFileLimits, type AppFile } from '@latchkey/contracts';
import { Upload } from 'lucide-react';
import { useId, useState } from 'react';
import {
  DialogForm,
  FormDialog,
  type ApplicationCreateDialogProps,
} from '@/components/ui/form-dialog.tsx';
import { InputField, SwitchField } from '@/components/ui/form-field.tsx';
import { Label } from '@/components/ui/label.tsx';
import { UploadProgress } from '@/components/ui/upload-progress.tsx';
import { useUploadAppFile } from '@/hooks/use-app-files.ts';
import { useFormFields } from '@/hooks/use-form-fields.ts';
import {
  EMPTY_UPLOAD_FIELDS,
  formatFileSize,
  validateUpload,
  type UploadFields,
} from './file-display.ts';

/** What a caller may fill in ahead: a file KeyAuth had, uploaded again under its name. */
export type UploadPrefill = Partial<Pick<UploadFields, 'name' | 'requiresSession'>>;

/** The Upload File dialog, opened from its own button. */
export function UploadFileDialog({
  applicationId,
  applicationName,
  trigger,
  prefill,
  onUploaded,
}: ApplicationCreateDialogProps & {
  prefill?: UploadPrefill;
  onUploaded?: (file: AppFile) => void;
}) {
  return (
    <FormDialog trigger={trigger} triggerIcon={Upload} triggerLabel="Upload File">
      {(close) => (
        <UploadFileForm
          applicationId={applicationId}
          applicationName={applicationName}
          prefill={prefill}
          onUploaded={(file) => {
            onUploaded?.(file);
            close();
          }}
          onDone={close}
        />
      )}
    </FormDialog>
  );
}

function UploadFileForm({
  applicationId,
  applicationName,
  prefill,
  onUploaded,
  onDone,
}: {
  applicationId: number;
  applicationName: string;
  prefill: UploadPrefill | undefined;
  onUploaded: (file: AppFile) => void;
  onDone: () => void;
}) {
  const id = useId();
  const uploadFile = useUploadAppFile(applicationId);
  const [progress, setProgress] = useState<{ sent: number; total: number } | null>(null);
  const { fields, setField, bindText, bindChecked, validationError, submit } =
    useFormFields<UploadFields>({
      initialFields: { ...EMPTY_UPLOAD_FIELDS, ...prefill },
      validate: validateUpload,
      onValidSubmit: (valid) => {
        if (!valid.file) return;
        setProgress({ sent: 0, total: valid.file.size });
        uploadFile.mutate(
          {
            file: valid.file,
            name: valid.name.trim(),
            version: valid.version.trim(),
            platform: valid.platform.trim(),
            requiresSession: valid.requiresSession,
            onProgress: (sent, total) => setProgress({ sent, total }),
          },
          { onSuccess: onUploaded, onError: () => setProgress(null) },
        );
      },
    });

  return (
    <DialogForm
      title="Upload File"
      description={`A file ${applicationName}'s programs can download with a session: an installer or an update.`}
      submitLabel="Upload"
      isSubmitting={uploadFile.isPending}
      validationError={validationError}
      onSubmit={submit}
      onCancel={onDone}
    >
      <div className="grid gap-2">
        <Label htmlFor={`${id}-file`}>File</Label>
        <input
          id={`${id}-file`}
          type="file"
          disabled={uploadFile.isPending}
          className="block w-full min-w-0 text-sm file:mr-3 file:rounded-md file:border file:border-input file:bg-background file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-foreground hover:file:bg-accent"
          onChange={(event) => {
            const chosen = event.target.files?.[0] ?? null;
            setField('file', chosen);
            // The file's own name is the usual one: filled in unless the owner typed another.
            if (chosen && fields.name.trim() === '') {
              setField('name', chosen.name.slice(0, appFileLimits.name));
            }
          }}
        />
        {fields.file && (
          <p className="text-sm text-muted-foreground">{formatFileSize(fields.file.size)}</p>
        )}
      </div>
      <InputField
        id={`${id}-name`}
        label="Name"
        isRequired
        hint="The name the download is saved under."
        {...bindText('name')}
        placeholder="Setup.exe"
        maxLength={appFileLimits.name}
        autoComplete="off"
        disabled={uploadFile.isPending}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <InputField
          id={`${id}-version`}
          label="Version"
          isRequired
          {...bindText('version')}
          placeholder="2.0.0"
          maxLength={appFileLimits.version}
          autoComplete="off"
          disabled={uploadFile.isPending}
        />
        <InputField
          id={`${id}-platform`}
          label="Platform (optional)"
          {...bindText('platform')}
          placeholder="windows-x64"
          maxLength={appFileLimits.platform}
          autoComplete="off"
          disabled={uploadFile.isPending}
        />
      </div>
      <SwitchField
        id={`${id}-requires-session`}
        label="Requires a session"
        hint="Only a signed-in user with a live session may download it. Turn off for a public installer, and for an update you mark as the current release: a program on an old version cannot log in to download it."
        {...bindChecked('requiresSession')}
        disabled={uploadFile.isPending}
      />
      {progress !== null && <UploadProgress progress={progress} finishingLabel="Storing…" />}
    </DialogForm>
  );
}
