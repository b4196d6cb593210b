import { useState, type FormEvent } from 'react';
import type { FormSave } from '@/components/ui/form-dialog.tsx';
import { getErrorToastMessage } from './use-owner-mutation.ts';
import { useFormFields, type FieldProblems } from './use-form-fields.ts';

/**
 * A form in a card (not a dialog) that one save sends: its fields (useFormFields), checked by
 * `validateFields` before anything is sent, sent to `mutation` as `toRequest` makes them. A
 * refusal is shown at the fields it names, else as the card's problem (`cardProblem`, for its
 * CardFormFooter). `form` is what the <form> element takes.
 */
export function useCardForm<Fields extends object, Request>({
  initialFields,
  validateFields,
  mutation,
  toRequest,
  errorMessage,
}: {
  initialFields: Fields | (() => Fields);
  validateFields: (fields: Fields) => FieldProblems;
  mutation: FormSave<Request>;
  toRequest: (fields: Fields) => Request;
  /** What the card says when the server gave no words of its own. */
  errorMessage: string;
}) {
  const [cardProblem, setCardProblem] = useState<string | null>(null);
  const { submit, refuse, formRef, ...formFields } = useFormFields({
    initialFields,
    validateFields,
    onValidSubmit: (fields) => {
      setCardProblem(null);
      mutation.mutate(toRequest(fields), {
        onSuccess: () => undefined,
        onError: (error) => {
          if (!refuse(error)) setCardProblem(getErrorToastMessage(error, errorMessage));
        },
      });
    },
  });
  return {
    ...formFields,
    cardProblem,
    form: {
      ref: formRef,
      noValidate: true,
      onSubmit: (event: FormEvent) => {
        event.preventDefault();
        submit();
      },
    },
  };
}
