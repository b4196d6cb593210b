import type { AppUser } from '@latchkey/contracts';
import { CircleAlert, CircleCheck, MailCheck } from 'lucide-react';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { useMarkAppUserEmailVerified } from '@/hooks/use-app-users.ts';

export const ADDRESS_CHANGE_CLEARS_VERIFICATION = 'Saving another address clears its verification.';

/**
 * What the Email field says of its address: the saved one `verified` or `unverified`, or
 * `changed` (typed, not saved: not verified, whatever the saved one was); null for a user
 * without a saved address, or while the field is emptied. Addresses compare as the server
 * compares them: trimmed, in any case.
 */
export function emailVerificationState(
  user: Pick<AppUser, 'email' | 'emailVerified'>,
  typedEmail: string,
): 'verified' | 'unverified' | 'changed' | null {
  const typed = typedEmail.trim().toLowerCase();
  if (user.email === null || typed === '') return null;
  if (typed !== user.email.trim().toLowerCase()) return 'changed';
  return user.emailVerified ? 'verified' : 'unverified';
}

/** The ids that describe the Email field: the badge, and the note of a changed address. */
export function emailVerificationDescription(
  id: string,
  state: ReturnType<typeof emailVerificationState>,
): string | undefined {
  if (state === null) return undefined;
  return state === 'changed' ? `${id} ${id}-note` : id;
}

/**
 * Below the Edit User dialog's Email field: whether the saved address is verified (the user
 * followed the mailed link, or the owner vouched for it), and Mark Verified while it is not.
 * Marking is saved at once, not with the account form. An address typed but not yet saved is
 * not verified: the server clears the verification when the address changes, and marking
 * now would vouch for the old one, so the button waits for the save.
 */
export function EmailVerificationStatus({
  id,
  fieldId,
  applicationId,
  user,
  typedEmail,
  isVerificationRequired,
  onVerified,
}: {
  /** The badge's id (and `${id}-note`'s): see emailVerificationDescription. */
  id: string;
  /** The Email field, which takes focus once the button it replaced is gone. */
  fieldId: string;
  applicationId: number;
  /** The user as saved. */
  user: Pick<AppUser, 'id' | 'email' | 'emailVerified'>;
  typedEmail: string;
  /** The application refuses unverified addresses: an unverified one is worth a look. */
  isVerificationRequired: boolean;
  onVerified: (user: AppUser) => void;
}) {
  const markVerified = useMarkAppUserEmailVerified();
  const state = emailVerificationState(user, typedEmail);
  if (state === null) return null;
  const isVerified = state === 'verified';

  const mark = () =>
    markVerified.mutate(
      { applicationId, userId: user.id },
      {
        onSuccess: (updated) => {
          onVerified(updated);
          document.getElementById(fieldId)?.focus();
        },
      },
    );

  return (
    <div className="flex flex-wrap items-center gap-2">
      <Badge
        id={id}
        data-testid="email-verification"
        variant={isVerified ? 'success' : isVerificationRequired ? 'warning' : 'muted'}
      >
        {isVerified ? <CircleCheck aria-hidden="true" /> : <CircleAlert aria-hidden="true" />}
        {isVerified ? 'Verified' : 'Not verified'}
      </Badge>
      {state === 'unverified' && (
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={markVerified.isPending}
          onClick={mark}
        >
          {markVerified.isPending ? <Spinner /> : <MailCheck aria-hidden="true" />}
          Mark Verified
        </Button>
      )}
      {state === 'changed' && (
        <p id={`${id}-note`} className="text-xs text-muted-foreground">
          {ADDRESS_CHANGE_CLEARS_VERIFICATION}
        </p>
      )}
    </div>
  );
}
