import {
  mailKindLabels,
  mailKinds,
  mailLimits,
  mailTemplateValues,
  type Application,
  type MailKind,
  type MailTemplate,
  type MailTemplateRequest,
} from '@latchkey/contracts';
import { Eye, RotateCcw, Send } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { InputField, TextareaField } from '@/components/ui/form-field.tsx';
import { Label } from '@/components/ui/label.tsx';
import { labelledOptions, OptionSelect } from '@/components/ui/option-select.tsx';
import { SectionCard } from '@/components/ui/section-card.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import {
  useMailTemplates,
  usePreviewMailTemplate,
  useSaveMailTemplate,
  useSendTestMail,
} from '@/hooks/use-mail.ts';
import { useMailDelivery } from '@/hooks/use-mail-delivery.ts';
import { getErrorToastMessage } from '@/hooks/use-owner-mutation.ts';

export const TEMPLATES_FETCH_ERROR = 'Failed to fetch the mail templates';

/**
 * The wording of each kind of mail: pick a kind, edit its subject, text and HTML (Mustache:
 * `{{name}}` for each value the kind offers, escaped in the HTML), preview it with sample
 * values, save it, send the saved wording to yourself, or go back to the default.
 */
export function MailTemplatesCard({ application }: { application: Application }) {
  const templatesQuery = useMailTemplates(application.id);
  const [kind, setKind] = useState<MailKind>('password_reset');
  return (
    <SectionCard
      title="Templates"
      description="What each mail says. The defaults need no editing; yours replace them for this application."
    >
      <div className="flex flex-col gap-4">
        <div className="flex max-w-72 flex-col gap-1.5">
          <Label htmlFor="mail-template-kind">Mail</Label>
          <OptionSelect
            id="mail-template-kind"
            value={kind}
            onValueChange={(chosen: MailKind) => setKind(chosen)}
            options={labelledOptions(mailKinds, mailKindLabels)}
          />
        </div>
        {templatesQuery.isPending ? (
          <div role="status" aria-label="Loading the templates" className="grid gap-2">
            <Skeleton className="h-9 w-full" />
            <Skeleton className="h-32 w-full" />
          </div>
        ) : templatesQuery.isError ? (
          <p role="alert" className="text-sm text-destructive">
            {getErrorToastMessage(templatesQuery.error, TEMPLATES_FETCH_ERROR)}
          </p>
        ) : (
          <TemplateForm
            key={`${kind}-${templatesQuery.dataUpdatedAt}`}
            applicationId={application.id}
            template={templatesQuery.data.find((each) => each.kind === kind)!}
          />
        )}
      </div>
    </SectionCard>
  );
}

function TemplateForm({
  applicationId,
  template,
}: {
  applicationId: number;
  template: MailTemplate;
}) {
  const { kind } = template;
  const [draft, setDraft] = useState<MailTemplateRequest>({
    subject: template.subject,
    text: template.text,
    html: template.html,
  });
  const [isResetAsked, setIsResetAsked] = useState(false);
  const save = useSaveMailTemplate(applicationId);
  const preview = usePreviewMailTemplate(applicationId);
  const sendTest = useSendTestMail(applicationId);
  const canMail = useMailDelivery() !== 'off';
  const isChanged =
    draft.subject !== template.subject ||
    draft.text !== template.text ||
    draft.html !== template.html;
  const refusal = save.isError ? getErrorToastMessage(save.error, 'Failed to save') : null;
  const previewRefusal = preview.isError
    ? getErrorToastMessage(preview.error, 'Failed to preview')
    : null;
  const field = (part: keyof MailTemplateRequest) => ({
    id: `mail-template-${part}`,
    value: draft[part],
    onValueChange: (value: string) => setDraft({ ...draft, [part]: value }),
    'aria-invalid': refusal?.startsWith(`${part}: `) || undefined,
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ kind, template: draft });
  };

  return (
    <form className="flex flex-col gap-4" onSubmit={submit} noValidate>
      <p className="text-sm text-muted-foreground">
        {template.isDefault ? (
          <Badge variant="secondary">Default</Badge>
        ) : (
          <Badge variant="outline">Customised</Badge>
        )}{' '}
        Values: {mailTemplateValues[kind].map((name) => `{{${name}}}`).join(', ')}
      </p>
      <InputField label="Subject" maxLength={mailLimits.subject} {...field('subject')} />
      <TextareaField
        label="Text"
        hint="The plain-text body, as most mail programs show it first."
        rows={8}
        className="font-mono text-xs"
        {...field('text')}
      />
      <TextareaField
        label="HTML"
        hint="Values are escaped for you: write {{name}}, never {{{name}}}."
        rows={8}
        className="font-mono text-xs"
        {...field('html')}
      />
      {(refusal ?? previewRefusal) && (
        <p role="alert" className="text-sm text-destructive">
          {refusal ?? previewRefusal}
        </p>
      )}
      {preview.data && !preview.isError && (
        <section
          aria-label="Preview"
          className="grid gap-2 rounded-md border bg-muted/40 p-3 text-sm"
        >
          <p className="font-medium break-words">{preview.data.subject}</p>
          <p className="font-mono text-xs break-words whitespace-pre-wrap">{preview.data.text}</p>
        </section>
      )}
      <div className="flex flex-wrap justify-end gap-2">
        {!template.isDefault && (
          <Button type="button" variant="ghost" onClick={() => setIsResetAsked(true)}>
            <RotateCcw aria-hidden="true" />
            Reset to Default
          </Button>
        )}
        <Button
          type="button"
          variant="outline"
          disabled={preview.isPending}
          onClick={() => preview.mutate({ kind, template: draft })}
        >
          {preview.isPending ? <Spinner /> : <Eye aria-hidden="true" />}
          Preview
        </Button>
        <Button
          type="button"
          variant="outline"
          // The saved wording is what goes out: unsaved changes first need Save.
          disabled={!canMail || isChanged || sendTest.isPending}
          title={
            isChanged ? 'Save your changes first: the test sends the saved wording' : undefined
          }
          onClick={() => sendTest.mutate(kind)}
        >
          {sendTest.isPending ? <Spinner /> : <Send aria-hidden="true" />}
          Send Test to Me
        </Button>
        <Button type="submit" disabled={!isChanged || save.isPending}>
          {save.isPending && <Spinner />}
          Save Template
        </Button>
      </div>
      <ConfirmDialog
        open={isResetAsked}
        onOpenChange={setIsResetAsked}
        title="Reset to the default?"
        description={`Your wording of the ${mailKindLabels[kind].toLowerCase()} mail is replaced by the built-in one.`}
        confirmLabel="Reset Template"
        onConfirm={() => save.mutate({ kind, template: null })}
      />
    </form>
  );
}
