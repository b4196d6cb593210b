import { z } from 'zod';
import { appUserParamsSchema } from './app-users.ts';
import { applicationIdSchema } from './applications.ts';
import { CLEAN_TEXT_MESSAGE, isCleanText } from './clean-text.ts';
import { clientApiCodeSchema, clientSessionTokenField } from './client-api.ts';
import { utf8ByteLength } from './code-files.ts';
import { pageQueryFields } from './paging.ts';
import type { ClientCallEntry } from './client-call-entry.ts';

/**
 * Remote variables: an application's variables (a kill switch, a config value), which a
 * program reads with `POST /api/v1/var`, and each end user's own variables, which a program
 * reads and writes for its session's user with `POST /api/v1/user-var[/set]` unless the owner
 * made one read-only.
 */
export const variableLimits = {
  name: 64,
  /** An application variable's value, in UTF-8 bytes (64 KB). */
  applicationValueBytes: 64 * 1024,
  /** An end user's variable's value, in UTF-8 bytes (16 KB). */
  userValueBytes: 16 * 1024,
  /** Variables one end user may hold. */
  userVariablesPerUser: 100,
} as const;

/** Names a program can spell in any language: letters, digits, `_`, `.` and `-`. */
export const VARIABLE_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

export const VARIABLE_NAME_INVALID = `Name must be 1 to ${variableLimits.name} letters, digits, _, . or -`;
export const VARIABLE_NAME_TAKEN = 'This application already has a variable with that name';
export const VARIABLE_NOT_FOUND = 'Variable not found';
export const USER_VARIABLE_LIMIT_REACHED = `An end user can hold at most ${variableLimits.userVariablesPerUser} variables`;

const formatKilobytes = (bytes: number) => `${bytes / 1024} KB`;

/** The largest JSON body a value of `valueBytes` can need (each byte escaped as `\u00XX`). */
export const variableBodyLimitBytes = (valueBytes: number) => valueBytes * 6 + 4096;

const variableName = z
  .string({ error: VARIABLE_NAME_INVALID })
  .regex(VARIABLE_NAME_PATTERN, VARIABLE_NAME_INVALID);

/** Any text (newlines, JSON, …) up to `maxBytes` of UTF-8; valid Unicode without NUL. */
const variableValue = (field: string, maxBytes: number) =>
  z
    .string({
      error: (issue) =>
        issue.input === undefined ? `${field} is required` : `${field} must be a string`,
    })
    .refine(isCleanText, { message: `${field}: ${CLEAN_TEXT_MESSAGE}`, abort: true })
    // UTF-8 never takes fewer bytes than UTF-16 code units: an over-long value is refused
    // from its length alone, without encoding it.
    .refine((value) => value.length <= maxBytes && utf8ByteLength(value) <= maxBytes, {
      message: `${field} must be at most ${formatKilobytes(maxBytes)} (UTF-8)`,
    });

// ---------------------------------------------------------------------------------------
// Owner API (camelCase)

/** An application variable as the owner API returns it. */
export const applicationVariableSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    value: z.string(),
    /** True: only a program with a live session may read it. */
    requiresSession: z.boolean(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({
    id: 'ApplicationVariable',
    description: 'A remote variable of an application, read by programs with POST /api/v1/var.',
  });
export type ApplicationVariable = z.infer<typeof applicationVariableSchema>;
export const applicationVariableListSchema = z.array(applicationVariableSchema);

/** POST /api/applications/:id/variables. `requiresSession` is true unless sent false. */
export const createApplicationVariableRequestSchema = z.object({
  name: variableName,
  value: variableValue('value', variableLimits.applicationValueBytes),
  requiresSession: z.boolean({ error: 'requiresSession must be true or false' }).default(true),
});
export type CreateApplicationVariableRequest = z.input<
  typeof createApplicationVariableRequestSchema
>;
export type CreateApplicationVariableInput = z.output<
  typeof createApplicationVariableRequestSchema
>;

/** PUT /api/applications/:id/variables/:variableId: any subset; absent fields stay. */
export const updateApplicationVariableRequestSchema = z.object({
  name: variableName.optional(),
  value: variableValue('value', variableLimits.applicationValueBytes).optional(),
  requiresSession: z.boolean({ error: 'requiresSession must be true or false' }).optional(),
});
export type UpdateApplicationVariableRequest = z.input<
  typeof updateApplicationVariableRequestSchema
>;
export type UpdateApplicationVariableInput = z.output<
  typeof updateApplicationVariableRequestSchema
>;

/** GET /api/applications/:id/variables: `search` matches the name or the value, any case. */
export const applicationVariableListQuerySchema = z.object({ search: pageQueryFields.search });

/** Path parameters of /api/applications/:id/variables/:variableId. */
export const applicationVariableParamsSchema = z.object({
  id: applicationIdSchema,
  variableId: z.uuid('Invalid variable id'),
});

/** An end user's variable as the owner API returns it. */
export const userVariableSchema = z
  .object({
    name: z.string(),
    value: z.string(),
    /** True: the program may read it but not change it. */
    readOnly: z.boolean(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'UserVariable', description: 'One of an end user\u2019s own variables.' });
export type UserVariable = z.infer<typeof userVariableSchema>;
export const userVariableListSchema = z.array(userVariableSchema);

/** PUT /api/applications/:appId/users/:userId/variables/:name: creates or replaces. */
export const putUserVariableRequestSchema = z.object({
  value: variableValue('value', variableLimits.userValueBytes),
  readOnly: z.boolean({ error: 'readOnly must be true or false' }).default(false),
});
export type PutUserVariableRequest = z.input<typeof putUserVariableRequestSchema>;
export type PutUserVariableInput = z.output<typeof putUserVariableRequestSchema>;

/** Path parameters of /api/applications/:appId/users/:userId/variables/:name. */
export const userVariableParamsSchema = appUserParamsSchema.extend({ name: variableName });

// ---------------------------------------------------------------------------------------
// Client API (snake_case, like client-api.ts)

/** POST /api/v1/var: `session_token` is needed only for a variable that requires a session. */
export const clientVariableRequestSchema = z.object({
  name: variableName,
  session_token: clientSessionTokenField.nullish().transform((value) => value || null),
});
export type ClientVariableRequest = z.input<typeof clientVariableRequestSchema>;
export type ClientVariableInput = z.output<typeof clientVariableRequestSchema>;

/** POST /api/v1/user-var: the session's own end user's variable. */
export const clientUserVariableRequestSchema = z.object({
  session_token: clientSessionTokenField,
  name: variableName,
});
export type ClientUserVariableRequest = z.input<typeof clientUserVariableRequestSchema>;
export type ClientUserVariableInput = z.output<typeof clientUserVariableRequestSchema>;

/** POST /api/v1/user-var/set: creates or replaces it, unless the owner made it read-only. */
export const clientSetUserVariableRequestSchema = clientUserVariableRequestSchema.extend({
  value: variableValue('value', variableLimits.userValueBytes),
});
export type ClientSetUserVariableRequest = z.input<typeof clientSetUserVariableRequestSchema>;
export type ClientSetUserVariableInput = z.output<typeof clientSetUserVariableRequestSchema>;

/**
 * The answer of var, user-var and user-var/set: on success the variable's name and value
 * (and, for a user's variable, whether it is read-only), in the signed body.
 */
export const clientVariableResponseSchema = z
  .object({
    success: z.boolean(),
    message: z.string(),
    code: clientApiCodeSchema,
    name: z.string().optional(),
    value: z.string().optional(),
    /** user-var and user-var/set only. */
    read_only: z.boolean().optional(),
  })
  .meta({
    id: 'ClientVariableResponse',
    description:
      'The answer of var, user-var and user-var/set: outcomes are HTTP 200 with success and a code; on success the value.',
  });
export type ClientVariableResponse = z.infer<typeof clientVariableResponseSchema>;

/** The client API's calls for variables: the application's, and each end user's own. */
export const variableClientCalls = {
  readVariable: {
    method: 'POST',
    path: '/api/v1/var',
    summary:
      'Reads an application variable. One that requires a session (the default) needs a live session_token.',
    request: clientVariableRequestSchema,
    response: clientVariableResponseSchema,
    brief: 'name, session_token?: an application variable',
  },
  readUserVariable: {
    method: 'POST',
    path: '/api/v1/user-var',
    summary: 'Reads one of the session’s own end user’s variables.',
    request: clientUserVariableRequestSchema,
    response: clientVariableResponseSchema,
    brief: "name, session_token: a variable of the session's own user",
  },
  setUserVariable: {
    method: 'POST',
    path: '/api/v1/user-var/set',
    summary:
      'Creates or replaces one of the session’s own end user’s variables, unless it is read-only.',
    request: clientSetUserVariableRequestSchema,
    response: clientVariableResponseSchema,
    brief: 'name, value, session_token: write one (unless read-only)',
  },
} as const satisfies Record<string, ClientCallEntry>;
