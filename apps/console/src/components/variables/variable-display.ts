import {
  createApplicationVariableRequestSchema,
  putUserVariableRequestSchema,
  utf8ByteLength,
  type ApplicationVariable,
  type CreateApplicationVariableRequest,
} from '@latchkey/contracts';
import { contractProblems, firstProblem } from '@/lib/first-problem.ts';

/** The variable form as typed. */
export interface VariableFields {
  name: string;
  value: string;
  requiresSession: boolean;
}

/** A new variable requires a session, as the server's default does. */
export const EMPTY_VARIABLE_FIELDS: VariableFields = {
  name: '',
  value: '',
  requiresSession: true,
};

export function toVariableFields(variable: ApplicationVariable): VariableFields {
  return {
    name: variable.name,
    value: variable.value,
    requiresSession: variable.requiresSession,
  };
}

/** Names are sent as typed but for surrounding spaces, which the rule refuses anyway. */
export function toVariableRequest(fields: VariableFields): CreateApplicationVariableRequest {
  return {
    name: fields.name.trim(),
    value: fields.value,
    requiresSession: fields.requiresSession,
  };
}

/** Each field's problem in the contract's words (the name rule, 64 KB), all at once. */
export function findVariableProblems(fields: VariableFields): Partial<Record<string, string>> {
  return contractProblems(createApplicationVariableRequestSchema, toVariableRequest(fields));
}

/** An end user's variable as typed in their dialog: the 16 KB rule, and the name rule. */
export function validateUserVariable(
  fields: { name: string; value: string },
  nameProblem: (name: string) => string | null,
): string | null {
  return (
    nameProblem(fields.name.trim()) ??
    firstProblem(putUserVariableRequestSchema, { value: fields.value })
  );
}

/** "1.2 KB of 64 KB": how much of its limit a value uses, in UTF-8 as the server counts. */
export function formatValueSize(value: string, limitBytes: number): string {
  const bytes = utf8ByteLength(value);
  const shown = bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
  return `${shown} of ${limitBytes / 1024} KB`;
}

/** The first line of a value, shortened, for a table cell; the whole value is in the dialog. */
export function previewValue(value: string, maxLength = 80): string {
  const firstLine = value.split('\n', 1)[0] ?? '';
  const isCut = firstLine.length > maxLength || firstLine.length < value.length;
  return isCut ? `${firstLine.slice(0, maxLength)}…` : firstLine;
}
