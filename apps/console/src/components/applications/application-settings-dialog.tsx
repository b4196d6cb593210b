import {
  applicationLimits,
  DEFAULT_APPLICATION_VERSION,
  type Application,
} from '@latchkey/contracts';
import { Settings } from 'lucide-react';
import { useId } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { DialogForm, FormDialog } from '@/components/ui/form-dialog.tsx';
import { InputField, SwitchField, TextareaField } from '@/components/ui/form-field.tsx';
import type { DialogOpenState } from '@/hooks/use-dialog-target.ts';
import { ApplicationMessageFields } from './application-message-fields.tsx';
import {
  findApplicationSettingsProblems,
  settingsProblemKeyOf,
  toApplicationSettingsFields,
  toApplicationSettingsRequest,
} from './application-settings-fields.ts';
import { DeviceSettingsGroup } from './device-settings-group.tsx';
import { OfflineLicenseSettingsGroup } from './offline-license-settings-group.tsx';
import { PortalSettingsGroup } from './portal-settings-group.tsx';
import { SettingsGroup } from './settings-group.tsx';
import { TrialSettingsGroup } from './trial-settings-group.tsx';
import { useApplicationForm, type ApplicationFormProps } from './use-application-form.ts';

const DIALOG_CLASSES = 'sm:max-w-2xl';

/**
 * The one place an application's settings are edited: the management page opens it from its
 * Settings button.
 */
export function ApplicationSettingsDialog({ application }: { application: Application }) {
  return (
    <FormDialog
      className={DIALOG_CLASSES}
      trigger={
        <Button variant="outline">
          <Settings aria-hidden="true" />
          Settings
        </Button>
      }
    >
      {(close) => <ApplicationSettingsForm application={application} onDone={close} />}
    </FormDialog>
  );
}

/** The same dialog, opened by a row of the dashboard's applications table for its application. */
export function EditApplicationSettingsDialog({
  application,
  ...openState
}: DialogOpenState & { application: Application | null }) {
  return (
    <FormDialog className={DIALOG_CLASSES} {...openState}>
      {(close) =>
        application && (
          <ApplicationSettingsForm
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

/**
 * Every setting in one scrolling form, grouped under headings rather than tabs: a refusal marks
 * each field it is about at once, and the first is scrolled to, which a hidden tab would hide.
 */
function ApplicationSettingsForm(props: ApplicationFormProps) {
  const { application } = props;
  const id = useId();
  const { fields, setField, bindText, bindChecked, problems, clearProblems, dialogForm } =
    useApplicationForm(props, {
      toFields: toApplicationSettingsFields,
      validateFields: findApplicationSettingsProblems,
      fieldOfPath: settingsProblemKeyOf,
      toChanges: toApplicationSettingsRequest,
    });
  // A group's fields are keyed by their request names: a change forgets the problems of the
  // fields it changed.
  const changeGroup =
    <Group extends 'devices' | 'offline' | 'portal' | 'trial'>(group: Group) =>
    (value: (typeof fields)[Group]) => {
      const before = new Map(Object.entries(fields[group]));
      clearProblems(
        Object.entries(value).flatMap(([key, typed]) => (typed === before.get(key) ? [] : [key])),
      );
      setField(group, value);
    };

  return (
    <DialogForm
      title="Application Settings"
      description={`Changes to ${application.name} apply to the next request from your program.`}
      descriptionClassName="wrap-anywhere"
      submitLabel="Update Application"
      {...dialogForm}
      className="gap-5"
    >
      <div className="grid gap-4 sm:grid-cols-[1fr_10rem]">
        <InputField
          id={`${id}-name`}
          label="Application Name"
          isRequired
          {...bindText('name')}
          maxLength={applicationLimits.name}
        />
        <InputField
          id={`${id}-version`}
          label="Version"
          isRequired
          {...bindText('version')}
          placeholder={DEFAULT_APPLICATION_VERSION}
          maxLength={applicationLimits.version}
        />
      </div>
      <TextareaField
        id={`${id}-description`}
        label="Description"
        {...bindText('description')}
        maxLength={applicationLimits.description}
        rows={3}
      />
      <div className="grid divide-y divide-border rounded-lg border border-border">
        <SwitchField
          id={`${id}-active`}
          label="Application Active"
          hint="An inactive application refuses every client request."
          {...bindChecked('isActive')}
          fieldClassName="p-4"
        />
        <SwitchField
          id={`${id}-hwid-lock`}
          label="Hardware ID Locking"
          hint="Lock each user to the device they first log in from, to prevent account sharing."
          {...bindChecked('hwidLockEnabled')}
          fieldClassName="p-4"
        />
        <SwitchField
          id={`${id}-license-required`}
          label="Require a licence key"
          hint="Registering needs a valid key, and users without an active subscription cannot log in."
          {...bindChecked('licenseRequired')}
          fieldClassName="p-4"
        />
      </div>
      <InputField
        id={`${id}-max-sessions`}
        label="Sessions per User"
        hint="How many sessions one user may have open at once; starting one more ends the oldest. Leave empty for no limit."
        inputMode="numeric"
        autoComplete="off"
        {...bindText('maxSessions')}
        placeholder="Unlimited"
        className="w-40"
      />
      <DeviceSettingsGroup
        formId={id}
        fields={fields.devices}
        problems={problems}
        onChange={changeGroup('devices')}
      />
      <OfflineLicenseSettingsGroup
        formId={id}
        fields={fields.offline}
        problems={problems}
        onChange={changeGroup('offline')}
      />
      <PortalSettingsGroup
        formId={id}
        application={application}
        fields={fields.portal}
        problems={problems}
        onChange={changeGroup('portal')}
      />
      <TrialSettingsGroup
        formId={id}
        fields={fields.trial}
        problems={problems}
        onChange={changeGroup('trial')}
      />
      <SettingsGroup
        id={`${id}-messages`}
        title="Custom Messages"
        description="What your program shows your users for each outcome."
      >
        <ApplicationMessageFields formId={id} bindText={bindText} />
      </SettingsGroup>
    </DialogForm>
  );
}
