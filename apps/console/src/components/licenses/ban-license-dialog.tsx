import { banLicenseRequestSchema, licenseLimits, type License } from '@latchkey/contracts';
import { useId } from 'react';
import { DialogForm, FormDialog } from '@/components/ui/form-dialog.tsx';
import { TextareaField } from '@/components/ui/form-field.tsx';
import type { DialogOpenState } from '@/hooks/use-dialog-target.ts';
import { useFormFields } from '@/hooks/use-form-fields.ts';

/**
 * Banning a key asks why. A used key's grant is taken back from the subscription it extended,
 * so the dialog says so before anything happens.
 */
export function BanLicenseDialog({
  license,
  isSubmitting,
  onBan,
  ...openState
}: DialogOpenState & {
  license: License | null;
  isSubmitting: boolean;
  onBan: (license: License, reason: string, close: () => void) => void;
}) {
  return (
    <FormDialog {...openState}>
      {(close) =>
        license && (
          <BanLicenseForm
            key={license.id}
            license={license}
            isSubmitting={isSubmitting}
            onSubmit={(reason) => onBan(license, reason, close)}
            onCancel={close}
          />
        )
      }
    </FormDialog>
  );
}

function BanLicenseForm({
  license,
  isSubmitting,
  onSubmit,
  onCancel,
}: {
  license: License;
  isSubmitting: boolean;
  onSubmit: (reason: string) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const { bindText, validationError, submit } = useFormFields({
    initialFields: { reason: '' },
    validate: (typed) => {
      const result = banLicenseRequestSchema.safeParse(typed);
      return result.success ? null : (result.error.issues[0]?.message ?? null);
    },
    onValidSubmit: ({ reason }) => onSubmit(reason.trim()),
  });

  return (
    <DialogForm
      title="Ban licence key?"
      description={
        <>
          <code className="font-mono text-foreground">{license.key}</code>{' '}
          {license.status === 'used'
            ? `will stop working: what it added to ${license.usedByUsername ?? 'its user'}'s subscription is taken back.`
            : 'can no longer be redeemed.'}{' '}
          You can unban it later.
        </>
      }
      validationError={validationError}
      submitLabel="Ban Key"
      isSubmitting={isSubmitting}
      onSubmit={submit}
      onCancel={onCancel}
    >
      <TextareaField
        id={`${id}-reason`}
        label="Reason"
        isRequired
        {...bindText('reason')}
        placeholder="Chargeback, leaked key, ..."
        maxLength={licenseLimits.bannedReason}
        rows={2}
        autoFocus
      />
    </DialogForm>
  );
}
