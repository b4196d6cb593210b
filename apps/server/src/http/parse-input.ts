import { fieldProblemsOf, safeParseInWords } from '@latchkey/contracts';
import type { z } from 'zod';
import { AppError } from '../lib/errors.ts';

/**
 * Validates untrusted input against a contract schema. A refusal is a 400 whose message is the
 * first problem, after its path for a script's author (`maxSessionsPerUser: Must be at most
 * 1000`); `fields` lists every refused field with its problem in words alone, for a form to
 * mark them all at once. A schema can carry the specification's wording in its own messages.
 */
export function parseInput<Schema extends z.ZodType>(
  schema: Schema,
  input: unknown,
): z.output<Schema> {
  const result = safeParseInWords(schema, input ?? {});
  if (result.success) return result.data;
  return rejectInput(result.error);
}

function rejectInput(error: z.ZodError): never {
  const problems = fieldProblemsOf(error);
  const [first] = problems;
  const message = !first
    ? 'Invalid request'
    : first.field
      ? `${first.field}: ${first.message}`
      : first.message;
  // A problem of the whole body (a refinement of the object) is the message alone: no field.
  const fields = problems.filter(({ field }) => field !== '');
  throw new AppError('BAD_REQUEST', message, undefined, fields.length > 0 ? fields : undefined);
}
