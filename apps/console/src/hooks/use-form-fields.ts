import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '@/lib/api.ts';

/** The names of the fields holding a value of type Value. */
type FieldsOfType<Fields, Value> = {
  [Name in keyof Fields]: Fields[Name] extends Value ? Name : never;
}[keyof Fields];

/**
 * What is wrong, in words shown beside the field it is about: keyed by the form field's name,
 * or by any other key a form reads (a group of settings keys its fields by request name).
 */
export type FieldProblems = Partial<Record<string, string>>;

/**
 * Where a refused body path is shown: by default the path's first part when the form has a
 * field of that name (`name`, `devices.0.name` → `devices`).
 */
function defaultFieldOfPath(fields: object, path: string): string | undefined {
  const [first = ''] = path.split('.');
  return first in fields ? first : undefined;
}

/**
 * The fields of a dialog's form and the problems that stop it from being sent. `submit` checks
 * the fields first: `validateFields` marks every field with a problem at once (beside each
 * field, the first focused), `validate` gives one message for the whole form; either keeps the
 * form from being sent, so the owner learns what to fix before any request. `refuse` places a
 * server's refusal at the fields it names (the 400's `fields`, mapped by `fieldOfPath`) and
 * says whether it placed any. `bindText` and `bindChecked` wire a field to a text control
 * (InputField, TextareaField: with its problem) or to a Checkbox or Switch; editing a field
 * clears its problem. Give `formRef` to the <form> so a marked field is scrolled to.
 */
export function useFormFields<Fields extends object>({
  initialFields,
  validate,
  validateFields,
  fieldOfPath,
  onValidSubmit,
}: {
  initialFields: Fields | (() => Fields);
  /** The message to show, or null when the fields may be sent. */
  validate?: (fields: Fields) => string | null;
  /** Each field's problem; empty when the fields may be sent. */
  validateFields?: (fields: Fields) => FieldProblems;
  /** Where a refused body path is shown, when not the default (see above). */
  fieldOfPath?: (path: string) => string | undefined;
  onValidSubmit: (fields: Fields) => void;
}) {
  const [fields, setFields] = useState(initialFields);
  const [validationError, setValidationError] = useState<string | null>(null);
  const [problems, setProblems] = useState<FieldProblems>({});
  // Bumped each time problems are shown, so the first marked field is focused once per showing.
  const [shownProblems, setShownProblems] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    if (shownProblems === 0) return;
    const first = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    first?.scrollIntoView?.({ block: 'center' });
    first?.focus({ preventScroll: true });
  }, [shownProblems]);

  const showProblems = useCallback((found: FieldProblems) => {
    setProblems(found);
    if (Object.keys(found).length > 0) setShownProblems((count) => count + 1);
  }, []);

  /** Forgets the problems shown at `keys`: the owner has changed what they were about. */
  const clearProblems = useCallback((keys: readonly string[]) => {
    setProblems((current) => {
      if (!keys.some((key) => current[key] !== undefined)) return current;
      const rest = { ...current };
      for (const key of keys) delete rest[key];
      return rest;
    });
  }, []);

  const setField = useCallback(
    <Name extends keyof Fields>(name: Name, value: Fields[Name]) => {
      setFields((current) => ({ ...current, [name]: value }));
      clearProblems([String(name)]);
    },
    [clearProblems],
  );

  const submit = () => {
    // A problem of the whole body (keyed '', as a contract's refinement of the object is) has
    // no field to sit at: it is the form's message.
    const { '': bodyProblem, ...fieldProblems } = validateFields?.(fields) ?? {};
    const problem = validate?.(fields) ?? bodyProblem ?? null;
    showProblems(fieldProblems);
    setValidationError(problem);
    if (problem === null && Object.keys(fieldProblems).length === 0) onValidSubmit(fields);
  };

  const refuse = (error: unknown): boolean => {
    if (!(error instanceof ApiError)) return false;
    const placed: FieldProblems = {};
    for (const { field, message } of error.fieldProblems) {
      const name = fieldOfPath ? fieldOfPath(field) : defaultFieldOfPath(fields, field);
      if (name !== undefined) placed[name] ??= message;
    }
    showProblems(placed);
    return Object.keys(placed).length > 0;
  };

  const bindText = <Name extends FieldsOfType<Fields, string>>(name: Name) => ({
    value: fields[name] as string,
    onValueChange: (value: string) => setField(name, value as Fields[Name]),
    problem: problems[String(name)] ?? null,
  });

  const bindChecked = <Name extends FieldsOfType<Fields, boolean>>(name: Name) => ({
    checked: fields[name] as boolean,
    onCheckedChange: (checked: boolean | 'indeterminate') =>
      setField(name, (checked === true) as Fields[Name]),
  });

  return {
    fields,
    setField,
    bindText,
    bindChecked,
    problems,
    clearProblems,
    validationError,
    submit,
    refuse,
    formRef,
  };
}
