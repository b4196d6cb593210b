import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { AuthAnswer, LatchkeyClient } from '../typescript/src/index.ts';
import type { ConformanceDriver } from './driver-process.ts';
import type { TypeScriptSdk } from './installed-typescript-sdk.ts';

/**
 * The TypeScript SDK's conformance driver, in process: the same requests every other
 * language's driver answers over its stdin (see driver-process.ts), performed through the
 * installed package as loaded by the runner. Values stay JavaScript objects (a login's result
 * goes back into `checkForUpdate` as the SDK returned it); only errors are reduced to the
 * protocol's `{ type, reason, message }`, by the package's own classes.
 */
// The protocol's requests are JSON from the scenario file, passed on as a vendor's program would
// pass its own values: the SDK checks them at run time.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Request = Record<string, any>;

export function typeScriptDriver(sdk: TypeScriptSdk): ConformanceDriver {
  let client: LatchkeyClient | null = null;
  /** A scenario's other clients (other computers), by name. */
  let others = new Map<string, LatchkeyClient>();
  let heartbeat = { revocations: [] as unknown[], errors: [] as string[] };
  const stopAll = () => {
    client?.stopHeartbeat();
    for (const other of others.values()) other.stopHeartbeat();
  };

  const operations: Record<string, (request: Request) => unknown> = {
    info: () => ({
      resultCodes: [...sdk.resultCodes],
      offlineLicenseCodes: [...sdk.offlineLicenseCodes],
      signatureErrorReasons: [...sdk.signatureErrorReasons],
      transportErrorReasons: [...sdk.transportErrorReasons],
    }),
    signatureVector: (request) =>
      sdk.checkAnswerSignature({
        publicKey: request.publicKey,
        timestamp: request.timestamp,
        signature: request.signature,
        nonce: request.nonce,
        body: request.body,
        nowSeconds: request.now,
      }),
    offlineVector: (request) =>
      sdk.verifyOfflineLicense(request.license, {
        publicKey: request.publicKey,
        hwid: request.hwid,
        now: new Date(request.now),
        ...(request.lastSeenAt ? { lastSeenAt: new Date(request.lastSeenAt) } : {}),
        ...(request.applicationId !== undefined ? { applicationId: request.applicationId } : {}),
      }),
    machineIdVector: (request) => sdk.hashMachineId(request.rawMachineId, request.publicKey),
    activationRequestVector: (request) => {
      const { publicKey, hwid, licenseKey, username, deviceName, encrypt, nonce, now } = request;
      try {
        return {
          text: sdk.createActivationRequest({
            publicKey,
            hwid,
            ...(licenseKey !== undefined ? { licenseKey } : {}),
            ...(username !== undefined ? { username } : {}),
            ...(deviceName !== undefined ? { deviceName } : {}),
            ...(encrypt !== undefined ? { encrypt } : {}),
            ...(nonce !== undefined ? { nonce } : {}),
            ...(now !== undefined ? { now: new Date(now) } : {}),
          }),
        };
      } catch (error) {
        if (error instanceof TypeError) return { refused: error.message };
        throw error;
      }
    },
    thisMachine: (request) => {
      const probe = new sdk.LatchkeyClient({
        baseUrl: request.baseUrl,
        apiKey: 'lk_live_unused',
        publicKey: request.publicKey,
        version: '1.0.0',
      });
      const raw = sdk.readRawMachineId();
      return {
        machineId: probe.machineId(),
        hashedRaw: sdk.hashMachineId(raw, request.publicKey),
        raw,
        hwid: probe.hwid,
      };
    },
    // With `client`, one of the scenario's other clients; else the scenario's own, anew.
    construct: (request) => {
      if (typeof request.client === 'string') {
        others.get(request.client)?.stopHeartbeat();
        const other = new sdk.LatchkeyClient(request.options);
        others.set(request.client, other);
        return { hwid: other.hwid };
      }
      stopAll();
      others = new Map();
      heartbeat = { revocations: [], errors: [] };
      client = new sdk.LatchkeyClient(request.options);
      return { hwid: client.hwid };
    },
    call: async (request) => {
      const started = Date.now();
      const caller = typeof request.client === 'string' ? others.get(request.client) : client;
      if (!caller) throw new Error(`the TypeScript driver has no client ${request.client}`);
      try {
        const value = await invoke(caller, request.call, request.input);
        return { value, elapsedMs: Date.now() - started };
      } catch (error) {
        if (error instanceof sdk.SignatureError || error instanceof sdk.TransportError) {
          const type = error instanceof sdk.SignatureError ? 'SignatureError' : 'TransportError';
          return {
            error: { type, reason: error.reason, message: error.message },
            elapsedMs: Date.now() - started,
          };
        }
        throw error;
      }
    },
    // The SDK overhead benchmark (bench/sdk-overhead.mjs): `count` calls one after another
    // through the SDK, then as plain HTTP requests the way a program without the SDK would send
    // them (node:http, the SDK's own stack, a fresh nonce each; the answer read and parsed, its
    // signature not checked).
    timeCalls: async (request) => {
      const started = process.hrtime.bigint();
      let value: unknown;
      for (let index = 0; index < request.count; index += 1) {
        value = await invoke(client!, request.call, request.input);
      }
      return { elapsedMs: Number(process.hrtime.bigint() - started) / 1e6, value };
    },
    timeRawCalls: async (request) => {
      const body = JSON.stringify(request.body);
      const started = process.hrtime.bigint();
      let answer: unknown;
      for (let index = 0; index < request.count; index += 1) {
        answer = await postJson(request.url, request.apiKey, body);
      }
      return { elapsedMs: Number(process.hrtime.bigint() - started) / 1e6, value: answer };
    },
    heartbeatState: () => heartbeat,
    dispose: () => {
      stopAll();
      client = null;
      others = new Map();
      return null;
    },
  };

  /** The SDK call a step names, with the driver's own parts (times, callbacks). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  function invoke(client: LatchkeyClient, call: string, input: any): unknown {
    switch (call) {
      case 'register':
        return client.register(input);
      case 'login':
        return client.login(input);
      case 'licenseLogin':
        return client.licenseLogin(input);
      case 'startTrial':
        return client.startTrial(input);
      case 'redeem':
        return client.redeem(input);
      case 'verify':
        return client.verify(input);
      case 'heartbeat':
        return client.heartbeat();
      case 'resumeSession':
        return client.resumeSession(input);
      case 'endSession':
        return client.endSession();
      case 'getVariable':
        return client.getVariable(input);
      case 'getUserVariable':
        return client.getUserVariable(input);
      case 'setUserVariable':
        return client.setUserVariable(input);
      case 'useMeter': {
        const { name, amount, idempotencyKey } = input;
        return client.useMeter(name, {
          ...(amount !== undefined ? { amount } : {}),
          ...(idempotencyKey !== undefined ? { idempotencyKey } : {}),
        });
      }
      case 'resetDevices':
        return client.resetDevices(input);
      case 'checkout':
        return client.checkout(input);
      case 'borrowSeat': {
        const { days, encrypt } = input;
        return client.borrowSeat(days, encrypt !== undefined ? { encrypt } : {});
      }
      case 'returnSeat':
        return client.returnSeat();
      case 'forgotPassword':
        return client.forgotPassword(input);
      case 'resendVerification':
        return client.resendVerification(input);
      case 'download':
        return client.download(input);
      case 'checkForUpdate':
        return client.checkForUpdate((input as { answer: AuthAnswer }).answer);
      case 'verifyOfflineLicense': {
        const { license, hwid, now, lastSeenAt, applicationId } = input;
        return client.verifyOfflineLicense(license, {
          ...(hwid !== undefined ? { hwid } : {}),
          ...(now !== undefined ? { now: new Date(now) } : {}),
          ...(lastSeenAt !== undefined ? { lastSeenAt: new Date(lastSeenAt) } : {}),
          ...(applicationId !== undefined ? { applicationId } : {}),
        });
      }
      case 'createActivationRequest':
        return client.createActivationRequest(input);
      case 'startHeartbeat':
        client.startHeartbeat({
          intervalMs: (input as { intervalMs?: number }).intervalMs ?? 30_000,
          onRevoked: (result) => heartbeat.revocations.push(result),
          onError: (error) => heartbeat.errors.push(String(error)),
        });
        return undefined;
      case 'stopHeartbeat':
        client.stopHeartbeat();
        return undefined;
      default:
        throw new Error(`the TypeScript driver knows no call ${call}`);
    }
  }

  return {
    async send<Result>(op: string, request: Record<string, unknown> = {}) {
      const operation = operations[op];
      if (!operation) throw new Error(`the TypeScript driver knows no operation ${op}`);
      return (await operation(request)) as Result;
    },
    // In process, the console is the runner's own: the package's sources are checked for
    // console writes instead (see the package tests).
    strayOutput: () => '',
  };
}

/** One plain POST through node:http's default (keep-alive) agent, the SDK's own stack. */
function postJson(url: string, apiKey: string, body: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        'x-api-key': apiKey,
        'x-request-nonce': randomBytes(16).toString('hex'),
      },
    });
    outgoing.on('error', reject);
    outgoing.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        } catch (error) {
          reject(error as Error);
        }
      });
      response.on('error', reject);
    });
    outgoing.end(body);
  });
}
