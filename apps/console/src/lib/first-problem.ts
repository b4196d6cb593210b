import type { z } from 'zod';

/**
 * The first problem `schema` finds with `value`, in the words of the contract the server checks
 * too, or null when it passes: what a form shows before it sends anything.
 */
export function firstProblem(schema: z.ZodType, value: unknown): string | null {
  const result = schema.safeParse(value);
  return result.success ? null : (result.error.issues[0]?.message ?? null);
}
