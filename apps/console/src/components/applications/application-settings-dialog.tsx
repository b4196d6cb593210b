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
import { DeviceSettingsGroup } from './device-settings-group.tsx';
import {
  findDeviceSettingsProblem,
  toDeviceSettingsFields,
  toDeviceSettingsRequest,
} from './device-settings.ts';
import { OfflineLicenseSettingsGroup } from './offline-license-settings-group.tsx';
import {
  findOfflineLicenseSettingsProblem,
  toOfflineLicenseSettingsFields,
  toOfflineLicenseSettingsRequest,
} from './offline-license-settings.ts';
import { PortalSettingsGroup } from './portal-settings-group.tsx';
import { useApplicationForm, type ApplicationFormProps } from './use-application-form.ts';
import {
  findPortalSettingsProblem,
  toPortalSettingsFields,
  toPortalSettingsRequest,
} from './portal-settings.ts';

/** The management page's Settings dialog. */
export function ApplicationSettingsDialog({ application }: { application: Application }) {
  return (
    <FormDialog
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

function toSettingsFields(application: Application) {
  return {
    name: application.name,
    version: application.version,
    description: application.description ?? '',
    isActive: application.isActive,
    hwidLockEnabled: application.hwidLockEnabled,
    licenseRequired: application.licenseRequired,
    maxSessions: application.maxSessionsPerUser?.toString() ?? '',
    devices: toDeviceSettingsFields(application),
    offline: toOfflineLicenseSettingsFields(application),
    portal: toPortalSettingsFields(application),
  };
}

function ApplicationSettingsForm(props: ApplicationFormProps) {
  const { application } = props;
  const id = useId();
  // The basic settings are not checked in the console; the server's message explains a
  // refusal. Only the device, portal and offline licence settings are checked first.
  const { fields, setField, bindText, bindChecked, validationError, dialogForm } =
    useApplicationForm(props, {
      toFields: toSettingsFields,
      validate: ({ devices, offline, portal }) =>
        findDeviceSettingsProblem(devices)?.message ??
        findOfflineLicenseSettingsProblem(offline) ??
        findPortalSettingsProblem(portal),
      toChanges: ({ maxSessions, devices, offline, portal, ...settings }) => ({
        ...settings,
        ...toDeviceSettingsRequest(devices),
        ...toOfflineLicenseSettingsRequest(offline),
        ...toPortalSettingsRequest(portal),
        // Empty is "no limit"; anything else goes as typed, and the server explains a refusal.
        maxSessionsPerUser: maxSessions.trim() === '' ? null : Number(maxSessions),
        // The whole body, every time: the messages are sent back unchanged.
        loginSuccessMessage: application.loginSuccessMessage,
        loginFailedMessage: application.loginFailedMessage,
        accountDisabledMessage: application.accountDisabledMessage,
        accountExpiredMessage: application.accountExpiredMessage,
        versionMismatchMessage: application.versionMismatchMessage,
        hwidMismatchMessage: application.hwidMismatchMessage,
      }),
    });

  return (
    <DialogForm
      title="Application Settings"
      description="Changes apply to the next request from your program."
      submitLabel="Update Application"
      {...dialogForm}
      // Each group shows its own problem beside its fields, where a phone scrolled down sees it.
      validationError={null}
      className="gap-5"
    >
      <div className="grid gap-4 sm:grid-cols-[1fr_10rem]">
        <InputField
          id={`${id}-name`}
          label="Application Name"
          {...bindText('name')}
          maxLength={applicationLimits.name}
        />
        <InputField
          id={`${id}-version`}
          label="Version"
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
        type="number"
        inputMode="numeric"
        min={1}
        max={applicationLimits.maxSessionsPerUser}
        step={1}
        {...bindText('maxSessions')}
        placeholder="Unlimited"
        className="w-40"
      />
      <DeviceSettingsGroup
        formId={id}
        fields={fields.devices}
        problem={validationError === null ? null : findDeviceSettingsProblem(fields.devices)}
        onChange={(devices) => setField('devices', devices)}
      />
      <OfflineLicenseSettingsGroup
        formId={id}
        fields={fields.offline}
        problem={
          validationError === null ? null : findOfflineLicenseSettingsProblem(fields.offline)
        }
        onChange={(offline) => setField('offline', offline)}
      />
      <PortalSettingsGroup
        formId={id}
        application={application}
        fields={fields.portal}
        problem={validationError === null ? null : findPortalSettingsProblem(fields.portal)}
        onChange={(portal) => setField('portal', portal)}
      />
    </DialogForm>
  );
}
