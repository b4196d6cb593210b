import {
  webhookEventLabels,
  webhookEventNames,
  webhookFormats,
  webhookLimits,
  type Webhook,
} from '@latchkey/contracts';
import { useId, type ReactNode } from 'react';
import { ApplicationScopeSelect } from '@/components/applications/application-scope-select.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Checkbox } from '@/components/ui/checkbox.tsx';
import {
  CreateFormDialog,
  DialogForm,
  EditFormDialog,
  useCreateOrEditForm,
  type CreateOrEditFormProps,
} from '@/components/ui/form-dialog.tsx';
import { ChoiceBox, FormField, InputField } from '@/components/ui/form-field.tsx';
import { Label } from '@/components/ui/label.tsx';
import { labelledOptions, OptionSelect } from '@/components/ui/option-select.tsx';
import { Switch } from '@/components/ui/switch.tsx';
import type { DialogOpenState } from '@/hooks/use-dialog-target.ts';
import { useCreateWebhook, useUpdateWebhook } from '@/hooks/use-webhooks.ts';
import {
  ALL_APPLICATIONS_LABEL,
  ALL_APPLICATIONS_VALUE,
  EMPTY_WEBHOOK_FIELDS,
  findWebhookProblems,
  toggleEvent,
  toWebhookFields,
  toWebhookRequest,
  webhookFieldOf,
  webhookFormatHints,
  webhookFormatLabels,
  type WebhookFields,
} from './webhook-display.ts';

/** The Create Webhook dialog, opened from its own button. */
export function CreateWebhookDialog({ trigger }: { trigger?: ReactNode }) {
  const createWebhook = useCreateWebhook();

  return (
    <CreateFormDialog
      label="Create Webhook"
      trigger={trigger}
      className="sm:max-w-2xl"
      description="Send your applications' login, failure and session events to a URL: a Discord or Slack channel, or your own server."
      initialFields={EMPTY_WEBHOOK_FIELDS}
      mutation={createWebhook}
      toRequest={toWebhookRequest}
    >
      {(form) => (
        <WebhookForm
          {...form}
          secretHint="Leave blank and a signing secret (whsec_…) is generated for you."
        />
      )}
    </CreateFormDialog>
  );
}

/** The Edit dialog, for the webhook a row asked for. */
export function EditWebhookDialog({
  webhook,
  ...openState
}: DialogOpenState & {
  webhook: Webhook | null;
}) {
  const updateWebhook = useUpdateWebhook();

  return (
    <EditFormDialog
      item={webhook}
      {...openState}
      className="sm:max-w-2xl"
      title="Edit Webhook"
      description="Changes apply to events from now on; deliveries already queued keep their content."
      toFields={toWebhookFields}
      mutation={updateWebhook}
      toRequest={(fields, { id }) => ({ webhookId: id, changes: toWebhookRequest(fields) })}
    >
      {(form, { secret }) => (
        <WebhookForm {...form} secretHint={`Current secret: ${secret}. Leave blank to keep it.`} />
      )}
    </EditFormDialog>
  );
}

function WebhookForm({
  secretHint,
  ...form
}: CreateOrEditFormProps<WebhookFields> & { secretHint: string }) {
  const id = useId();
  // Every problem at its field, all at once: the URL's at the URL, "choose at least one
  // event" at the events.
  const { fields, setField, bindText, bindChecked, problems, dialogForm } = useCreateOrEditForm(
    form,
    () => null,
    { validateFields: findWebhookProblems, fieldOfPath: webhookFieldOf },
  );

  const allEventsChosen = fields.events.length === webhookEventNames.length;
  const eventsProblem = problems.events;
  const eventsProblemId = `${id}-events-problem`;

  return (
    <DialogForm {...dialogForm}>
      <InputField
        id={`${id}-url`}
        label="Webhook URL"
        isRequired
        hint="https:// only; Discord and Slack webhook URLs are recognised."
        type="url"
        inputMode="url"
        {...bindText('url')}
        placeholder="https://discord.com/api/webhooks/…"
        maxLength={webhookLimits.url}
        autoComplete="off"
        spellCheck={false}
        autoFocus
      />
      <InputField
        id={`${id}-secret`}
        label="Secret (optional)"
        hint={secretHint}
        {...bindText('secret')}
        placeholder="whsec_…"
        maxLength={webhookLimits.secret}
        autoComplete="off"
        spellCheck={false}
      />

      <div
        role="group"
        aria-labelledby={`${id}-events`}
        aria-describedby={eventsProblem ? eventsProblemId : undefined}
        className="grid gap-3"
      >
        <div className="flex flex-wrap items-center justify-between gap-2">
          <span id={`${id}-events`} className="text-sm font-medium">
            Events{' '}
            <span aria-hidden="true" className="text-destructive">
              *
            </span>
          </span>
          <Button
            variant="ghost"
            size="sm"
            onClick={() => setField('events', allEventsChosen ? [] : [...webhookEventNames])}
          >
            {allEventsChosen ? 'Clear all' : 'Select all'}
          </Button>
        </div>
        <ChoiceBox problem={eventsProblem} problemId={eventsProblemId} className="gap-x-4 gap-y-3">
          {webhookEventNames.map((event) => (
            <Label
              key={event}
              htmlFor={`${id}-event-${event}`}
              className="cursor-pointer font-normal"
            >
              <Checkbox
                id={`${id}-event-${event}`}
                checked={fields.events.includes(event)}
                // Each box is what the problem asks to change: the first one is focused.
                aria-invalid={eventsProblem ? true : undefined}
                aria-describedby={eventsProblem ? eventsProblemId : undefined}
                onCheckedChange={(checked) =>
                  setField(
                    'events',
                    toggleEvent(fields.events, event, checked === true, webhookEventNames),
                  )
                }
              />
              {webhookEventLabels[event]}
            </Label>
          ))}
        </ChoiceBox>
      </div>

      <div className="grid gap-4 sm:grid-cols-2">
        <FormField htmlFor={`${id}-application`} label="Application">
          <ApplicationScopeSelect
            id={`${id}-application`}
            {...bindText('scope')}
            allValue={ALL_APPLICATIONS_VALUE}
            allLabel={ALL_APPLICATIONS_LABEL}
          />
        </FormField>
        <FormField htmlFor={`${id}-format`} label="Format" hint={webhookFormatHints[fields.format]}>
          <OptionSelect
            id={`${id}-format`}
            value={fields.format}
            onValueChange={(format) => setField('format', format)}
            options={labelledOptions(webhookFormats, webhookFormatLabels)}
            aria-describedby={`${id}-format-hint`}
          />
        </FormField>
      </div>

      <Label htmlFor={`${id}-active`} className="w-fit cursor-pointer">
        <Switch id={`${id}-active`} {...bindChecked('isActive')} />
        Active
      </Label>
    </DialogForm>
  );
}
