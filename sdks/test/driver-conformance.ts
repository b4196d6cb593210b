import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  activationRequestContentSchema,
  clientApiCodes,
  type UpdateApplicationRequest,
} from '@latchkey/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseActivationRequest } from '../../apps/server/src/modules/portal/activation-request.ts';
import { startLiveLatchkey, type LiveLatchkey } from '../../samples/test/live-latchkey.ts';
import {
  conformanceFile,
  editedLicense,
  resolveReferences,
  timeOf,
  valueAt,
  type ClientSettings,
  type Expectation,
  type Scenario,
  type ScenarioStep,
} from './conformance-scenarios.ts';
import type { ConformanceDriver } from './driver-process.ts';
import { startForwardProxy, startHostileProxy } from './hostile-proxy.ts';
import {
  awaitHeartbeat,
  closedPortUrl,
  expectAnswer,
  expectDownloadedFile,
  expectMeasures,
  foreignOfflineLicense,
  type HeartbeatReport,
} from './scenario-expectations.ts';
import { createScenarioApplication } from './scenario-application.ts';

/**
 * The conformance suite (sdks/conformance), written once for every language: each SDK's runner
 * says how to build and install its package and start its driver, and this defines the rest —
 * the closed lists, every vector, and every scenario against a live Latchkey behind a proxy that
 * can attack each step. The scenarios, the owner's actions, the proxy and every expectation live
 * here, so a behaviour is judged the same way for every library; the driver only performs calls
 * through the installed package and reports what they answered or raised.
 */

const CLIENT_HWID = 'conformance-machine-a';

/** A built, installed package with its driver running; `remove` stops it and deletes it all. */
export interface InstalledSdk {
  driver: ConformanceDriver;
  remove(): Promise<void> | void;
}

/** One way of loading the same installed package (by `import` and by `require`, say). */
export interface DriverVariant<Installed> {
  label: string;
  driver(installed: Installed): ConformanceDriver;
}

export interface DriverConformanceOptions<Installed extends InstalledSdk> {
  /** The describe() title: the language and the package's name. */
  name: string;
  /** False skips the file; with CI=true, the check itself fails on a missing toolchain. */
  available(): boolean;
  install(): Promise<Installed>;
  /** A scenario's result path as the SDK names it (the wire's own name by default). */
  fieldPath?(path: string): string;
  /** The runner's own tests of the package's shape, inside "the installed package". */
  packageTests?(installed: () => Installed): void;
  /** Several ways of loading the package, each running every vector and scenario. */
  variants?: DriverVariant<Installed>[];
}

/** What a driver reports of one SDK call: its value, or the error it raised. */
interface DriverCallOutcome {
  value?: unknown;
  error?: { type: string; reason: string; message: string };
  elapsedMs: number;
}

interface CallOutcome extends DriverCallOutcome {
  requestsSeen: number;
  forwardProxyRequests: number;
}

/** What every driver's `info` reports of its package's closed lists. */
interface ClosedLists {
  resultCodes: string[];
  offlineLicenseCodes: string[];
  signatureErrorReasons: string[];
  transportErrorReasons: string[];
}

/** The live server and the proxies a run's scenarios talk through. */
interface ConformanceEnvironment {
  live: LiveLatchkey;
  hostile: Awaited<ReturnType<typeof startHostileProxy>>;
  forwardProxy: Awaited<ReturnType<typeof startForwardProxy>>;
  unreachableUrl: string;
}

export function describeDriverConformance<Installed extends InstalledSdk>(
  options: DriverConformanceOptions<Installed>,
) {
  const variants = options.variants ?? [{ label: '', driver: (installed) => installed.driver }];
  const fieldPath = options.fieldPath ?? ((path: string) => path);

  describe.skipIf(!options.available())(options.name, () => {
    let installed: Installed;
    let environment: ConformanceEnvironment;

    beforeAll(async () => {
      let live: LiveLatchkey;
      [installed, live] = await Promise.all([options.install(), startLiveLatchkey()]);
      environment = {
        live,
        hostile: await startHostileProxy(live.baseUrl),
        forwardProxy: await startForwardProxy(),
        unreachableUrl: await closedPortUrl(),
      };
    }, 300_000);

    afterAll(async () => {
      await environment?.hostile.close();
      await environment?.forwardProxy.close();
      await environment?.live.close();
      await installed?.remove();
    });

    describe('the installed package', () => {
      options.packageTests?.(() => installed);

      it('knows the closed lists: the server’s result codes, and the suite’s own', async () => {
        expect(conformanceFile.resultCodes).toEqual(clientApiCodes);
        for (const variant of variants) {
          const lists = await variant.driver(installed).send<ClosedLists>('info');
          expect(lists.resultCodes).toEqual(conformanceFile.resultCodes);
          expect(lists.offlineLicenseCodes).toEqual(conformanceFile.offlineLicenseCodes);
          expect(lists.signatureErrorReasons).toEqual(conformanceFile.signatureErrorReasons);
          expect(lists.transportErrorReasons).toEqual(conformanceFile.transportErrorReasons);
        }
      });
    });

    for (const variant of variants) {
      const prefix = variant.label ? `${variant.label}: ` : '';
      const driver = () => variant.driver(installed);

      describe(`${prefix}vectors`, () => {
        defineVectorTests(driver, () => environment.unreachableUrl);
      });

      describe(`${prefix}scenarios against a live server`, () => {
        it.each(conformanceFile.scenarios)('$id', async (scenario) => {
          await runScenario(driver(), environment, scenario, fieldPath);
        });
      });
    }

    describe('the whole run', () => {
      it('never wrote to stdout or stderr beyond the driver’s own answers', () => {
        for (const variant of variants) expect(variant.driver(installed).strayOutput()).toBe('');
      });
    });
  });
}

/**
 * The vectors, which need no server: answer signatures, offline licences, machine ids,
 * activation requests.
 */
function defineVectorTests(driver: () => ConformanceDriver, unreachableUrl: () => string) {
  it.each(conformanceFile.signatureVectors)('answer signature: $id', async (vector) => {
    const reason = await driver().send('signatureVector', {
      publicKey: resolveReferences(vector.publicKey, { keys: conformanceFile.keys }),
      timestamp: vector.timestamp,
      signature: vector.signature,
      nonce: vector.nonce,
      body: vector.body,
      now: vector.now,
    });
    expect(reason).toBe(vector.expect);
  });

  it.each(conformanceFile.offlineVectors)('offline licence: $id', async (vector) => {
    const values = { keys: conformanceFile.keys, licenses: conformanceFile.licenses };
    const original = resolveReferences(vector.license, values) as string;
    const license = editedLicense(original, vector.edit);
    if (vector.edit) expect(license).not.toBe(original);
    const check = await driver().send<Record<string, unknown>>('offlineVector', {
      license,
      publicKey: resolveReferences(vector.publicKey, values),
      hwid: vector.hwid,
      now: vector.now,
      ...(vector.lastSeenAt ? { lastSeenAt: vector.lastSeenAt } : {}),
      ...(vector.applicationId !== undefined ? { applicationId: vector.applicationId } : {}),
    });
    expect({ success: check.success, code: check.code }).toEqual({
      success: vector.expect.success,
      code: vector.expect.code,
    });
    for (const [path, value] of Object.entries(vector.expect.fields ?? {})) {
      expect(valueAt(check, path), path).toEqual(value);
    }
  });

  it.each(conformanceFile.machineIdVectors)('machine id: $rawMachineId', async (vector) => {
    const publicKey = resolveReferences(vector.publicKey, { keys: conformanceFile.keys });
    const machineId = await driver().send('machineIdVector', {
      rawMachineId: vector.rawMachineId,
      publicKey,
    });
    expect(machineId).toBe(vector.expect);
  });

  it.each(conformanceFile.activationRequestVectors)('activation request: $id', async (vector) => {
    const { id: _id, expect: text, refused, ...input } = vector;
    const answer = await driver().send<{ text?: string; refused?: string }>(
      'activationRequestVector',
      { ...input, publicKey: resolveReferences(vector.publicKey, { keys: conformanceFile.keys }) },
    );
    if (refused) {
      expect(answer.text, 'no request for this input').toBeUndefined();
      expect(answer.refused).toEqual(expect.any(String));
    } else {
      // Byte for byte the server's own encoding (typescript-conformance.test.ts holds the
      // vectors to it), which its portal reads.
      expect(answer).toEqual({ text });
    }
  });

  it('writes an activation request of its own: a fresh nonce, this clock, read by the server', async () => {
    const request = {
      publicKey: conformanceFile.keys.example,
      hwid: 'conformance-machine-a',
      licenseKey: 'AAAAA-BBBBB-CCCCC-DDDDD',
    };
    const before = Date.now();
    const first = await driver().send<{ text?: string }>('activationRequestVector', request);
    const second = await driver().send<{ text?: string }>('activationRequestVector', request);
    const contents = [first.text, second.text].map((text) => {
      const content = parseActivationRequest(text ?? '');
      expect(content, `the server reads ${text}`).not.toBeNull();
      return activationRequestContentSchema.parse(content);
    });
    for (const content of contents) {
      expect(content).toMatchObject({
        app: request.publicKey,
        hwid: request.hwid,
        license_key: request.licenseKey,
      });
      expect(content.nonce).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
      const createdAt = Date.parse(content.created_at);
      expect(createdAt).toBeGreaterThanOrEqual(before - 1_000);
      expect(createdAt).toBeLessThanOrEqual(Date.now() + 1_000);
    }
    expect(contents[0]!.nonce).not.toBe(contents[1]!.nonce);
  });

  it("gives this machine's id, hashed with the application's key", async () => {
    const machine = await driver().send<Record<string, string>>('thisMachine', {
      baseUrl: unreachableUrl(),
      publicKey: conformanceFile.keys.example,
    });
    expect(machine.machineId).toMatch(/^[0-9a-f]{64}$/);
    expect(machine.machineId).toBe(machine.hashedRaw);
    expect(machine.hwid).toBe(machine.machineId);
    expect(machine.machineId).not.toContain(machine.raw!.trim());
  });
}

/** One scenario, on an application of its own. */
async function runScenario(
  driver: ConformanceDriver,
  environment: ConformanceEnvironment,
  scenario: Scenario,
  fieldPath: (path: string) => string,
) {
  const { live, hostile, forwardProxy } = environment;
  const owner = await createScenarioApplication(
    live,
    `Conformance ${scenario.id}`,
    (scenario.application ?? {}) as UpdateApplicationRequest,
  );
  hostile.beginScenario(await owner.signingKey());
  forwardProxy.takeCount();
  const { application } = owner;
  const values: Record<string, unknown> = {
    keys: conformanceFile.keys,
    application: { id: application.id, version: application.version },
  };
  const optionsOf = (settings: ClientSettings) => ({
    baseUrl: settings.baseUrl === 'unreachable' ? environment.unreachableUrl : hostile.baseUrl,
    apiKey: settings.apiKey ?? application.apiKey,
    publicKey: settings.publicKey
      ? resolveReferences(settings.publicKey, values)
      : application.signingPublicKey,
    version: settings.version ?? application.version,
    hwid: settings.hwid ?? CLIENT_HWID,
    timeoutMs: settings.timeoutMs ?? 10_000,
    ...(settings.proxy ? { proxy: forwardProxy.url } : {}),
  });
  const constructed = await driver.send<{ hwid: string }>('construct', {
    options: optionsOf(scenario.client ?? {}),
  });
  values.client = { hwid: constructed.hwid };
  // The other computers: clients of their own in the same driver, each named by its steps.
  const others: Record<string, { hwid: string }> = {};
  for (const [name, settings] of Object.entries(scenario.clients ?? {})) {
    others[name] = await driver.send<{ hwid: string }>('construct', {
      client: name,
      options: optionsOf(settings),
    });
  }
  values.clients = others;
  const directory = mkdtempSync(join(tmpdir(), `latchkey-conformance-${scenario.id}-`));
  try {
    for (const [index, step] of scenario.steps.entries()) {
      const where = `${scenario.id}, step ${index + 1}`;
      if ('owner' in step) {
        const input = resolveReferences(step.input ?? {}, values) as Record<string, never>;
        const result =
          step.owner === 'foreignOfflineLicense'
            ? await foreignOfflineLicense(live, CLIENT_HWID)
            : await (owner[step.owner] as (input: unknown) => Promise<unknown>)(input);
        if (step.as) values[step.as] = result;
      } else if ('await' in step) {
        await awaitHeartbeat(step, () => driver.send<HeartbeatReport>('heartbeatState'), where);
      } else {
        const outcome = await callStep(driver, environment, step, values, directory);
        if (step.expect) checkOutcome(outcome, step.expect, values, directory, where, fieldPath);
        else if (outcome.error) throw new Error(`${where}: ${JSON.stringify(outcome.error)}`);
        if (step.as && !outcome.error) values[step.as] = outcome.value;
      }
    }
  } finally {
    await driver.send('dispose');
    rmSync(directory, { recursive: true, force: true });
  }
}

type CallStep = Extract<ScenarioStep, { call: string }>;

async function callStep(
  driver: ConformanceDriver,
  { hostile, forwardProxy }: ConformanceEnvironment,
  step: CallStep,
  values: Record<string, unknown>,
  directory: string,
): Promise<CallOutcome> {
  const input = resolveReferences(step.input ?? {}, values) as Record<string, unknown>;
  // The runner's own parts: a download's destination, times as ISO strings.
  if (step.call === 'download') input.destination = join(directory, 'download.bin');
  if (step.call === 'verifyOfflineLicense') {
    for (const key of ['now', 'lastSeenAt']) {
      if (input[key] !== undefined) input[key] = timeOf(input[key])!.toISOString();
    }
  }
  hostile.beginStep(step.hostile ?? 'pass');
  forwardProxy.takeCount();
  const outcome = await driver.send<DriverCallOutcome>('call', {
    call: step.call,
    input,
    ...(step.client !== undefined ? { client: step.client } : {}),
  });
  const requestsSeen = hostile.state.requestsSeen;
  const forwardProxyRequests = forwardProxy.takeCount();
  hostile.beginStep('pass');
  return { ...outcome, requestsSeen, forwardProxyRequests };
}

function checkOutcome(
  outcome: CallOutcome,
  expected: Expectation,
  values: Record<string, unknown>,
  directory: string,
  where: string,
  fieldPath: (path: string) => string,
) {
  if (expected.throws) {
    expect(outcome.error?.type, `${where}: throws ${expected.throws}`).toBe(expected.throws);
    if (expected.reason !== undefined) {
      expect(outcome.error?.reason, `${where}: reason`).toBe(expected.reason);
    }
  } else if (outcome.error) {
    throw new Error(
      `${where}: ${outcome.error.type} (${outcome.error.reason}): ${outcome.error.message}`,
    );
  }
  // JSON has no undefined: a call that answered nothing is null, as `isNull` means.
  expectAnswer(outcome.value ?? null, expected, values, where, fieldPath);
  expectMeasures(outcome, expected, where);
  expectDownloadedFile(expected, values, directory, where);
}
