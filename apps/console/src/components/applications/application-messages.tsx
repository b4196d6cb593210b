import {
  applicationMessageFields,
  updateApplicationRequestSchema,
  type Application,
  type ApplicationMessageField,
} from '@latchkey/contracts';
import { MessageSquare } from 'lucide-react';
import { useId } from 'react';
import { CardFormFooter } from '@/components/ui/card-form-footer.tsx';
import { SectionCard } from '@/components/ui/section-card.tsx';
import { useUpdateApplication } from '@/hooks/use-applications.ts';
import { useCardForm } from '@/hooks/use-card-form.ts';
import { contractProblems } from '@/lib/first-problem.ts';
import { ApplicationMessageFields } from './application-message-fields.tsx';

type MessageFields = Record<ApplicationMessageField, string>;

function toMessageFields(application: Application): MessageFields {
  return Object.fromEntries(
    applicationMessageFields.map((field) => [field, application[field]]),
  ) as MessageFields;
}

/**
 * The Messages tab: the six texts a program shows for each outcome, edited here and saved
 * together (the settings dialog edits the same texts with the rest of the settings).
 */
export function ApplicationMessages({ application }: { application: Application }) {
  return (
    <SectionCard
      title="Custom Messages"
      description="What your users see for each outcome. Changes apply to the next request from your program."
      icon={MessageSquare}
    >
      {/* A newer save (here or in the settings dialog) starts the form from the saved texts. */}
      <MessagesForm key={application.updatedAt} application={application} />
    </SectionCard>
  );
}

function MessagesForm({ application }: { application: Application }) {
  const id = useId();
  const update = useUpdateApplication();
  const { bindText, cardProblem, form } = useCardForm({
    initialFields: () => toMessageFields(application),
    validateFields: (fields) => contractProblems(updateApplicationRequestSchema, fields),
    mutation: update,
    toRequest: (changes) => ({ applicationId: application.id, changes }),
    errorMessage: 'Failed to update application',
  });

  return (
    <form {...form} className="grid gap-4">
      <ApplicationMessageFields formId={id} bindText={bindText} />
      <CardFormFooter problem={cardProblem} mutation={update} submitLabel="Save Messages" />
    </form>
  );
}
