import { z } from 'zod';
import { fieldProblemSchema } from './field-problems.ts';

/** The closed set of owner-API error codes; each maps to one HTTP status on the server. */
export const errorCodeSchema = z.enum([
  'BAD_REQUEST',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RANGE_NOT_SATISFIABLE',
  'RATE_LIMITED',
  'INTERNAL',
  // The database could not be reached for a moment (a restart, a failover): retry after Retry-After.
  'UNAVAILABLE',
  // The management API's refusals, named so a shop's script can tell them apart.
  'TOKEN_INVALID',
  'IP_NOT_ALLOWED',
  'SCOPE_MISSING',
  'PERMISSION_MISSING',
  'IDEMPOTENCY_KEY_REUSED',
  // A mailed link (choose a new password) that expired, was used, or never existed: one answer.
  'LINK_INVALID',
]);
export type ErrorCode = z.infer<typeof errorCodeSchema>;

/** A 503: the database was unreachable for a moment; the same request may succeed after this. */
export const unavailableHeadersSchema = z.object({
  'retry-after': z
    .string()
    .regex(/^\d+$/)
    .meta({ description: 'Seconds to wait before retrying.' }),
});

/** Every owner-API error body. */
export const errorBodySchema = z
  .object({
    message: z.string(),
    code: errorCodeSchema,
    /** A refused request body: every refused field with its problem, for a form to mark. */
    fields: z.array(fieldProblemSchema).optional(),
  })
  .meta({
    id: 'Error',
    description:
      'Every owner-API error: a message to show and a stable code; a refused body also lists its refused fields.',
  });
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const healthSchema = z
  .object({
    status: z.enum(['ok', 'unavailable']),
    database: z.enum(['pglite', 'postgres']),
    identity: z.enum(['emulator', 'firebase']),
  })
  .meta({ id: 'Health' });
export type Health = z.infer<typeof healthSchema>;
