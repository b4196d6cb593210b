import {
  APPLICATION_NAME_REQUIRED,
  applicationLimits,
  applicationMessageFields,
  applicationMessageLabels,
  DEFAULT_APPLICATION_VERSION,
  type Application,
  type ApplicationMessageField,
  type UpdateApplicationRequest,
} from '@latchkey/contracts';
import { Fingerprint, MessageSquare, Settings2 } from 'lucide-react';
import { useId } from 'react';
import { Checkbox } from '@/components/ui/checkbox.tsx';
import { DialogForm, FormDialog } from '@/components/ui/form-dialog.tsx';
import { InputField, TextareaField } from '@/components/ui/form-field.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs.tsx';
import type { DialogOpenState } from '@/hooks/use-dialog-target.ts';
import { useApplicationForm, type ApplicationFormProps } from './use-application-form.ts';

type ApplicationForm = Required<
  Pick<
    UpdateApplicationRequest,
    'name' | 'version' | 'isActive' | 'hwidLockEnabled' | ApplicationMessageField
  >
> & { description: string };

function toForm(application: Application): ApplicationForm {
  const messages = Object.fromEntries(
    applicationMessageFields.map((field) => [field, application[field]]),
  ) as Record<ApplicationMessageField, string>;
  return {
    name: application.name,
    description: application.description ?? '',
    version: application.version,
    isActive: application.isActive,
    hwidLockEnabled: application.hwidLockEnabled,
    ...messages,
  };
}

/** The dashboard's Edit Application dialog with its three tabs. */
export function EditApplicationDialog({
  application,
  ...openState
}: DialogOpenState & {
  application: Application | null;
}) {
  return (
    <FormDialog className="sm:max-w-2xl" {...openState}>
      {(close) =>
        application && (
          <EditApplicationForm
            // Reset to the saved values whenever another application (or a newer save) opens.
            key={`${application.id}:${application.updatedAt}`}
            application={application}
            onDone={close}
          />
        )
      }
    </FormDialog>
  );
}

function EditApplicationForm(props: ApplicationFormProps) {
  const { application } = props;
  const id = useId();
  const { bindText, bindChecked, validationError, dialogForm } = useApplicationForm(props, {
    toFields: toForm,
    validate: ({ name }) => (name.trim() ? null : APPLICATION_NAME_REQUIRED),
    // The whole body, every time.
    toChanges: (changes) => changes,
  });

  return (
    <DialogForm
      title="Edit Application"
      description={`Settings, device locking and the messages your users see for ${application.name}.`}
      submitLabel="Save Changes"
      {...dialogForm}
      className="gap-5"
    >
      <Tabs defaultValue="basic" className="grid gap-4">
        <TabsList containerClassName="w-full sm:w-fit">
          <TabsTrigger value="basic">
            <Settings2 aria-hidden="true" />
            Basic Settings
          </TabsTrigger>
          <TabsTrigger value="security">
            <Fingerprint aria-hidden="true" />
            Security &amp; HWID
          </TabsTrigger>
          <TabsTrigger value="messages">
            <MessageSquare aria-hidden="true" />
            Custom Messages
          </TabsTrigger>
        </TabsList>

        {/* forceMount keeps every tab's fields in the form, so Enter anywhere saves them all. */}
        <TabsContent value="basic" className="grid gap-4 data-[state=inactive]:hidden" forceMount>
          <InputField
            id={`${id}-name`}
            label="Name"
            isRequired
            {...bindText('name')}
            maxLength={applicationLimits.name}
            aria-invalid={validationError ? true : undefined}
          />
          <TextareaField
            id={`${id}-description`}
            label="Description"
            {...bindText('description')}
            maxLength={applicationLimits.description}
            rows={3}
          />
          <InputField
            id={`${id}-version`}
            label="Version"
            hint="Clients reporting a different version are asked to update."
            {...bindText('version')}
            placeholder={DEFAULT_APPLICATION_VERSION}
            maxLength={applicationLimits.version}
          />
          <Label htmlFor={`${id}-active`} className="w-fit cursor-pointer">
            <Checkbox id={`${id}-active`} {...bindChecked('isActive')} />
            Active
          </Label>
        </TabsContent>

        <TabsContent
          value="security"
          className="grid gap-3 data-[state=inactive]:hidden"
          forceMount
        >
          <div className="flex items-start gap-3 rounded-lg border border-border p-4">
            <Checkbox
              id={`${id}-hwid-lock`}
              {...bindChecked('hwidLockEnabled')}
              aria-describedby={`${id}-hwid-lock-hint`}
              className="mt-0.5"
            />
            <div className="grid gap-1.5">
              <Label htmlFor={`${id}-hwid-lock`} className="cursor-pointer">
                Enable HWID lock
              </Label>
              <p id={`${id}-hwid-lock-hint`} className="text-sm text-muted-foreground">
                Users are locked to the device they first log in from, to prevent account sharing.
                Reset a user&apos;s HWID to let them move to a new device.
              </p>
            </div>
          </div>
        </TabsContent>

        <TabsContent
          value="messages"
          className="grid gap-4 data-[state=inactive]:hidden"
          forceMount
        >
          <p className="text-sm text-muted-foreground">
            Shown to your users by your client program.
          </p>
          <div className="grid gap-4 sm:grid-cols-2">
            {applicationMessageFields.map((field) => (
              <InputField
                id={`${id}-${field}`}
                key={field}
                label={`${applicationMessageLabels[field]} message`}
                {...bindText(field)}
                maxLength={applicationLimits.message}
              />
            ))}
          </div>
        </TabsContent>
      </Tabs>
    </DialogForm>
  );
}
