import { banLicenseRequestSchema, licenseLimits, type License } from '@latchkey/contracts';
import { TextareaField } from '@/components/ui/form-field.tsx';
import type { DialogOpenState } from '@/hooks/use-dialog-target.ts';
import { firstProblem } from '@/lib/first-problem.ts';
import { LicensePromptDialog, type LicensePromptDone } from './license-prompt-dialog.tsx';

/**
 * Banning a key asks why. A used key's grant is taken back from the subscription it extended,
 * so the dialog says so before anything happens.
 */
export function BanLicenseDialog({
  onBan,
  ...dialog
}: DialogOpenState & {
  license: License | null;
  isSubmitting: boolean;
  onBan: (license: License, reason: string, done: LicensePromptDone) => void;
}) {
  return (
    <LicensePromptDialog
      {...dialog}
      onAnswer={onBan}
      title="Ban licence key?"
      description={(license) => (
        <>
          <code className="font-mono text-foreground">{license.key}</code>{' '}
          {license.status === 'used'
            ? `will stop working: what it added to ${license.usedByUsername ?? 'its user'}'s subscription is taken back.`
            : 'can no longer be redeemed.'}{' '}
          You can unban it later.
        </>
      )}
      submitLabel="Ban Key"
      findProblem={(reason) => firstProblem(banLicenseRequestSchema, { reason })}
      renderField={(field) => (
        <TextareaField
          {...field}
          label="Reason"
          isRequired
          placeholder="Chargeback, leaked key, ..."
          maxLength={licenseLimits.bannedReason}
          rows={2}
          autoFocus
        />
      )}
    />
  );
}
