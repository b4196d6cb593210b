import { applicationLimits, type Application } from '@latchkey/contracts';
import { useState, type FormEvent } from 'react';
import { InputField } from '@/components/ui/form-field.tsx';
import { CardFormFooter } from '@/components/ui/card-form-footer.tsx';
import { InfoNote } from '@/components/ui/info-note.tsx';
import { SectionCard } from '@/components/ui/section-card.tsx';
import { useUpdateApplication } from '@/hooks/use-applications.ts';
import { useMailDelivery } from '@/hooks/use-mail-delivery.ts';
import { getErrorToastMessage } from '@/hooks/use-owner-mutation.ts';

/** What this server does with mail, in the vendor's words; null until it is known. */
export const mailDeliveryNotes = {
  smtp: null,
  mailbox:
    'This server has no mail server (SMTP_URL): in development, mail stays in the local mailbox below, where you can open it.',
  off: 'This server sends no mail: its operator must set SMTP_URL and MAIL_FROM. Until then your users cannot reset a forgotten password by e-mail.',
} as const;

/**
 * Who the application's mail comes from: the display name beside the server's own address,
 * and the address end users' answers go to (the vendor's, not Latchkey's). A refusal is shown
 * at the field it concerns.
 */
export function MailSenderCard({ application }: { application: Application }) {
  const delivery = useMailDelivery();
  const update = useUpdateApplication();
  const [senderName, setSenderName] = useState(application.mailSenderName ?? '');
  const [replyTo, setReplyTo] = useState(application.mailReplyTo ?? '');
  // The server names the field first ("mailReplyTo: …"): the problem is shown at it.
  const refusal = update.isError ? getErrorToastMessage(update.error, 'Failed to save') : null;
  const [, problemField = null, fieldProblem] = /^(mailSenderName|mailReplyTo): (.*)$/.exec(
    refusal ?? '',
  ) ?? [null, null, null];
  const problem = fieldProblem ?? refusal;
  const note = delivery ? mailDeliveryNotes[delivery] : null;

  const save = (event: FormEvent) => {
    event.preventDefault();
    update.mutate({
      applicationId: application.id,
      changes: { mailSenderName: senderName, mailReplyTo: replyTo },
    });
  };

  return (
    <SectionCard
      title="Sender"
      description="Who your end users see the mail from, and where their answers go."
    >
      <form className="flex flex-col gap-4" onSubmit={save} noValidate>
        {note && <InfoNote>{note}</InfoNote>}
        <div className="grid gap-4 sm:grid-cols-2">
          <InputField
            id="mail-sender-name"
            label="Sender name"
            hint={`Empty uses the application's name. At most ${applicationLimits.mailSenderName} characters.`}
            value={senderName}
            onValueChange={setSenderName}
            placeholder={application.name}
            autoComplete="off"
            aria-invalid={problemField === 'mailSenderName' || undefined}
          />
          <InputField
            id="mail-reply-to"
            label="Reply-to address"
            hint="Your support address: answers to the mail go there. Empty: no Reply-To."
            type="email"
            value={replyTo}
            onValueChange={setReplyTo}
            placeholder="support@example.com"
            autoComplete="email"
            aria-invalid={problemField === 'mailReplyTo' || undefined}
          />
        </div>
        <CardFormFooter problem={problem} mutation={update} submitLabel="Save Sender" />
      </form>
    </SectionCard>
  );
}
