import type { License } from '@latchkey/contracts';
import { useId, type ReactNode } from 'react';
import { DialogForm, FormDialog } from '@/components/ui/form-dialog.tsx';
import type { DialogOpenState } from '@/hooks/use-dialog-target.ts';
import { useFormFields } from '@/hooks/use-form-fields.ts';

/** What a prompt's one field is given: its id, its value and setter, and what is wrong with it. */
export interface LicensePromptFieldProps {
  id: string;
  value: string;
  onValueChange: (value: string) => void;
  problem: string | null;
}

/** What the prompt's owner does once the server has answered the act. */
export interface LicensePromptDone {
  /** Closes the dialog: the server agreed. */
  onSuccess: () => void;
  /** Shows a refusal naming the answer at its field. */
  onError: (error: unknown) => void;
}

/**
 * A dialog that asks one thing about a licence key before acting on it (why it is banned,
 * where it is mailed). The answer is checked here first, its problem shown at its field;
 * `onAnswer` gets it trimmed, with what to do once the server has answered.
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
    onAnswer: (license: License, answer: string, done: LicensePromptDone) => void;
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
            onSubmit={(answer, onRefused) =>
              onAnswer(license, answer, { onSuccess: close, onError: onRefused })
            }
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
  onSubmit: (answer: string, onRefused: (error: unknown) => void) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const { bindText, submit, refuse, formRef } = useFormFields({
    initialFields: { answer: '' },
    validateFields: ({ answer }) => {
      const problem = findProblem(answer);
      return problem === null ? {} : { answer: problem };
    },
    // The request's one field is the answer, whatever the act calls it (`reason`, `to`).
    fieldOfPath: () => 'answer',
    onValidSubmit: ({ answer }) => onSubmit(answer.trim(), refuse),
  });

  return (
    <DialogForm
      title={title}
      description={description(license)}
      submitLabel={submitLabel}
      isSubmitting={isSubmitting}
      onSubmit={submit}
      onCancel={onCancel}
      formRef={formRef}
    >
      {renderField({ id: `${id}-answer`, ...bindText('answer') })}
    </DialogForm>
  );
}
