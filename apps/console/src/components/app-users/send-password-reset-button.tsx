import type { AppUser } from '@latchkey/contracts';
import { Mail } from 'lucide-react';
import { useId } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { useSendPasswordReset } from '@/hooks/use-mail.ts';
import { useMailDelivery } from '@/hooks/use-mail-delivery.ts';

/**
 * Beside the New Password field: mails the user a link to choose one themselves, so the owner
 * never learns it. Saved at once, not with the account form; unavailable (and saying why)
 * without an address or when the server sends no mail.
 */
export function SendPasswordResetButton({
  applicationId,
  user,
}: {
  applicationId: number;
  user: Pick<AppUser, 'id' | 'email'>;
}) {
  const id = useId();
  const delivery = useMailDelivery();
  const send = useSendPasswordReset(applicationId);
  const why =
    delivery === 'off'
      ? 'This server sends no mail.'
      : user.email
        ? 'Mails a link (valid 30 minutes, once) so the user chooses a new password.'
        : 'Add an e-mail address (and save) to send a link.';
  return (
    <div className="flex flex-wrap items-center gap-3">
      <Button
        type="button"
        variant="outline"
        size="sm"
        disabled={!user.email || delivery === 'off' || send.isPending}
        aria-describedby={`${id}-why`}
        onClick={() => send.mutate(user.id)}
      >
        {send.isPending ? <Spinner /> : <Mail aria-hidden="true" />}
        Send Password Reset
      </Button>
      <p id={`${id}-why`} className="text-xs text-muted-foreground">
        {why}
      </p>
    </div>
  );
}
