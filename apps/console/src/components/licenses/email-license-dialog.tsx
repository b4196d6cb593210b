import { emailLicenseRequestSchema, type License } from '@latchkey/contracts';
import { useId } from 'react';
import { DialogForm, FormDialog } from '@/components/ui/form-dialog.tsx';
import { InputField } from '@/components/ui/form-field.tsx';
import type { DialogOpenState } from '@/hooks/use-dialog-target.ts';
import { useFormFields } from '@/hooks/use-form-fields.ts';

/**
 * "Send by e-mail": the whole key, its plan and how to redeem it, to an address (a buyer's).
 * The address is checked here before anything is sent.
 */
export function EmailLicenseDialog({
  license,
  isSubmitting,
  onSend,
  ...openState
}: DialogOpenState & {
  license: License | null;
  isSubmitting: boolean;
  onSend: (license: License, to: string, close: () => void) => void;
}) {
  return (
    <FormDialog {...openState}>
      {(close) =>
        license && (
          <EmailLicenseForm
            key={license.id}
            license={license}
            isSubmitting={isSubmitting}
            onSubmit={(to) => onSend(license, to, close)}
            onCancel={close}
          />
        )
      }
    </FormDialog>
  );
}

function EmailLicenseForm({
  license,
  isSubmitting,
  onSubmit,
  onCancel,
}: {
  license: License;
  isSubmitting: boolean;
  onSubmit: (to: string) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const { bindText, validationError, submit } = useFormFields({
    initialFields: { to: '' },
    validate: (typed) => {
      const result = emailLicenseRequestSchema.safeParse(typed);
      return result.success ? null : (result.error.issues[0]?.message ?? null);
    },
    onValidSubmit: ({ to }) => onSubmit(to.trim()),
  });

  return (
    <DialogForm
      title="Send key by e-mail"
      description={
        <>
          <code className="font-mono text-foreground">{license.key}</code> is mailed whole, with its
          plan and how to redeem it. The mail log keeps the address, never the key.
        </>
      }
      validationError={validationError}
      submitLabel="Send Key"
      isSubmitting={isSubmitting}
      onSubmit={submit}
      onCancel={onCancel}
    >
      <InputField
        id={`${id}-to`}
        label="E-mail address"
        isRequired
        type="email"
        autoComplete="email"
        placeholder="buyer@example.com"
        {...bindText('to')}
        autoFocus
      />
    </DialogForm>
  );
}
