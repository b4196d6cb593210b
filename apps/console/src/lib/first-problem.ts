import { fieldProblemsOf, safeParseInWords } from '@latchkey/contracts';
import type { z } from 'zod';

/**
 * The first problem `schema` finds with `value`, in the words of the contract the server checks
 * too, or null when it passes: what a form shows before it sends anything.
 */
export function firstProblem(schema: z.ZodType, value: unknown): string | null {
  const result = safeParseInWords(schema, value);
  return result.success ? null : (result.error.issues[0]?.message ?? null);
}

/**
 * Every problem `schema` finds with `value`, keyed by where a form shows it (`keyOf` the
 * field's path; by default the path's first part), each in the words the server would answer
 * with: empty when the value may be sent.
 */
export function contractProblems(
  schema: z.ZodType,
  value: unknown,
  keyOf: (path: string) => string = (path) => path.split('.')[0] ?? path,
): Partial<Record<string, string>> {
  const result = safeParseInWords(schema, value);
  if (result.success) return {};
  const problems: Partial<Record<string, string>> = {};
  for (const { field, message } of fieldProblemsOf(result.error))
    problems[keyOf(field)] ??= message;
  return problems;
}
