import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { hostileModes } from './hostile-proxy.ts';

/**
 * The shape of sdks/conformance/scenarios.json (its README.md explains each part). Parsed
 * strictly, so a misspelt key in a scenario fails the run instead of silently checking nothing.
 */

const inputSchema = z.record(z.string(), z.unknown());

const expectationSchema = z
  .object({
    success: z.boolean().optional(),
    code: z.string().optional(),
    fields: z.record(z.string(), z.unknown()).optional(),
    present: z.array(z.string()).optional(),
    absent: z.array(z.string()).optional(),
    matches: z.record(z.string(), z.string()).optional(),
    timesFromNow: z
      .record(
        z.string(),
        z.object({ seconds: z.number(), withinSeconds: z.number().positive() }).strict(),
      )
      .optional(),
    isNull: z.literal(true).optional(),
    throws: z.enum(['SignatureError', 'TransportError']).optional(),
    reason: z.string().optional(),
    requestsSeen: z.number().int().optional(),
    minElapsedMs: z.number().optional(),
    forwardProxyRequests: z.number().int().optional(),
    file: z.object({ kept: z.boolean(), sha256: z.string().optional() }).strict().optional(),
    revocations: z.number().int().optional(),
    errors: z.number().int().optional(),
  })
  .strict();
export type Expectation = z.infer<typeof expectationSchema>;

export const sdkCalls = [
  'register',
  'login',
  'licenseLogin',
  'startTrial',
  'redeem',
  'verify',
  'heartbeat',
  'resumeSession',
  'endSession',
  'getVariable',
  'getUserVariable',
  'setUserVariable',
  'useMeter',
  'resetDevices',
  'forgotPassword',
  'resendVerification',
  'checkout',
  'borrowSeat',
  'returnSeat',
  'download',
  'checkForUpdate',
  'verifyOfflineLicense',
  'createActivationRequest',
  'startHeartbeat',
  'stopHeartbeat',
] as const;

export const ownerActions = [
  'createUser',
  'pauseUser',
  'setUserExpiry',
  'deleteUser',
  'offerTrial',
  'createPlan',
  'createLicenseKey',
  'createVariable',
  'setUserVariable',
  'uploadFile',
  'setCurrentRelease',
  'endUpdatesWindow',
  'grantPlan',
  'loginFromAnotherMachine',
  'foreignOfflineLicense',
  'activateOffline',
] as const;

const callStepSchema = z
  .object({
    call: z.enum(sdkCalls),
    /** One of the scenario's other `clients` makes the call; the scenario's client otherwise. */
    client: z.string().optional(),
    as: z.string().optional(),
    input: inputSchema.optional(),
    hostile: z.enum(hostileModes).optional(),
    expect: expectationSchema.optional(),
  })
  .strict();

const ownerStepSchema = z
  .object({ owner: z.enum(ownerActions), as: z.string().optional(), input: inputSchema.optional() })
  .strict();

const awaitStepSchema = z
  .object({
    await: z.enum(['delay', 'revocation']),
    input: inputSchema,
    expect: expectationSchema.optional(),
  })
  .strict();

const stepSchema = z.union([callStepSchema, ownerStepSchema, awaitStepSchema]);
export type ScenarioStep = z.infer<typeof stepSchema>;

const clientSettingsSchema = z
  .object({
    version: z.string().optional(),
    publicKey: z.string().optional(),
    apiKey: z.string().optional(),
    hwid: z.string().optional(),
    timeoutMs: z.number().int().optional(),
    baseUrl: z.literal('unreachable').optional(),
    proxy: z.literal('forward-proxy').optional(),
  })
  .strict();
export type ClientSettings = z.infer<typeof clientSettingsSchema>;

const scenarioSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9-]+$/),
    summary: z.string().optional(),
    application: inputSchema.optional(),
    client: clientSettingsSchema.optional(),
    /** More clients of the same application (other computers), by name, beside `client`. */
    clients: z.record(z.string().regex(/^[a-z0-9-]+$/), clientSettingsSchema).optional(),
    steps: z.array(stepSchema).min(1),
  })
  .strict()
  .refine(
    (scenario) =>
      scenario.steps.every(
        (step) =>
          !('call' in step) ||
          step.client === undefined ||
          Object.hasOwn(scenario.clients ?? {}, step.client),
      ),
    { message: 'a step names a client the scenario does not have' },
  );
export type Scenario = z.infer<typeof scenarioSchema>;

const offlineExpectationSchema = z
  .object({
    success: z.boolean(),
    code: z.string(),
    fields: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

const conformanceFileSchema = z
  .object({
    formatVersion: z.literal(1),
    resultCodes: z.array(z.string()),
    offlineLicenseCodes: z.array(z.string()),
    signatureErrorReasons: z.array(z.string()),
    transportErrorReasons: z.array(z.string()),
    keys: z.record(z.string(), z.string().regex(/^[0-9a-f]{64}$/)),
    licenses: z.record(z.string(), z.string()),
    signatureVectors: z.array(
      z
        .object({
          id: z.string(),
          publicKey: z.string(),
          timestamp: z.string(),
          nonce: z.string(),
          body: z.string(),
          signature: z.string().nullable(),
          now: z.number(),
          expect: z.string().nullable(),
        })
        .strict(),
    ),
    offlineVectors: z.array(
      z
        .object({
          id: z.string(),
          license: z.string(),
          edit: z
            .object({
              segment: z.number().int().optional(),
              at: z.number().int().optional(),
              set: z.string().max(1).optional(),
              append: z.string().optional(),
              keepSegments: z.number().int().optional(),
            })
            .strict()
            .optional(),
          publicKey: z.string(),
          hwid: z.string(),
          now: z.iso.datetime({ offset: true }),
          lastSeenAt: z.iso.datetime({ offset: true }).optional(),
          applicationId: z.number().int().optional(),
          expect: offlineExpectationSchema,
        })
        .strict(),
    ),
    machineIdVectors: z.array(
      z.object({ rawMachineId: z.string(), publicKey: z.string(), expect: z.string() }).strict(),
    ),
    activationRequestVectors: z.array(
      z
        .object({
          id: z.string(),
          publicKey: z.string(),
          hwid: z.string(),
          licenseKey: z.string().optional(),
          username: z.string().optional(),
          deviceName: z.string().optional(),
          encrypt: z.boolean().optional(),
          nonce: z.string(),
          now: z.iso.datetime({ offset: true }),
          /** The request's exact text; a vector without one is refused (`refused: true`). */
          expect: z.string().startsWith('LKA1.').optional(),
          refused: z.literal(true).optional(),
        })
        .strict()
        .refine((vector) => (vector.expect === undefined) !== (vector.refused === undefined), {
          message: 'an activation request vector has either expect or refused',
        }),
    ),
    scenarios: z.array(scenarioSchema),
  })
  .strict();
export type ConformanceFile = z.infer<typeof conformanceFileSchema>;
export type OfflineVector = ConformanceFile['offlineVectors'][number];
export type ActivationRequestVector = ConformanceFile['activationRequestVectors'][number];

export const conformanceFile: ConformanceFile = conformanceFileSchema.parse(
  JSON.parse(readFileSync(new URL('../conformance/scenarios.json', import.meta.url), 'utf8')),
);

/** `{{a.b.0.c}}` as a whole string: the value at that path of `values` (any type). */
const REFERENCE = /^\{\{([\w.]+)\}\}$/;

export function valueAt(source: unknown, path: string): unknown {
  let value = source;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** Replaces every whole-string reference in `input`, at any depth, by the value it names. */
export function resolveReferences(input: unknown, values: Record<string, unknown>): unknown {
  if (typeof input === 'string') {
    const reference = REFERENCE.exec(input)?.[1];
    if (reference === undefined) return input;
    const value = valueAt(values, reference);
    if (value === undefined) throw new Error(`${input} names nothing known at this step`);
    return value;
  }
  if (Array.isArray(input)) return input.map((item) => resolveReferences(item, values));
  if (input !== null && typeof input === 'object') {
    return Object.fromEntries(
      Object.entries(input).map(([key, value]) => [key, resolveReferences(value, values)]),
    );
  }
  return input;
}

/** A licence vector's string after its `edit` (README.md: the edits). */
export function editedLicense(license: string, edit: OfflineVector['edit']): string {
  if (!edit) return license;
  let segments = license.split('.');
  if (edit.keepSegments !== undefined) segments = segments.slice(0, edit.keepSegments);
  if (edit.segment !== undefined) {
    let segment = segments[edit.segment]!;
    if (edit.at !== undefined && edit.set !== undefined) {
      segment = `${segment.slice(0, edit.at)}${edit.set}${segment.slice(edit.at + 1)}`;
    }
    if (edit.append !== undefined) segment += edit.append;
    segments[edit.segment] = segment;
  }
  return segments.join('.');
}

/** A time input: an ISO string, or `{ time, plusSeconds }` (after references are resolved). */
export function timeOf(value: unknown): Date | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return new Date(value);
  const { time, plusSeconds } = value as { time: string; plusSeconds?: number };
  return new Date(Date.parse(time) + (plusSeconds ?? 0) * 1000);
}
