import {
  sampleLanguageCatalogue,
  sampleLanguages,
  type Sample,
  type SampleLanguage,
} from '@latchkey/contracts';
import { Pencil } from 'lucide-react';
import type { UseQueryResult } from '@tanstack/react-query';
import { useId, useState, type ReactNode } from 'react';
import { toApplicationOptions } from '@/components/applications/application-scope-select.tsx';
import { CodeEditActions } from '@/components/code/code-edit-actions.tsx';
import { CodeEditor } from '@/components/code/code-editor.tsx';
import { SdkInstall } from '@/components/integration/sdk-install.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Label } from '@/components/ui/label.tsx';
import { OptionSelect } from '@/components/ui/option-select.tsx';
import { QueryView } from '@/components/ui/query-view.tsx';
import { SectionCard } from '@/components/ui/section-card.tsx';
import { useApplications } from '@/hooks/use-applications.ts';
import { useSampleDraft } from '@/hooks/use-sample-draft.ts';
import { useSample, useSampleTemplate } from '@/hooks/use-samples.ts';

/** Radix reserves '' for "no value": the bare template's choice. */
const NO_APPLICATION = 'none';
export const TEMPLATE_FETCH_ERROR = 'Failed to load the template';

/**
 * The top of /code-editor: an application and a language (C# first) choose the template, which
 * is the application's sample (the account's saved edit, else rendered with its API key), or
 * the bare template with YOUR_API_KEY when none is chosen. Saving keeps it in the same store
 * as the /integration page's edits, so both pages show the same code. Each template is a short
 * program on the language's client SDK, so how to install that SDK comes first.
 */
export function CodeTemplateCard() {
  const id = useId();
  const applicationsQuery = useApplications();
  const [applicationChoice, setApplicationChoice] = useState(NO_APPLICATION);
  const [language, setLanguage] = useState<SampleLanguage>('csharp');
  const applications = applicationsQuery.data ?? [];
  const application =
    applications.find((candidate) => String(candidate.id) === applicationChoice) ?? null;

  return (
    <SectionCard
      className="min-w-0"
      title="Code Template"
      description={
        <>
          Client code for your program. Choose an application to get its API key in the code, and
          edit the template you keep for it.
        </>
      }
      contentClassName="grid grid-cols-[minmax(0,1fr)] min-w-0 gap-4"
    >
      <div className="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-4 sm:grid-cols-2">
        <div className="grid grid-cols-[minmax(0,1fr)] min-w-0 gap-1.5">
          <Label htmlFor={`${id}-application`}>Application</Label>
          <OptionSelect
            id={`${id}-application`}
            value={application ? applicationChoice : NO_APPLICATION}
            onValueChange={setApplicationChoice}
            options={[
              { value: NO_APPLICATION, label: 'No application (YOUR_API_KEY)' },
              ...toApplicationOptions(applications),
            ]}
            disabled={applicationsQuery.isPending}
          />
          {applicationsQuery.isError && (
            <p role="alert" className="text-xs text-destructive">
              Your applications could not be loaded: the template keeps its placeholder.
            </p>
          )}
          {applicationsQuery.isSuccess && applications.length === 0 && (
            <p className="text-xs text-muted-foreground">
              You have no applications yet: the template shows YOUR_API_KEY.
            </p>
          )}
        </div>
        <div className="grid grid-cols-[minmax(0,1fr)] min-w-0 gap-1.5">
          <Label htmlFor={`${id}-language`}>Language</Label>
          <OptionSelect
            id={`${id}-language`}
            value={language}
            onValueChange={setLanguage}
            options={sampleLanguages.map((candidate) => ({
              value: candidate,
              label: sampleLanguageCatalogue[candidate].label,
            }))}
          />
        </div>
      </div>
      <SdkInstall
        language={language}
        description="The template below is a whole program built on this client library: install it first, then build or run the template beside it."
      />
      {application ? (
        <ApplicationTemplate applicationId={application.id} language={language} />
      ) : (
        <BareTemplate language={language} />
      )}
    </SectionCard>
  );
}

function ApplicationTemplate({
  applicationId,
  language,
}: {
  applicationId: number;
  language: SampleLanguage;
}) {
  const sampleQuery = useSample(applicationId, language);
  return (
    <TemplateState query={sampleQuery}>
      {(sample) => (
        <TemplateEditor
          // Another application, language or save starts the box from the server's text.
          key={`${applicationId}-${language}-${sample.updatedAt ?? 'default'}`}
          sample={sample}
          applicationId={applicationId}
        />
      )}
    </TemplateState>
  );
}

function BareTemplate({ language }: { language: SampleLanguage }) {
  const templateQuery = useSampleTemplate(language);
  return (
    <TemplateState query={templateQuery}>
      {(sample) => <TemplateEditor key={language} sample={sample} applicationId={null} />}
    </TemplateState>
  );
}

/** A template's box once its query has answered, with the same loading and error states. */
function TemplateState({
  query,
  children,
}: {
  query: UseQueryResult<Sample>;
  children: (sample: Sample) => ReactNode;
}) {
  return (
    <QueryView
      query={query}
      loadingLabel="Loading the template…"
      loadingClassName="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-3"
      skeletons={['h-8 w-1/2', 'h-80 w-full']}
      errorTitle="Error loading the template"
      fetchErrorMessage={TEMPLATE_FETCH_ERROR}
    >
      {children}
    </QueryView>
  );
}

function TemplateEditor({
  sample,
  applicationId,
}: {
  sample: Sample;
  /** Null for the bare template: there is no application to keep an edit for. */
  applicationId: number | null;
}) {
  const { label, highlight } = sampleLanguageCatalogue[sample.language];
  const { setDraft, isEditing, shownCode, isSaving, save, editor } = useSampleDraft(
    sample,
    applicationId,
  );

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] min-w-0 gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="font-mono text-sm text-muted-foreground">{sample.filename}</p>
        <CodeEditActions
          code={shownCode}
          isEditing={isEditing}
          isSaving={isSaving}
          saveLabel="Save Template"
          onSave={save}
          onCancel={() => setDraft(null)}
        >
          <Button
            variant="outline"
            disabled={applicationId === null}
            onClick={() => setDraft(sample.code)}
          >
            <Pencil aria-hidden="true" />
            Edit Template
          </Button>
        </CodeEditActions>
      </div>
      <CodeEditor {...editor} language={highlight} label={`${label} template`} maxHeight="24rem" />
      <p className="text-xs text-muted-foreground">
        {applicationId === null
          ? 'Choose an application to edit and save its template; this one keeps YOUR_API_KEY.'
          : isEditing
            ? 'Editing: Tab indents. Press Esc, then Tab, to move on from the code.'
            : 'The template you keep for this application, also shown on the Integration page.'}
      </p>
    </div>
  );
}
