import type { ImportProgress } from '@latchkey/contracts';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { DialogForm } from '@/components/ui/form-dialog.tsx';
import { useFormFields } from '@/hooks/use-form-fields.ts';
import { ImportCounts } from './import-counts.tsx';
import { ImportFilesToUpload } from './import-files-to-upload.tsx';
import {
  conflictsTitle,
  describeImportFormat,
  describePreviewOutcome,
  findUnmappedLevels,
  describeLevel,
  hasLevels,
  IMPORT_DIALOG_TITLE,
  levelPlansOfLevels,
  levelsDroppingSubscriptions,
  rowsToCreate,
  validateLevelPlans,
} from './import-display.ts';
import { ImportKeyauthSettingsView } from './import-keyauth-settings.tsx';
import { ImportLevelPlans } from './import-level-plans.tsx';
import { ImportProblemList } from './import-problem-list.tsx';

/**
 * The preview: what the file holds and what starting would do, the rows it would skip with
 * their row numbers, and a plan for each KeyAuth level. Nothing is written until Start.
 */
export function ImportPreviewForm({
  applicationId,
  applicationName,
  preview,
  isStarting,
  onStart,
  onCancel,
}: {
  applicationId: number;
  applicationName: string;
  preview: ImportProgress;
  isStarting: boolean;
  onStart: (levelPlans: Record<string, string>) => void;
  onCancel: () => void;
}) {
  // Levels whose subscriptions a start would leave behind, while the owner is asked first.
  const [droppedLevels, setDroppedLevels] = useState<string[]>([]);
  const { fields, setField, validationError, submit } = useFormFields<Record<string, string>>({
    initialFields: () => levelPlansOfLevels(preview),
    validate: (levelPlans) => validateLevelPlans(preview, levelPlans),
    onValidSubmit: (levelPlans) => {
      const dropped = levelsDroppingSubscriptions(preview, levelPlans);
      if (dropped.length > 0) setDroppedLevels(dropped);
      else onStart(levelPlans);
    },
  });
  const unmappedLevels =
    validationError !== null && preview.kind === 'keys'
      ? findUnmappedLevels(preview.levels, fields)
      : [];
  const isFiles = preview.kind === 'files';

  return (
    <DialogForm
      title={IMPORT_DIALOG_TITLE}
      description={`Nothing is imported yet. The file was read as ${describeImportFormat(preview.format)}: ${describePreviewOutcome(preview)}.`}
      submitLabel="Start import"
      isSubmitting={isStarting}
      validationError={validationError}
      onSubmit={submit}
      onCancel={onCancel}
    >
      <ImportCounts
        label="What the file holds"
        counts={
          isFiles
            ? [
                { label: 'Rows in the file', value: preview.totalRows },
                { label: 'To upload again', value: preview.readableRows },
                { label: 'Unreadable', value: preview.unreadableRows, isWarning: true },
              ]
            : [
                { label: 'Rows in the file', value: preview.totalRows },
                { label: 'Readable', value: preview.readableRows },
                { label: 'Will be created', value: rowsToCreate(preview) },
                { label: 'Conflicts, skipped', value: preview.conflictRows, isWarning: true },
                { label: 'Unreadable', value: preview.unreadableRows, isWarning: true },
              ]
        }
      />
      {preview.keyauthSettings && <ImportKeyauthSettingsView settings={preview.keyauthSettings} />}
      {isFiles ? (
        <ImportFilesToUpload
          applicationId={applicationId}
          applicationName={applicationName}
          progress={preview}
        />
      ) : (
        <ImportProblemList
          title={conflictsTitle(preview.kind)}
          problems={preview.conflicts}
          total={preview.conflictRows}
        />
      )}
      <ImportProblemList
        title="Unreadable rows"
        problems={preview.unreadable}
        total={preview.unreadableRows}
      />
      {hasLevels(preview.kind) && (
        <ImportLevelPlans
          applicationId={applicationId}
          kind={preview.kind}
          levels={preview.levels}
          levelPlans={fields}
          unmappedLevels={unmappedLevels}
          onLevelPlanChange={setField}
        />
      )}
      <ConfirmDialog
        open={droppedLevels.length > 0}
        onOpenChange={(isOpen) => {
          if (!isOpen) setDroppedLevels([]);
        }}
        title="Import users without these subscriptions?"
        description={`${droppedLevels.map(describeLevel).join(', ')} ${droppedLevels.length === 1 ? 'has' : 'have'} no plan: the users are imported, but their subscriptions at ${droppedLevels.length === 1 ? 'this level' : 'these levels'} are not. Choose a plan to keep them.`}
        confirmLabel="Import Without Them"
        cancelLabel="Choose Plans"
        variant="default"
        onConfirm={() => {
          setDroppedLevels([]);
          onStart(fields);
        }}
      />
    </DialogForm>
  );
}
