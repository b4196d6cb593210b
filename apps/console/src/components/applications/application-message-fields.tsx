import {
  applicationLimits,
  applicationMessageFields,
  applicationMessageLabels,
  type ApplicationMessageField,
} from '@latchkey/contracts';
import { TextareaField } from '@/components/ui/form-field.tsx';

/** What one message's text area takes from its form (a fields hook's `bindText`). */
interface BoundText {
  value: string;
  onValueChange: (value: string) => void;
  problem: string | null;
}

/**
 * The six texts a program shows for each outcome, as text areas: a message may be a few lines
 * (what to do next, where to buy), and its length limit is counted near the end.
 */
export function ApplicationMessageFields({
  formId,
  bindText,
}: {
  formId: string;
  bindText: (field: ApplicationMessageField) => BoundText;
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {applicationMessageFields.map((field) => (
        <TextareaField
          id={`${formId}-${field}`}
          key={field}
          label={`${applicationMessageLabels[field]} message`}
          {...bindText(field)}
          maxLength={applicationLimits.message}
          rows={2}
          isRequired
        />
      ))}
    </div>
  );
}
