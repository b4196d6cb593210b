import {
  applicationLimits,
  updateApplicationRequestSchema,
  type Application,
} from '@latchkey/contracts';
import { InputField } from '@/components/ui/form-field.tsx';
import { CardFormFooter } from '@/components/ui/card-form-footer.tsx';
import { InfoNote } from '@/components/ui/info-note.tsx';
import { SectionCard } from '@/components/ui/section-card.tsx';
import { useUpdateApplication } from '@/hooks/use-applications.ts';
import { useCardForm } from '@/hooks/use-card-form.ts';
import { useMailDelivery } from '@/hooks/use-mail-delivery.ts';
import { contractProblems } from '@/lib/first-problem.ts';

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
  const { bindText, cardProblem, form } = useCardForm({
    initialFields: {
      mailSenderName: application.mailSenderName ?? '',
      mailReplyTo: application.mailReplyTo ?? '',
    },
    validateFields: (fields) => contractProblems(updateApplicationRequestSchema, fields),
    mutation: update,
    toRequest: (changes) => ({ applicationId: application.id, changes }),
    errorMessage: 'Failed to save',
  });
  const note = delivery ? mailDeliveryNotes[delivery] : null;

  return (
    <SectionCard
      title="Sender"
      description="Who your end users see the mail from, and where their answers go."
    >
      <form {...form} className="flex flex-col gap-4">
        {note && <InfoNote>{note}</InfoNote>}
        <div className="grid gap-4 sm:grid-cols-2">
          <InputField
            id="mail-sender-name"
            label="Sender name"
            hint={`Empty uses the application's name. At most ${applicationLimits.mailSenderName} characters.`}
            {...bindText('mailSenderName')}
            placeholder={application.name}
            autoComplete="off"
          />
          <InputField
            id="mail-reply-to"
            label="Reply-to address"
            hint="Your support address: answers to the mail go there. Empty: no Reply-To."
            type="email"
            {...bindText('mailReplyTo')}
            placeholder="support@example.com"
            autoComplete="email"
          />
        </div>
        <CardFormFooter problem={cardProblem} mutation={update} submitLabel="Save Sender" />
      </form>
    </SectionCard>
  );
}
