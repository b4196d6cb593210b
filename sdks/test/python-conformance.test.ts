import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clientApiCodes, type UpdateApplicationRequest } from '@latchkey/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLiveLatchkey, type LiveLatchkey } from '../../samples/test/live-latchkey.ts';
import {
  conformanceFile,
  editedLicense,
  resolveReferences,
  timeOf,
  valueAt,
  type Expectation,
  type Scenario,
  type ScenarioStep,
} from './conformance-scenarios.ts';
import { startForwardProxy, startHostileProxy } from './hostile-proxy.ts';
import { canBuildPythonSdk, installPythonSdk, type PythonDriver } from './installed-python-sdk.ts';
import {
  awaitHeartbeat,
  closedPortUrl,
  expectAnswer,
  expectDownloadedFile,
  expectMeasures,
  foreignOfflineLicense,
} from './scenario-expectations.ts';
import { createScenarioApplication } from './scenario-application.ts';

/**
 * The Python SDK's run of the language-neutral conformance suite (sdks/conformance): the
 * `latchkey` wheel is built with `python3 -m build`, installed offline into a fresh virtual
 * environment outside the repository, and a long-lived Python driver performs every vector and
 * every scenario's calls through the installed package, against a live Latchkey behind a proxy
 * that can attack each step. The scenarios, the owner's actions, the proxy and every
 * expectation stay here, the same as for the TypeScript SDK.
 */

const CLIENT_HWID = 'conformance-machine-a';

/** What the driver reports of one SDK call: its value, or the error it raised. */
interface DriverCallOutcome {
  value?: unknown;
  error?: { type: string; reason: string; message: string };
  elapsedMs: number;
}

interface CallOutcome extends DriverCallOutcome {
  requestsSeen: number;
  forwardProxyRequests: number;
}

interface HeartbeatState {
  revocations: Record<string, unknown>[];
  errors: string[];
}

interface PackageInfo {
  file: string;
  version: string;
  resultCodes: string[];
  offlineLicenseCodes: string[];
  signatureErrorReasons: string[];
  transportErrorReasons: string[];
  installedFiles: string[];
  requires: string[];
}

let sdk: Awaited<ReturnType<typeof installPythonSdk>>;
let driver: PythonDriver;
let live: LiveLatchkey;
let hostile: Awaited<ReturnType<typeof startHostileProxy>>;
let forwardProxy: Awaited<ReturnType<typeof startForwardProxy>>;
let unreachableUrl: string;

describe.skipIf(!canBuildPythonSdk())('the Python SDK (latchkey wheel)', () => {
  beforeAll(async () => {
    [sdk, live] = await Promise.all([installPythonSdk(), startLiveLatchkey()]);
    driver = sdk.driver;
    hostile = await startHostileProxy(live.baseUrl);
    forwardProxy = await startForwardProxy();
    unreachableUrl = await closedPortUrl();
  }, 300_000);

  afterAll(async () => {
    await hostile?.close();
    await forwardProxy?.close();
    await live?.close();
    await sdk?.remove();
  });

  describe('the installed package', () => {
    it('is a pure-Python wheel, installed outside the repository, with PyNaCl as an extra', async () => {
      expect(sdk.wheelName).toMatch(/^latchkey-\d+\.\d+\.\d+-py3-none-any\.whl$/);
      const info = await driver.send<PackageInfo>('info');
      expect(info.file.startsWith(sdk.venvDir)).toBe(true);
      const modules = info.installedFiles.filter((file) => file.startsWith('latchkey/'));
      expect(modules).toEqual(
        expect.arrayContaining(['latchkey/__init__.py', 'latchkey/py.typed']),
      );
      expect(info.installedFiles.filter((file) => /conformance|test/i.test(file))).toEqual([]);
      // A hard requirement would make `pip install --no-index` fail beside Debian's python3-nacl.
      expect(info.requires).toHaveLength(1);
      expect(info.requires[0]).toMatch(/^PyNaCl\s*\(?>=1\.4\)?\s*;\s*extra\s*==\s*["']nacl["']$/);
    });

    it('says what to install when PyNaCl is missing', () => {
      const result = spawnSync(
        sdk.python,
        ['-I', '-c', "import sys; sys.modules['nacl'] = None; import latchkey"],
        { encoding: 'utf8', cwd: sdk.workDir },
      );
      expect(result.status).not.toBe(0);
      expect(result.stderr).toContain('ImportError');
      expect(result.stderr).toContain('pip install "latchkey[nacl]"');
    });

    it('knows the closed lists: the server’s result codes, and the suite’s own', async () => {
      const info = await driver.send<PackageInfo>('info');
      expect(conformanceFile.resultCodes).toEqual(clientApiCodes);
      expect(info.resultCodes).toEqual(conformanceFile.resultCodes);
      expect(info.offlineLicenseCodes).toEqual(conformanceFile.offlineLicenseCodes);
      expect(info.signatureErrorReasons).toEqual(conformanceFile.signatureErrorReasons);
      expect(info.transportErrorReasons).toEqual(conformanceFile.transportErrorReasons);
    });
  });

  describe('vectors', () => {
    it.each(conformanceFile.signatureVectors)('answer signature: $id', async (vector) => {
      const reason = await driver.send('signatureVector', {
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
      const check = await driver.send<Record<string, unknown>>('offlineVector', {
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
      const machineId = await driver.send('machineIdVector', {
        rawMachineId: vector.rawMachineId,
        publicKey,
      });
      expect(machineId).toBe(vector.expect);
    });

    it("gives this machine's id, hashed with the application's key", async () => {
      const machine = await driver.send<Record<string, string>>('thisMachine', {
        baseUrl: unreachableUrl,
        publicKey: conformanceFile.keys.example,
      });
      expect(machine.machineId).toMatch(/^[0-9a-f]{64}$/);
      expect(machine.machineId).toBe(machine.hashedRaw);
      expect(machine.hwid).toBe(machine.machineId);
      expect(machine.machineId).not.toContain(machine.raw!.trim());
    });
  });

  describe('scenarios against a live server', () => {
    it.each(conformanceFile.scenarios)('$id', async (scenario) => {
      await runScenario(scenario);
    });
  });

  describe('the whole run', () => {
    it('never wrote to stdout or stderr beyond the driver’s own answers', () => {
      expect(driver.strayOutput()).toBe('');
    });
  });
});

/** One scenario, on an application of its own. */
async function runScenario(scenario: Scenario) {
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
  const settings = scenario.client ?? {};
  const constructed = await driver.send<{ hwid: string }>('construct', {
    options: {
      baseUrl: settings.baseUrl === 'unreachable' ? unreachableUrl : hostile.baseUrl,
      apiKey: settings.apiKey ?? application.apiKey,
      publicKey: settings.publicKey
        ? resolveReferences(settings.publicKey, values)
        : application.signingPublicKey,
      version: settings.version ?? application.version,
      hwid: settings.hwid ?? CLIENT_HWID,
      timeoutMs: settings.timeoutMs ?? 10_000,
      ...(settings.proxy ? { proxy: forwardProxy.url } : {}),
    },
  });
  values.client = { hwid: constructed.hwid };
  const directory = mkdtempSync(join(tmpdir(), `latchkey-conformance-python-${scenario.id}-`));
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
        await awaitHeartbeat(step, () => driver.send<HeartbeatState>('heartbeatState'), where);
      } else {
        const outcome = await callStep(step, values, directory);
        if (step.expect) checkOutcome(outcome, step.expect, values, directory, where);
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
  const outcome = await driver.send<DriverCallOutcome>('call', { call: step.call, input });
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
  expectAnswer(outcome.value ?? null, expected, values, where, pythonFieldPath);
  expectMeasures(outcome, expected, where);
  expectDownloadedFile(expected, values, directory, where);
}

/**
 * The one field an SDK adds to the wire's, in Python's case (the README's rule); every other
 * field keeps the wire's own name.
 */
function pythonFieldPath(path: string): string {
  return path === 'retryAfterSeconds' ? 'retry_after_seconds' : path;
}
