import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { LiveLatchkey } from '../../samples/test/live-latchkey.ts';
import {
  resolveReferences,
  valueAt,
  type Expectation,
  type ScenarioStep,
} from './conformance-scenarios.ts';
import { createScenarioApplication } from './scenario-application.ts';

/**
 * The checks every language's runner makes of a scenario step, whatever shape its SDK's errors
 * take: each runner checks what was thrown itself, then hands the rest here, so a behaviour is
 * judged the same way for every library.
 */

/** What a runner measured around one call, beside its value. */
export interface CallMeasures {
  requestsSeen: number;
  forwardProxyRequests: number;
  elapsedMs: number;
}

/**
 * The answer's own expectations: null, success, code, fields (`fieldPath` names a field as this
 * language's SDK does), present, absent, patterns and times from now.
 */
export function expectAnswer(
  value: unknown,
  expected: Expectation,
  values: Record<string, unknown>,
  where: string,
  fieldPath: (path: string) => string = (path) => path,
) {
  if (expected.isNull) expect(value, `${where}: null`).toBeNull();
  if (expected.success !== undefined) {
    expect(valueAt(value, 'success'), `${where}: success`).toBe(expected.success);
  }
  if (expected.code !== undefined) {
    expect(valueAt(value, 'code'), `${where}: code`).toBe(expected.code);
  }
  for (const [path, want] of Object.entries(expected.fields ?? {})) {
    expect(valueAt(value, fieldPath(path)), `${where}: ${path}`).toEqual(
      resolveReferences(want, values),
    );
  }
  for (const path of expected.present ?? []) {
    expect(valueAt(value, path) ?? null, `${where}: ${path} present`).not.toBeNull();
  }
  for (const path of expected.absent ?? []) {
    expect(valueAt(value, path), `${where}: ${path} absent`).toBeUndefined();
  }
  for (const [path, pattern] of Object.entries(expected.matches ?? {})) {
    expect(String(valueAt(value, path)), `${where}: ${path}`).toMatch(new RegExp(pattern));
  }
  // Times the server chose from its clock (this machine's): how far from now, give or take.
  for (const [path, { seconds, withinSeconds }] of Object.entries(expected.timesFromNow ?? {})) {
    const time = Date.parse(String(valueAt(value, fieldPath(path))));
    expect(time, `${where}: ${path} is a time`).not.toBeNaN();
    const fromNowSeconds = (time - Date.now()) / 1000;
    expect(
      Math.abs(fromNowSeconds - seconds),
      `${where}: ${path} ${seconds} s from now`,
    ).toBeLessThanOrEqual(withinSeconds);
  }
}

/** How the call went on the wire: requests the server saw, through the proxy, time waited. */
export function expectMeasures(measures: CallMeasures, expected: Expectation, where: string) {
  if (expected.requestsSeen !== undefined) {
    expect(measures.requestsSeen, `${where}: requests seen`).toBe(expected.requestsSeen);
  }
  if (expected.forwardProxyRequests !== undefined) {
    expect(measures.forwardProxyRequests, `${where}: through the proxy`).toBe(
      expected.forwardProxyRequests,
    );
  }
  if (expected.minElapsedMs !== undefined) {
    expect(measures.elapsedMs, `${where}: waited`).toBeGreaterThanOrEqual(expected.minElapsedMs);
  }
}

/** A download's file in `directory`: kept with its signed SHA-256, or nothing left behind. */
export function expectDownloadedFile(
  expected: Expectation,
  values: Record<string, unknown>,
  directory: string,
  where: string,
) {
  if (!expected.file) return;
  const path = join(directory, 'download.bin');
  expect(existsSync(path), `${where}: file kept`).toBe(expected.file.kept);
  if (expected.file.kept && expected.file.sha256 !== undefined) {
    const sha256 = createHash('sha256').update(readFileSync(path)).digest('hex');
    expect(sha256, `${where}: file SHA-256`).toBe(resolveReferences(expected.file.sha256, values));
  }
  if (!expected.file.kept) {
    expect(readdirSync(directory), `${where}: nothing left behind`).toEqual([]);
  }
}

/** What a heartbeat loop reported by the end of an `await` step. */
export interface HeartbeatReport {
  revocations: unknown[];
  errors: unknown[];
}

/**
 * An `await` step: waits its delay, or until the loop reports a revocation (failing after its
 * timeout), reading the loop's report through `readReport`; then checks the report.
 */
export async function awaitHeartbeat(
  step: Extract<ScenarioStep, { await: string }>,
  readReport: () => HeartbeatReport | Promise<HeartbeatReport>,
  where: string,
) {
  let report = await readReport();
  if (step.await === 'delay') {
    await sleep(Number(step.input.ms));
    report = await readReport();
  } else {
    const deadline = Date.now() + Number(step.input.timeoutMs);
    while (report.revocations.length === 0 && Date.now() < deadline) {
      await sleep(50);
      report = await readReport();
    }
    expect(report.revocations.length, `${where}: a revocation reported`).toBeGreaterThan(0);
  }
  const expected = step.expect ?? {};
  if (expected.revocations !== undefined) {
    expect(report.revocations.length, `${where}: revocations`).toBe(expected.revocations);
  }
  if (expected.errors !== undefined) {
    expect(report.errors, `${where}: heartbeat errors`).toHaveLength(expected.errors);
  }
  const revocation = report.revocations[0] as Record<string, unknown> | undefined;
  if (expected.code !== undefined) expect(revocation?.code, `${where}: code`).toBe(expected.code);
  if (expected.success !== undefined) {
    expect(revocation?.success, `${where}: success`).toBe(expected.success);
  }
}

/**
 * A genuine licence of another application (its own key), checked out on `hwid`, straight over
 * HTTP: an owner-side arrangement, never a call of an SDK under test.
 */
export async function foreignOfflineLicense(live: LiveLatchkey, hwid: string) {
  const foreign = await createScenarioApplication(live, 'Conformance foreign');
  const user = await foreign.createUser();
  const post = async (path: string, body: Record<string, unknown>) => {
    const response = await fetch(`${live.baseUrl}/api/v1${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': foreign.application.apiKey },
      body: JSON.stringify(body),
    });
    return (await response.json()) as Record<string, unknown>;
  };
  const login = await post('/login', {
    username: user.username,
    password: user.password,
    version: foreign.application.version,
    hwid,
  });
  const token =
    typeof login.session_token === 'string'
      ? login.session_token
      : `sess_${randomBytes(16).toString('hex')}_${Math.floor(Date.now() / 1000)}`;
  const start = await post('/session/track', {
    action: 'start',
    user_id: login.user_id,
    session_token: token,
    hwid,
  });
  const checkout = await post('/license/checkout', { session_token: token });
  if (login.code !== 'OK' || start.code !== 'OK' || typeof checkout.license !== 'string') {
    throw new Error(`foreign licence: ${JSON.stringify({ login, start, checkout })}`);
  }
  return { license: checkout.license };
}

/** The URL of a port nothing listens on. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
