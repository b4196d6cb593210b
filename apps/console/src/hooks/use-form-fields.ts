import { useCallback, useState } from 'react';

/**
 * The fields of a dialog's form and the problem that stops it from being sent. `submit` checks
 * the fields with `validate` first and shows its message (clearing the last one) instead of
 * sending, so the owner learns what to fix before any request.
 */
export function useFormFields<Fields extends object>({
  initialFields,
  validate,
  onValidSubmit,
}: {
  initialFields: Fields | (() => Fields);
  /** The message to show, or null when the fields may be sent. */
  validate?: (fields: Fields) => string | null;
  onValidSubmit: (fields: Fields) => void;
}) {
  const [fields, setFields] = useState(initialFields);
  const [validationError, setValidationError] = useState<string | null>(null);

  const setField = useCallback(
    <Name extends keyof Fields>(name: Name, value: Fields[Name]) =>
      setFields((current) => ({ ...current, [name]: value })),
    [],
  );

  const submit = () => {
    const problem = validate?.(fields) ?? null;
    setValidationError(problem);
    if (problem === null) onValidSubmit(fields);
  };

  return { fields, setField, validationError, submit };
}
