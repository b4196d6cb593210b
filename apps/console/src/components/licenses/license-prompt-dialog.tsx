import type { License } from '@latchkey/contracts';
import { useId, type ReactNode } from 'react';
import { DialogForm, FormDialog } from '@/components/ui/form-dialog.tsx';
import type { DialogOpenState } from '@/hooks/use-dialog-target.ts';
import { useFormFields } from '@/hooks/use-form-fields.ts';

/** What a prompt's one field is given: its id, and its value and setter. */
export interface LicensePromptFieldProps {
  id: string;
  value: string;
  onValueChange: (value: string) => void;
}

/**
 * A dialog that asks one thing about a licence key before acting on it (why it is banned,
 * where it is mailed). The answer is checked here first; `onAnswer` gets it trimmed, with a
 * way to close the dialog once the server has agreed.
 */
export function LicensePromptDialog({
  open,
  onOpenChange,
  license,
  isSubmitting,
  onAnswer,
  ...text
}: DialogOpenState &
  PromptText & {
    license: License | null;
    isSubmitting: boolean;
    onAnswer: (license: License, answer: string, close: () => void) => void;
  }) {
  return (
    <FormDialog open={open} onOpenChange={onOpenChange}>
      {(close) =>
        license && (
          <LicensePromptForm
            key={license.id}
            {...text}
            license={license}
            isSubmitting={isSubmitting}
            onSubmit={(answer) => onAnswer(license, answer, close)}
            onCancel={close}
          />
        )
      }
    </FormDialog>
  );
}

interface PromptText {
  title: string;
  description: (license: License) => ReactNode;
  submitLabel: string;
  /** The problem with the typed answer, in the owner's words, or null when it may be sent. */
  findProblem: (answer: string) => string | null;
  renderField: (field: LicensePromptFieldProps) => ReactNode;
}

function LicensePromptForm({
  license,
  isSubmitting,
  onSubmit,
  onCancel,
  title,
  description,
  submitLabel,
  findProblem,
  renderField,
}: PromptText & {
  license: License;
  isSubmitting: boolean;
  onSubmit: (answer: string) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const { bindText, validationError, submit } = useFormFields({
    initialFields: { answer: '' },
    validate: ({ answer }) => findProblem(answer),
    onValidSubmit: ({ answer }) => onSubmit(answer.trim()),
  });

  return (
    <DialogForm
      title={title}
      description={description(license)}
      validationError={validationError}
      submitLabel={submitLabel}
      isSubmitting={isSubmitting}
      onSubmit={submit}
      onCancel={onCancel}
    >
      {renderField({ id: `${id}-answer`, ...bindText('answer') })}
    </DialogForm>
  );
}
