import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  clientApiCodes,
  type ClientApiCode,
  type ClientAuthResponse,
  type ClientDeviceResetResponse,
  type ClientFileResponse,
  type ClientLicenseCheckoutResponse,
  type ClientSessionResponse,
  type ClientVariableResponse,
  type ClientVerifyResponse,
  type OfflineLicenseContent as ContractOfflineLicenseContent,
  type UpdateApplicationRequest,
} from '@latchkey/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLiveLatchkey, type LiveLatchkey } from '../../samples/test/live-latchkey.ts';
import type {
  AuthAnswer,
  CheckoutAnswer,
  DeviceResetAnswer,
  FileAnswer,
  LatchkeyClient,
  OfflineLicenseContent,
  ResultCode,
  SessionAnswer,
  VariableAnswer,
  VerifyAnswer,
} from '../typescript/src/index.ts';
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
import { installTypeScriptSdk, type TypeScriptSdk } from './installed-typescript-sdk.ts';
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
 * The TypeScript SDK's run of the language-neutral conformance suite (sdks/conformance): the
 * package is built, packed and installed from its tarball outside the repository, and every
 * scenario runs through the installed package, loaded once by `import` and once by `require`,
 * against a live Latchkey behind a proxy that can attack each step.
 */

// The SDK's wire types are written out so the package needs no runtime dependency; the
// contracts are the source, and this fails the typecheck the day the two differ.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sdkTypesMatchTheContracts: [
  Same<ResultCode, ClientApiCode>,
  Same<AuthAnswer, ClientAuthResponse>,
  Same<VerifyAnswer, ClientVerifyResponse>,
  Same<SessionAnswer, ClientSessionResponse>,
  Same<VariableAnswer, ClientVariableResponse>,
  Same<DeviceResetAnswer, ClientDeviceResetResponse>,
  Same<CheckoutAnswer, ClientLicenseCheckoutResponse>,
  Same<FileAnswer, ClientFileResponse>,
  Same<OfflineLicenseContent, ContractOfflineLicenseContent>,
] = [true, true, true, true, true, true, true, true, true];

const CLIENT_HWID = 'conformance-machine-a';

let sdk: Awaited<ReturnType<typeof installTypeScriptSdk>>;
let live: LiveLatchkey;
let hostile: Awaited<ReturnType<typeof startHostileProxy>>;
let forwardProxy: Awaited<ReturnType<typeof startForwardProxy>>;
let unreachableUrl: string;

beforeAll(async () => {
  [sdk, live] = await Promise.all([installTypeScriptSdk(), startLiveLatchkey()]);
  hostile = await startHostileProxy(live.baseUrl);
  forwardProxy = await startForwardProxy();
  unreachableUrl = await closedPortUrl();
}, 300_000);

afterAll(async () => {
  await hostile?.close();
  await forwardProxy?.close();
  await live?.close();
  sdk?.remove();
});

describe('the installed package', () => {
  it('holds only its build: code and types for import and for require', () => {
    const files = sdk.installedFiles.map(String).sort();
    for (const format of ['esm', 'cjs']) {
      for (const file of ['index.js', 'index.d.ts', 'package.json']) {
        expect(files).toContain(join('dist', format, file));
      }
    }
    expect(files.filter((file) => file.startsWith('src'))).toEqual([]);
    const manifest = JSON.parse(
      readFileSync(new URL('../typescript/package.json', import.meta.url), 'utf8'),
    ) as Record<string, unknown>;
    expect(manifest.dependencies).toBeUndefined();
  });

  it('types a consumer’s code through its declarations, by import and by require', () => {
    const consumer = (file: string, code: string) =>
      writeFileSync(join(sdk.consumerDir, file), code);
    const construct = `{ baseUrl: 'https://auth.example.com', apiKey: 'lk_live_x', publicKey: '${'a'.repeat(64)}', version: '1.0.0' }`;
    consumer(
      'uses-import.mts',
      `import { LatchkeyClient, SignatureError, type ResultCode } from '@latchkey/client';
const client = new LatchkeyClient(${construct});
export async function codeOfLogin(): Promise<ResultCode> {
  const login = await client.login({ username: 'alice', password: 'secret' });
  const userId: string | undefined = login.user_id;
  return userId === undefined ? login.code : 'OK';
}
export const isRefusal = (error: unknown) => error instanceof SignatureError && error.reason === 'stale';
// @ts-expect-error: the codes are a closed list
export const notACode: ResultCode = 'NOT_A_CODE';
`,
    );
    consumer(
      'uses-require.cts',
      `import sdk = require('@latchkey/client');
const client = new sdk.LatchkeyClient(${construct});
export const check: sdk.OfflineLicenseCheck = client.verifyOfflineLicense('LK1.a.b');
// @ts-expect-error: the options need the application's public key
new sdk.LatchkeyClient({ baseUrl: 'https://auth.example.com', apiKey: 'k', version: '1' });
`,
    );
    const tsc = spawnSync(
      process.execPath,
      [
        createRequire(import.meta.url).resolve('typescript/bin/tsc'),
        '--noEmit',
        '--strict',
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        '--target',
        'es2022',
        '--typeRoots',
        fileURLToPath(new URL('../../node_modules/@types', import.meta.url)),
        '--types',
        'node',
        'uses-import.mts',
        'uses-require.cts',
      ],
      { cwd: sdk.consumerDir, encoding: 'utf8' },
    );
    expect(`${tsc.stdout}${tsc.stderr}`).toBe('');
    expect(tsc.status).toBe(0);
  });

  it('exports the same API by import and by require, as two module systems', () => {
    expect(Object.keys(sdk.required).sort()).toEqual(Object.keys(sdk.imported).sort());
    expect(sdk.required.LatchkeyClient).not.toBe(sdk.imported.LatchkeyClient);
    expect(sdkTypesMatchTheContracts.every(Boolean)).toBe(true);
  });

  it('knows the closed lists: the server’s result codes, and the suite’s own', () => {
    expect(conformanceFile.resultCodes).toEqual(clientApiCodes);
    expect([...sdk.imported.resultCodes]).toEqual(conformanceFile.resultCodes);
    expect([...sdk.imported.offlineLicenseCodes]).toEqual(conformanceFile.offlineLicenseCodes);
    expect([...sdk.imported.signatureErrorReasons]).toEqual(conformanceFile.signatureErrorReasons);
    expect([...sdk.imported.transportErrorReasons]).toEqual(conformanceFile.transportErrorReasons);
  });
});

for (const moduleSystem of ['import', 'require'] as const) {
  const sdkModule = () => (moduleSystem === 'import' ? sdk.imported : sdk.required);

  describe(`by ${moduleSystem}: vectors`, () => {
    it.each(conformanceFile.signatureVectors)('answer signature: $id', (vector) => {
      const values = { keys: conformanceFile.keys };
      const reason = sdkModule().checkAnswerSignature({
        publicKey: resolveReferences(vector.publicKey, values) as string,
        timestamp: vector.timestamp,
        signature: vector.signature,
        nonce: vector.nonce,
        body: vector.body,
        nowSeconds: vector.now,
      });
      expect(reason).toBe(vector.expect);
    });

    it.each(conformanceFile.offlineVectors)('offline licence: $id', (vector) => {
      const values = { keys: conformanceFile.keys, licenses: conformanceFile.licenses };
      const original = resolveReferences(vector.license, values) as string;
      const license = editedLicense(original, vector.edit);
      if (vector.edit) expect(license).not.toBe(original);
      const check = sdkModule().verifyOfflineLicense(license, {
        publicKey: resolveReferences(vector.publicKey, values) as string,
        hwid: vector.hwid,
        now: new Date(vector.now),
        ...(vector.lastSeenAt ? { lastSeenAt: new Date(vector.lastSeenAt) } : {}),
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

    it.each(conformanceFile.machineIdVectors)('machine id: $rawMachineId', (vector) => {
      const publicKey = resolveReferences(vector.publicKey, { keys: conformanceFile.keys });
      expect(sdkModule().hashMachineId(vector.rawMachineId, publicKey as string)).toBe(
        vector.expect,
      );
    });

    it("gives this machine's id, hashed with the application's key", () => {
      const { LatchkeyClient, hashMachineId, readRawMachineId } = sdkModule();
      const publicKey = conformanceFile.keys.example!;
      const client = new LatchkeyClient({
        baseUrl: unreachableUrl,
        apiKey: 'lk_live_unused',
        publicKey,
        version: '1.0.0',
      });
      const raw = readRawMachineId();
      expect(client.machineId()).toMatch(/^[0-9a-f]{64}$/);
      expect(client.machineId()).toBe(hashMachineId(raw, publicKey));
      expect(client.hwid).toBe(client.machineId());
      expect(client.machineId()).not.toContain(raw.trim());
    });
  });

  describe(`by ${moduleSystem}: scenarios against a live server`, () => {
    it.each(conformanceFile.scenarios)('$id', async (scenario) => {
      await runScenario(sdkModule(), scenario);
    });
  });
}

/** One scenario, on an application of its own. */
async function runScenario(module: TypeScriptSdk, scenario: Scenario) {
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
  const client = new module.LatchkeyClient({
    baseUrl: settings.baseUrl === 'unreachable' ? unreachableUrl : hostile.baseUrl,
    apiKey: settings.apiKey ?? application.apiKey,
    publicKey: settings.publicKey
      ? (resolveReferences(settings.publicKey, values) as string)
      : application.signingPublicKey,
    version: settings.version ?? application.version,
    hwid: settings.hwid ?? CLIENT_HWID,
    timeoutMs: settings.timeoutMs ?? 10_000,
    ...(settings.proxy ? { proxy: forwardProxy.url } : {}),
  });
  values.client = { hwid: client.hwid };
  const directory = mkdtempSync(join(tmpdir(), `latchkey-conformance-${scenario.id}-`));
  const heartbeat = { revocations: [] as unknown[], errors: [] as Error[] };
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
        await awaitHeartbeat(step, () => heartbeat, where);
      } else {
        const outcome = await callStep(client, step, values, directory, heartbeat);
        if (step.expect) checkOutcome(module, outcome, step.expect, values, directory, where);
        else if (outcome.error) throw outcome.error;
        if (step.as && !outcome.error) values[step.as] = outcome.value;
      }
    }
  } finally {
    client.stopHeartbeat();
    rmSync(directory, { recursive: true, force: true });
  }
}

interface CallOutcome {
  value: unknown;
  error: unknown;
  requestsSeen: number;
  forwardProxyRequests: number;
  elapsedMs: number;
}

type CallStep = Extract<ScenarioStep, { call: string }>;

async function callStep(
  client: LatchkeyClient,
  step: CallStep,
  values: Record<string, unknown>,
  directory: string,
  heartbeat: { revocations: unknown[]; errors: Error[] },
): Promise<CallOutcome> {
  // Data from the scenario file: the SDK call itself checks it at run time as a vendor's would.
  const input = resolveReferences(step.input ?? {}, values) as never;
  hostile.beginStep(step.hostile ?? 'pass');
  forwardProxy.takeCount();
  const started = Date.now();
  let value: unknown;
  let error: unknown;
  try {
    value = await invoke(client, step.call, input, directory, heartbeat);
  } catch (thrown) {
    error = thrown;
  }
  const outcome = {
    value,
    error,
    requestsSeen: hostile.state.requestsSeen,
    forwardProxyRequests: forwardProxy.takeCount(),
    elapsedMs: Date.now() - started,
  };
  hostile.beginStep('pass');
  return outcome;
}

/** The SDK call a step names, with the runner's own parts (a download's path, callbacks). */
function invoke(
  client: LatchkeyClient,
  call: CallStep['call'],
  input: never,
  directory: string,
  heartbeat: { revocations: unknown[]; errors: Error[] },
): unknown {
  switch (call) {
    case 'register':
      return client.register(input);
    case 'login':
      return client.login(input);
    case 'licenseLogin':
      return client.licenseLogin(input);
    case 'redeem':
      return client.redeem(input);
    case 'verify':
      return client.verify(input);
    case 'heartbeat':
      return client.heartbeat();
    case 'endSession':
      return client.endSession();
    case 'getVariable':
      return client.getVariable(input);
    case 'getUserVariable':
      return client.getUserVariable(input);
    case 'setUserVariable':
      return client.setUserVariable(input);
    case 'resetDevices':
      return client.resetDevices(input);
    case 'checkout':
      return client.checkout(input);
    case 'download':
      return client.download({
        destination: join(directory, 'download.bin'),
        ...(input as object),
      } as never);
    case 'checkForUpdate':
      return client.checkForUpdate((input as { answer: AuthAnswer }).answer);
    case 'verifyOfflineLicense': {
      const { license, hwid, now, lastSeenAt, applicationId } = input as Record<string, unknown>;
      return client.verifyOfflineLicense(license as string, {
        ...(hwid !== undefined ? { hwid: hwid as string } : {}),
        ...(now !== undefined ? { now: timeOf(now) } : {}),
        ...(lastSeenAt !== undefined ? { lastSeenAt: timeOf(lastSeenAt) } : {}),
        ...(applicationId !== undefined ? { applicationId: applicationId as number } : {}),
      });
    }
    case 'startHeartbeat':
      client.startHeartbeat({
        intervalMs: (input as { intervalMs?: number }).intervalMs ?? 30_000,
        onRevoked: (result) => heartbeat.revocations.push(result),
        onError: (error) => heartbeat.errors.push(error),
      });
      return undefined;
    case 'stopHeartbeat':
      client.stopHeartbeat();
      return undefined;
  }
}

function checkOutcome(
  module: TypeScriptSdk,
  outcome: CallOutcome,
  expected: Expectation,
  values: Record<string, unknown>,
  directory: string,
  where: string,
) {
  if (expected.throws) {
    expect(outcome.error, `${where}: throws ${expected.throws}`).toBeInstanceOf(
      module[expected.throws],
    );
    if (expected.reason !== undefined) {
      expect((outcome.error as { reason?: string }).reason, `${where}: reason`).toBe(
        expected.reason,
      );
    }
  } else if (outcome.error) {
    throw Object.assign(new Error(`${where}: ${String(outcome.error)}`), { cause: outcome.error });
  }
  expectAnswer(outcome.value, expected, values, where);
  expectMeasures(outcome, expected, where);
  expectDownloadedFile(expected, values, directory, where);
}
