import { useCallback, useState } from 'react';

/** The names of the fields holding a value of type Value. */
type FieldsOfType<Fields, Value> = {
  [Name in keyof Fields]: Fields[Name] extends Value ? Name : never;
}[keyof Fields];

/**
 * The fields of a dialog's form and the problem that stops it from being sent. `submit` checks
 * the fields with `validate` first and shows its message (clearing the last one) instead of
 * sending, so the owner learns what to fix before any request. `bindText` and `bindChecked`
 * wire a field to a text control (InputField, TextareaField) or to a Checkbox or Switch.
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

  const bindText = <Name extends FieldsOfType<Fields, string>>(name: Name) => ({
    value: fields[name] as string,
    onValueChange: (value: string) => setField(name, value as Fields[Name]),
  });

  const bindChecked = <Name extends FieldsOfType<Fields, boolean>>(name: Name) => ({
    checked: fields[name] as boolean,
    onCheckedChange: (checked: boolean | 'indeterminate') =>
      setField(name, (checked === true) as Fields[Name]),
  });

  return { fields, setField, bindText, bindChecked, validationError, submit };
}
