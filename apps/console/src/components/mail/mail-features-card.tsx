import {
  applicationLimits,
  DEFAULT_EXPIRY_REMINDER_DAYS,
  EMAIL_VERIFICATION_LINK_HOURS,
  updateApplicationRequestSchema,
  type Application,
} from '@latchkey/contracts';
import { useRef, useState, type FormEvent } from 'react';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { InputField, SwitchField } from '@/components/ui/form-field.tsx';
import { CardFormFooter } from '@/components/ui/card-form-footer.tsx';
import { InfoNote } from '@/components/ui/info-note.tsx';
import { SectionCard } from '@/components/ui/section-card.tsx';
import { useUpdateApplication } from '@/hooks/use-applications.ts';
import { useMailDelivery } from '@/hooks/use-mail-delivery.ts';
import { getErrorToastMessage } from '@/hooks/use-owner-mutation.ts';
import { parseTypedNumber } from '@/lib/typed-number.ts';
import { firstProblem } from '@/lib/first-problem.ts';

/** Why a switch that is off cannot be turned on. */
export const MAIL_FEATURES_NEED_MAIL =
  'This server sends no mail, so these cannot be switched on: its operator must set SMTP_URL and MAIL_FROM.';

export const REQUIRE_VERIFIED_EMAIL_HINT = `Registration then asks for an e-mail address and mails a link to confirm it (it works ${EMAIL_VERIFICATION_LINK_HOURS} hours). Login, licence-key login and verify refuse an address not yet confirmed. Users registered before, and imported ones, are refused until they confirm theirs or you mark it verified (Edit User).`;

export const NEW_DEVICE_MAIL_HINT =
  'Mails the end user when another device binds to their account under HWID lock, so they notice a login that was not theirs.';

const HWID_LOCK_OFF_NOTE = ' HWID lock is off for this application: none is sent until it is on.';

export const EXPIRY_REMINDERS_HINT =
  'Mails the end user a reminder before a subscription, or the account itself, ends: once per period, none after a renewal. Each reminder carries a link that stops them.';

export const REMINDER_DAYS_HINT = `The reminder goes this many days before the end: 1 to ${applicationLimits.maxExpiryReminderDays}.`;

/** The card's switches: on or off, as saved or as switched. */
type MailFeatures = Pick<Application, 'requireVerifiedEmail' | 'newDeviceMail'> & {
  expiryReminders: boolean;
};

function savedFeaturesOf(application: Application): MailFeatures {
  return {
    requireVerifiedEmail: application.requireVerifiedEmail,
    newDeviceMail: application.newDeviceMail,
    expiryReminders: application.expiryReminderDays !== null,
  };
}

/** The problem of the typed reminder days, in the words of the contract the server checks. */
export function findReminderDaysProblem(typed: string): string | null {
  return firstProblem(updateApplicationRequestSchema, {
    expiryReminderDays: parseTypedNumber(typed),
  });
}

/**
 * The E-mail tab's switches for what the application mails by itself: a link to confirm each
 * address (and the refusal of unconfirmed ones), a notice of a new device, and reminders
 * before an end of access. Saved together with Save Settings; requiring confirmed addresses
 * is confirmed first, as it locks out every user who has not confirmed one yet. While the
 * server sends no mail, a switch that is off stays off (the server would refuse it) and the
 * card says why; one that is on can still be switched off.
 */
export function MailFeaturesCard({ application }: { application: Application }) {
  const delivery = useMailDelivery();
  const update = useUpdateApplication();
  const saved = savedFeaturesOf(application);
  const [features, setFeatures] = useState<MailFeatures>(saved);
  const startingDays = String(application.expiryReminderDays ?? DEFAULT_EXPIRY_REMINDER_DAYS);
  const [reminderDays, setReminderDays] = useState(startingDays);
  const [reminderDaysProblem, setReminderDaysProblem] = useState<string | null>(null);
  const reminderDaysInput = useRef<HTMLInputElement>(null);
  const [isConfirmOpen, setIsConfirmOpen] = useState(false);
  const refusal = update.isError ? getErrorToastMessage(update.error, 'Failed to save') : null;
  const isMailOff = delivery === 'off';
  const noteId = 'mail-features-off';
  const daysId = 'mail-feature-expiryReminderDays';
  /** A switch that is off as saved cannot be turned on while the server sends no mail. */
  const switchProps = (feature: keyof MailFeatures) => {
    const isLocked = isMailOff && !saved[feature];
    return {
      id: `mail-feature-${feature}`,
      checked: features[feature],
      onCheckedChange: (checked: boolean) => setFeatures({ ...features, [feature]: checked }),
      disabled: isLocked,
      'aria-describedby': isLocked
        ? `mail-feature-${feature}-hint ${noteId}`
        : `mail-feature-${feature}-hint`,
    };
  };

  const save = () =>
    update.mutate({
      applicationId: application.id,
      changes: {
        requireVerifiedEmail: features.requireVerifiedEmail,
        newDeviceMail: features.newDeviceMail,
        expiryReminderDays: features.expiryReminders ? parseTypedNumber(reminderDays) : null,
      },
    });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = features.expiryReminders ? findReminderDaysProblem(reminderDays) : null;
    setReminderDaysProblem(problem);
    if (problem !== null) {
      reminderDaysInput.current?.focus();
    } else if (features.requireVerifiedEmail && !application.requireVerifiedEmail) {
      setIsConfirmOpen(true);
    } else {
      save();
    }
  };

  return (
    <SectionCard
      title="Verification and Notices"
      description="What the application mails its end users by itself."
    >
      <form className="flex flex-col gap-4" onSubmit={submit} noValidate>
        {isMailOff && <InfoNote id={noteId}>{MAIL_FEATURES_NEED_MAIL}</InfoNote>}
        <SwitchField
          {...switchProps('requireVerifiedEmail')}
          label="Require a verified e-mail address"
          hint={REQUIRE_VERIFIED_EMAIL_HINT}
        />
        <SwitchField
          {...switchProps('newDeviceMail')}
          label="Mail a new device"
          hint={
            application.hwidLockEnabled
              ? NEW_DEVICE_MAIL_HINT
              : `${NEW_DEVICE_MAIL_HINT}${HWID_LOCK_OFF_NOTE}`
          }
        />
        <SwitchField
          {...switchProps('expiryReminders')}
          onCheckedChange={(checked) => {
            setFeatures({ ...features, expiryReminders: checked });
            // Switched on, the days start again from the saved ones, or the usual week.
            if (checked) setReminderDays(startingDays);
            setReminderDaysProblem(null);
          }}
          label="Mail expiry reminders"
          hint={EXPIRY_REMINDERS_HINT}
        />
        {features.expiryReminders && (
          <div className="grid gap-2">
            <InputField
              ref={reminderDaysInput}
              id={daysId}
              label="Days before"
              hint={REMINDER_DAYS_HINT}
              // Text, not a number input: a browser empties a number input holding "7d",
              // where the owner should read what is wrong with it.
              inputMode="numeric"
              autoComplete="off"
              value={reminderDays}
              onValueChange={(value) => {
                setReminderDays(value);
                setReminderDaysProblem(null);
              }}
              aria-invalid={reminderDaysProblem === null ? undefined : true}
              aria-describedby={
                reminderDaysProblem === null ? `${daysId}-hint` : `${daysId}-hint ${daysId}-error`
              }
              className="w-40"
            />
            {reminderDaysProblem !== null && (
              <p id={`${daysId}-error`} role="alert" className="text-sm text-destructive">
                {reminderDaysProblem}
              </p>
            )}
          </div>
        )}
        <CardFormFooter problem={refusal} mutation={update} submitLabel="Save Settings" />
      </form>
      <ConfirmDialog
        open={isConfirmOpen}
        onOpenChange={setIsConfirmOpen}
        title="Require verified addresses?"
        description={`Every user of ${application.name} whose address is not confirmed, those registered or imported before now included, is refused at login and at the next verify until they follow a link mailed to them (the program can ask for one) or you mark them verified.`}
        confirmLabel="Require Verification"
        variant="default"
        onConfirm={save}
      />
    </SectionCard>
  );
}
