import type { Application } from '@latchkey/contracts';
import { FileUp } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { FormDialog } from '@/components/ui/form-dialog.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { useImportFinishedNotice, useImportProgress, useStartImport } from '@/hooks/use-imports.ts';
import {
  describeImportDone,
  isStarted,
  levelPlansOfLevels,
  toLevelPlansRequest,
} from './import-display.ts';
import { ImportFileForm } from './import-file-form.tsx';
import { ImportPreviewForm } from './import-preview-form.tsx';
import { ImportRunView } from './import-run-view.tsx';

export const IMPORT_ACTION_LABEL = 'Import';

/**
 * The application page's Import dialog, bringing an application's users, keys, plans,
 * variables, blacklist, files and KeyAuth settings over from KeyAuth, one file at a time.
 */
export function ImportDialog({ application }: { application: Application }) {
  return (
    <FormDialog
      className="sm:max-w-2xl"
      trigger={
        <Button variant="outline">
          <FileUp aria-hidden="true" />
          {IMPORT_ACTION_LABEL}
        </Button>
      }
    >
      {(close) => (
        <ImportFlow
          applicationId={application.id}
          applicationName={application.name}
          onClose={close}
        />
      )}
    </FormDialog>
  );
}

/**
 * One import from file to summary. The dialog mounts this afresh on each opening, so a new
 * opening starts a new import; one left running goes on on the server.
 */
function ImportFlow({
  applicationId,
  applicationName,
  onClose,
}: {
  applicationId: number;
  applicationName: string;
  onClose: () => void;
}) {
  const [importId, setImportId] = useState<string | null>(null);
  const progressQuery = useImportProgress(applicationId, importId);
  const start = useStartImport(applicationId);
  const progress = progressQuery.data;
  useImportFinishedNotice({ applicationId, progress, describeDone: describeImportDone });

  if (importId === null) {
    return (
      <ImportFileForm
        applicationId={applicationId}
        applicationName={applicationName}
        onPreviewed={(preview) => setImportId(preview.id)}
        onCancel={onClose}
      />
    );
  }
  if (!progress) {
    return (
      <div role="status" className="flex items-center justify-center gap-2 py-8 text-sm">
        <Spinner />
        Loading the import…
      </div>
    );
  }
  const startWith = (levelPlans: Record<string, string>) =>
    start.mutate({ importId, levelPlans: toLevelPlansRequest(levelPlans) });
  return (
    <FocusedStep key={progress.status}>
      {isStarted(progress) ? (
        <ImportRunView
          applicationId={applicationId}
          applicationName={applicationName}
          progress={progress}
          isProgressStale={progressQuery.isError}
          isResuming={start.isPending}
          onResume={() => startWith(levelPlansOfLevels(progress))}
          onClose={onClose}
        />
      ) : (
        <ImportPreviewForm
          applicationId={applicationId}
          applicationName={applicationName}
          preview={progress}
          isStarting={start.isPending}
          onStart={startWith}
          onCancel={onClose}
        />
      )}
    </FocusedStep>
  );
}

function focusOnMount(element: HTMLElement | null): void {
  element?.focus();
}

/**
 * A step that replaced the last one: the button that moved the owner on went with it, so
 * focus goes to the new step rather than falling out of the dialog.
 */
function FocusedStep({ children }: { children: ReactNode }) {
  return (
    <div ref={focusOnMount} tabIndex={-1} className="outline-none">
      {children}
    </div>
  );
}
