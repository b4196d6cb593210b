import { sampleLanguageCatalogue, type Sample, type SampleLanguage } from '@latchkey/contracts';
import { Download, Pencil, RotateCcw, ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { CodeEditActions } from '@/components/code/code-edit-actions.tsx';
import { CodeEditor } from '@/components/code/code-editor.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { QueryView } from '@/components/ui/query-view.tsx';
import { useSampleDraft } from '@/hooks/use-sample-draft.ts';
import { useResetSample, useSample } from '@/hooks/use-samples.ts';
import { downloadTextFile } from '@/lib/download-text-file.ts';

export const SAMPLE_FETCH_ERROR = 'Failed to load the sample';

/**
 * One language's tab of /integration: the read-only highlighted code, Copy Code, Download and
 * badges; for those allowed, Edit Code with Save and Cancel, and Reset to default.
 */
export function SamplePanel({
  applicationId,
  language,
  canEdit,
}: {
  applicationId: number;
  language: SampleLanguage;
  canEdit: boolean;
}) {
  const sampleQuery = useSample(applicationId, language);
  const { label } = sampleLanguageCatalogue[language];

  return (
    <QueryView
      query={sampleQuery}
      loadingLabel={`Loading the ${label} sample…`}
      loadingClassName="grid gap-3"
      skeletons={['h-8 w-2/3', 'h-96 w-full']}
      errorTitle="Error loading the sample"
      fetchErrorMessage={SAMPLE_FETCH_ERROR}
    >
      {(sample) => (
        <SampleCode
          // A reset or another save starts the box from the server's text again.
          key={sample.updatedAt ?? 'default'}
          applicationId={applicationId}
          sample={sample}
          canEdit={canEdit}
        />
      )}
    </QueryView>
  );
}

function SampleCode({
  applicationId,
  sample,
  canEdit,
}: {
  applicationId: number;
  sample: Sample;
  canEdit: boolean;
}) {
  const { label, highlight } = sampleLanguageCatalogue[sample.language];
  const { draft, setDraft, isEditing, shownCode, isSaving, save, editor } = useSampleDraft(
    sample,
    applicationId,
  );
  const [isDiscarding, setIsDiscarding] = useState(false);
  const [isResetting, setIsResetting] = useState(false);
  const resetSample = useResetSample();
  const target = { applicationId, language: sample.language };

  return (
    <div className="grid gap-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <ul aria-label="About this sample" className="flex flex-wrap items-center gap-1.5">
          <li>
            <Badge variant="secondary">{label}</Badge>
          </li>
          <li>
            <Badge variant="outline" className="font-mono">
              {sample.filename}
            </Badge>
          </li>
          <li>
            <Badge variant="success">
              <ShieldCheck aria-hidden="true" />
              Signed responses
            </Badge>
          </li>
          {sample.isCustomized && (
            <li>
              <Badge variant="warning">Customized</Badge>
            </li>
          )}
          {isEditing && (
            <li>
              <Badge variant="muted">Editing</Badge>
            </li>
          )}
        </ul>
        <CodeEditActions
          code={shownCode}
          isEditing={isEditing}
          isSaving={isSaving}
          saveLabel="Save"
          onSave={save}
          onCancel={() => (draft === sample.code ? setDraft(null) : setIsDiscarding(true))}
        >
          <Button
            variant="outline"
            onClick={() => downloadTextFile(sample.filename, shownCode)}
            aria-label={`Download ${sample.filename}`}
          >
            <Download aria-hidden="true" />
            Download
          </Button>
          {canEdit && (
            <Button variant="outline" onClick={() => setDraft(sample.code)}>
              <Pencil aria-hidden="true" />
              Edit Code
            </Button>
          )}
          {canEdit && sample.isCustomized && (
            <Button
              variant="outline"
              disabled={resetSample.isPending}
              onClick={() => setIsResetting(true)}
            >
              <RotateCcw aria-hidden="true" />
              Reset to default
            </Button>
          )}
        </CodeEditActions>
      </div>

      <CodeEditor {...editor} language={highlight} label={`${label} code`} />
      <p className="text-xs text-muted-foreground">
        {isEditing
          ? 'Editing: Tab indents. Press Esc, then Tab, to move on from the code.'
          : `Ready to paste into ${sample.filename}: the API key, base URL, version and signing key are already in it.`}
      </p>

      <ConfirmDialog
        open={isDiscarding}
        onOpenChange={setIsDiscarding}
        title="Discard your changes?"
        description={`Your changes to the ${label} code are not saved and will be lost.`}
        confirmLabel="Discard Changes"
        onConfirm={() => setDraft(null)}
      />
      <ConfirmDialog
        open={isResetting}
        onOpenChange={setIsResetting}
        title="Reset to the default sample?"
        description={`Your edited ${label} code is deleted, and the default sample for this application (its API key, base URL and version) is shown again. This cannot be undone.`}
        confirmLabel="Reset to Default"
        onConfirm={() => resetSample.mutate(target)}
      />
    </div>
  );
}
