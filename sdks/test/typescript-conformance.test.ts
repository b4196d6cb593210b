import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type {
  ClientApiCode,
  ClientAuthResponse,
  ClientDeviceResetResponse,
  ClientFileResponse,
  ClientLicenseCheckoutResponse,
  ClientMailResponse,
  ClientMeter,
  ClientReturnResponse,
  ClientSessionResponse,
  ClientUseMeterResponse,
  ClientVariableResponse,
  ClientVerifyResponse,
  OfflineLicenseContent as ContractOfflineLicenseContent,
} from '@latchkey/contracts';
import { expect, it } from 'vitest';
import { encodeActivationRequest } from '../../apps/server/src/modules/portal/activation-request.ts';
import type {
  AuthAnswer,
  CheckoutAnswer,
  DeviceResetAnswer,
  FileAnswer,
  MailAnswer,
  Meter,
  MeterAnswer,
  OfflineLicenseContent,
  ResultCode,
  SeatReturnAnswer,
  SessionAnswer,
  VariableAnswer,
  VerifyAnswer,
} from '../typescript/src/index.ts';
import { conformanceFile, resolveReferences } from './conformance-scenarios.ts';
import { describeDriverConformance } from './driver-conformance.ts';
import type { ConformanceDriver } from './driver-process.ts';
import { installTypeScriptSdk } from './installed-typescript-sdk.ts';
import { typeScriptDriver } from './typescript-driver.ts';

/**
 * The TypeScript SDK's run of the language-neutral conformance suite (sdks/conformance): the
 * package is built, packed and installed from its tarball outside the repository, and every
 * scenario runs through the installed package, loaded once by `import` and once by `require`,
 * against a live Latchkey behind a proxy that can attack each step. The calls are made in process
 * by typescript-driver.ts, which answers the same requests as every other language's driver.
 */

// The SDK's wire types are written out so the package needs no runtime dependency; the
// contracts are the source, and this fails the typecheck the day the two differ.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
// A licence without meters (issued before them, or to a user without any) reads as an empty
// list: the SDK's content always has the field the contract makes optional.
type ReadOfflineLicenseContent = Omit<ContractOfflineLicenseContent, 'meters'> & {
  meters: ClientMeter[];
};
const sdkTypesMatchTheContracts: [
  Same<ResultCode, ClientApiCode>,
  Same<AuthAnswer, ClientAuthResponse>,
  Same<VerifyAnswer, ClientVerifyResponse>,
  Same<SessionAnswer, ClientSessionResponse>,
  Same<VariableAnswer, ClientVariableResponse>,
  Same<DeviceResetAnswer, ClientDeviceResetResponse>,
  Same<CheckoutAnswer, ClientLicenseCheckoutResponse>,
  Same<FileAnswer, ClientFileResponse>,
  Same<MailAnswer, ClientMailResponse>,
  Same<Meter, ClientMeter>,
  Same<MeterAnswer, ClientUseMeterResponse>,
  Same<SeatReturnAnswer, ClientReturnResponse>,
  Same<OfflineLicenseContent, ReadOfflineLicenseContent>,
] = [true, true, true, true, true, true, true, true, true, true, true, true, true];

type InstalledTypeScript = Awaited<ReturnType<typeof installTypeScriptSdk>> & {
  driver: ConformanceDriver;
  requireDriver: ConformanceDriver;
};

let sdk: InstalledTypeScript;

describeDriverConformance({
  name: 'the TypeScript SDK (@latchkey/client)',
  available: () => true,
  async install() {
    const installed = await installTypeScriptSdk();
    sdk = {
      ...installed,
      driver: typeScriptDriver(installed.imported),
      requireDriver: typeScriptDriver(installed.required),
    };
    return sdk;
  },
  variants: [
    { label: 'by import', driver: (installed) => installed.driver },
    { label: 'by require', driver: (installed) => installed.requireDriver },
  ],
  packageTests() {
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
  export const request: string = client.createActivationRequest({ licenseKey: 'AAAAA', encrypt: true });
  export const standalone: string = sdk.createActivationRequest({ publicKey: '${'a'.repeat(64)}', hwid: 'x' });
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
    // Every SDK is held to these bytes; here they are held to the server's own encoder (the
    // order of the fields, what is left out, the time to the millisecond in UTC).
    it('holds the activation request vectors to the server’s own encoding', () => {
      const written = conformanceFile.activationRequestVectors.filter((vector) => !vector.refused);
      expect(written.length).toBeGreaterThan(3);
      for (const vector of written) {
        const publicKey = resolveReferences(vector.publicKey, { keys: conformanceFile.keys });
        const encoded = encodeActivationRequest({
          app: (publicKey as string).toLowerCase(),
          hwid: vector.hwid,
          ...(vector.licenseKey ? { license_key: vector.licenseKey } : {}),
          ...(vector.username ? { username: vector.username } : {}),
          ...(vector.deviceName ? { device_name: vector.deviceName } : {}),
          ...(vector.encrypt ? { encrypt: true } : {}),
          nonce: vector.nonce,
          created_at: new Date(vector.now).toISOString(),
        });
        expect(encoded, vector.id).toBe(vector.expect);
      }
    });

    it('never writes to the console nor ends the process', () => {
      const distDir = join(sdk.consumerDir, 'node_modules', '@latchkey', 'client', 'dist');
      for (const format of readdirSync(distDir)) {
        for (const file of readdirSync(join(distDir, format))) {
          if (!file.endsWith('.js')) continue;
          const code = readFileSync(join(distDir, format, file), 'utf8');
          expect(code, file).not.toMatch(/\bconsole\.|process\.exit|process\.std(out|err)/);
        }
      }
    });
  },
});
