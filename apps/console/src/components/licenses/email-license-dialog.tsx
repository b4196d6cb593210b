import { emailLicenseRequestSchema, type License } from '@latchkey/contracts';
import { InputField } from '@/components/ui/form-field.tsx';
import type { DialogOpenState } from '@/hooks/use-dialog-target.ts';
import { firstProblem } from '@/lib/first-problem.ts';
import { LicensePromptDialog, type LicensePromptDone } from './license-prompt-dialog.tsx';

/**
 * "Send by e-mail": the whole key, its plan and how to redeem it, to an address (a buyer's).
 * The address is checked here before anything is sent.
 */
export function EmailLicenseDialog({
  onSend,
  ...dialog
}: DialogOpenState & {
  license: License | null;
  isSubmitting: boolean;
  onSend: (license: License, to: string, done: LicensePromptDone) => void;
}) {
  return (
    <LicensePromptDialog
      {...dialog}
      onAnswer={onSend}
      title="Send key by e-mail"
      description={(license) => (
        <>
          <code className="font-mono text-foreground">{license.key}</code> is mailed whole, with its
          plan and how to redeem it. The mail log keeps the address, never the key.
        </>
      )}
      submitLabel="Send Key"
      findProblem={(to) => firstProblem(emailLicenseRequestSchema, { to })}
      renderField={(field) => (
        <InputField
          {...field}
          label="E-mail address"
          isRequired
          type="email"
          autoComplete="email"
          placeholder="buyer@example.com"
          autoFocus
        />
      )}
    />
  );
}
