import type { z } from 'zod';
import { badRequest } from '../lib/errors.ts';

/**
 * Validates untrusted input against a contract schema. The first problem becomes the
 * 400's message; a schema can carry the spec's wording in its own error messages.
 */
export function parseInput<Schema extends z.ZodType>(
  schema: Schema,
  input: unknown,
): z.output<Schema> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  throw badRequest(issue ? `${field}${issue.message}` : 'Invalid request');
}
