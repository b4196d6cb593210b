import { z } from 'zod';

/**
 * One refused field of a request: `field` is its path in the body (`maxSessionsPerUser`,
 * `devices.0.name`), `message` says what is wrong in words a person reads, without the field's
 * name (a form shows it beside the field, whose label names it).
 */
export const fieldProblemSchema = z.object({
  field: z.string(),
  message: z.string(),
});
export type FieldProblem = z.infer<typeof fieldProblemSchema>;

/** The issue a zod error customizer is given (what `safeParse(value, { error })` calls). */
type RawIssue = z.core.$ZodRawIssue;

const count = (n: number | bigint, one: string, many = `${one}s`) =>
  `${n} ${Number(n) === 1 ? one : many}`;

function tooSmallInWords(issue: RawIssue & { code: 'too_small' }): string {
  const { minimum, inclusive, origin } = issue;
  switch (origin) {
    case 'string':
      return Number(minimum) <= 1
        ? 'Must not be empty'
        : `Must be at least ${count(minimum, 'character')}`;
    case 'array':
    case 'set':
      return Number(minimum) <= 1 ? 'Choose at least one' : `Choose at least ${minimum}`;
    default:
      return inclusive === false ? `Must be more than ${minimum}` : `Must be at least ${minimum}`;
  }
}

function tooBigInWords(issue: RawIssue & { code: 'too_big' }): string {
  const { maximum, inclusive, origin } = issue;
  switch (origin) {
    case 'string':
      return `Must be at most ${count(maximum, 'character')}`;
    case 'array':
    case 'set':
      return `At most ${maximum} allowed`;
    default:
      return inclusive === false ? `Must be less than ${maximum}` : `Must be at most ${maximum}`;
  }
}

const typeWords: Record<string, string> = {
  int: 'Must be a whole number',
  number: 'Must be a number',
  string: 'Must be text',
  boolean: 'Must be on or off',
  array: 'Must be a list',
  object: 'Must be an object',
  date: 'Must be a date',
};

const formatWords: Record<string, string> = {
  email: 'Must be an e-mail address',
  url: 'Must be a URL',
  uuid: 'Must be a UUID',
  datetime: 'Must be a date and time',
  date: 'Must be a date',
  ipv4: 'Must be an IPv4 address',
  ipv6: 'Must be an IPv6 address',
};

/**
 * zod's generic problems in words a person reads ("Must be at most 100"), for both sides to use
 * as the error customizer of a parse. A schema's own message (the specification's wording) wins
 * over this; undefined leaves zod's default.
 */
export function issueInWords(issue: RawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'Required' : typeWords[issue.expected];
    case 'too_small':
      return tooSmallInWords(issue);
    case 'too_big':
      return tooBigInWords(issue);
    case 'invalid_format':
      return formatWords[issue.format] ?? 'Is not in the expected format';
    case 'invalid_value':
      return issue.values.length <= 5
        ? `Must be one of: ${issue.values.map(String).join(', ')}`
        : 'Is not one of the allowed values';
    case 'not_multiple_of':
      return `Must be a multiple of ${issue.divisor}`;
    default:
      return undefined;
  }
}

/** A failed parse's problems, one per field (its first), in the order they were found. */
export function fieldProblemsOf(error: z.ZodError): FieldProblem[] {
  const problems = new Map<string, string>();
  for (const issue of error.issues) {
    const field = issue.path.map(String).join('.');
    if (!problems.has(field)) problems.set(field, issue.message);
  }
  return [...problems].map(([field, message]) => ({ field, message }));
}

/**
 * Parses `value` with the words above: the server's parse of a request, and what a console
 * form checks before it sends anything.
 */
export function safeParseInWords<Schema extends z.ZodType>(schema: Schema, value: unknown) {
  return schema.safeParse(value, { error: issueInWords });
}
