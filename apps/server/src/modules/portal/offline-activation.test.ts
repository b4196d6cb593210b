import { randomBytes, verify } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  ACTIVATION_NEEDS_SIGN_IN,
  ACTIVATION_NO_FREE_DEVICE,
  ACTIVATION_OTHER_ACCOUNT,
  ACTIVATION_OTHER_APPLICATION,
  ACTIVATION_REQUEST_MALFORMED,
  applicationSchema,
  deviceListSchema,
  offlineLicenseContentSchema,
  portalAccountSchema,
  portalOfflineActivationSchema,
  type ActivationRequestContent,
  type Application,
} from '@latchkey/contracts';
import { activityLogs } from '../../db/schema/index.ts';
import { createManualClock } from '../../lib/clock.ts';
import {
  callClientApi,
  createAppUserViaApi,
  createApplicationViaApi,
  createPlanViaApi,
  generateLicensesViaApi,
} from '../../../test/factories.ts';
import { ed25519PublicKey } from '../../../test/client-calls.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';
import { testConsoleOrigin } from '../../../test/test-app.ts';
import { decryptOfflineLicensePayload } from '../client-api/offline-license-format.ts';
import { encodeActivationRequest } from './activation-request.ts';

const PASSWORD = 'correct horse battery staple';
const DAY_MS = 86_400_000;

/** The content of a plain licence whose signature holds under the application's key. */
function readLicense(application: Application, license: string) {
  const [prefix, payload, signature] = license.split('.');
  expect(prefix).toBe('LK1');
  const signed = verify(
    null,
    Buffer.from(`latchkey-license-v1.${payload}`, 'ascii'),
    ed25519PublicKey(application.signingPublicKey),
    Buffer.from(signature!, 'base64url'),
  );
  expect(signed).toBe(true);
  return offlineLicenseContentSchema.parse(
    JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')),
  );
}

/**
 * Air-gapped activation: a program without the network writes an activation request, its user
 * pastes it into the portal from another computer and gets an offline licence for the machine.
 */
describe('the portal: offline activation of an air-gapped machine', () => {
  const start = new Date('2026-06-01T12:00:00Z');
  const clock = createManualClock(start);
  const testApp = startTestAppForSuite({ clock });
  const owner = signInOwnerForSuite(testApp);

  const setUp = async (settings: Record<string, unknown> = {}) => {
    const created = await createApplicationViaApi(testApp.app, owner);
    const updated = await testApp.app.inject({
      method: 'PUT',
      url: `/api/applications/${created.id}`,
      headers: owner.headers,
      payload: {
        hwidLockEnabled: true,
        maxDevices: 1,
        portalEnabled: true,
        maxOfflineDays: 60,
        ...settings,
      },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    const application = applicationSchema.parse(updated.json());
    const plan = await createPlanViaApi(testApp.app, owner, application.id, {
      name: 'Lab',
      durationDays: 365,
      entitlements: ['LAB'],
    });
    return { application, plan, base: `/api/portal/${application.portalPublicId}` };
  };
  const requestFor = (application: Application, fields: Partial<ActivationRequestContent>) =>
    encodeActivationRequest({
      app: application.signingPublicKey.toLowerCase(),
      hwid: 'LAB-MACHINE-0001',
      nonce: randomBytes(12).toString('base64url'),
      created_at: clock.now().toISOString(),
      ...fields,
    });
  const activate = (base: string, request: string, cookie?: string) =>
    testApp.app.inject({
      method: 'POST',
      url: `${base}/offline-activation`,
      headers: { origin: testConsoleOrigin, ...(cookie ? { cookie } : {}) },
      payload: { request },
    });
  const signIn = async (base: string, username: string) => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: `${base}/session`,
      headers: { origin: testConsoleOrigin },
      payload: { username, password: PASSWORD },
    });
    const cookie = response.cookies.find((each) => each.name === 'latchkey_portal');
    if (!cookie) throw new Error(`no portal cookie: ${response.body}`);
    return `latchkey_portal=${cookie.value}`;
  };

  it('activates a machine with the licence key in its request, then counts it as a device', async () => {
    clock.set(start);
    const { application, plan, base } = await setUp();
    const [key] = await generateLicensesViaApi(testApp.app, owner, application.id, {
      planId: plan.id,
    });
    // Copied across lines, as a request shown in a narrow window would be.
    const request = requestFor(application, {
      license_key: key!.key,
      device_name: 'Lab bench',
    }).replace(/(.{40})/g, '$1\n');
    const answered = await activate(base, request);
    expect(answered.statusCode, answered.body).toBe(200);
    const activation = portalOfflineActivationSchema.parse(answered.json());
    const content = readLicense(application, activation.license);
    expect(content).toMatchObject({
      application_id: application.id,
      username: activation.username,
      hwid: 'LAB-MACHINE-0001',
      entitlements: ['LAB'],
      valid_until: new Date(start.getTime() + 60 * DAY_MS).toISOString(),
    });
    expect(activation.username).toMatch(/^key-/);

    // The key is redeemed for its own user, whose one seat the machine now holds, marked as
    // activated offline; the owner sees it so.
    const devices = await testApp.app.inject({
      url: `/api/applications/${application.id}/users/${content.user_id}/devices`,
      headers: owner.headers,
    });
    expect(deviceListSchema.parse(devices.json())).toEqual([
      expect.objectContaining({
        hwid: 'LAB-MACHINE-0001',
        name: 'Lab bench',
        activatedOfflineAt: start.toISOString(),
      }),
    ]);
    // The same machine again (a renewal) keeps its seat; another machine has none.
    clock.set(new Date(start.getTime() + 30 * DAY_MS));
    const renewed = await activate(base, requestFor(application, { license_key: key!.key }));
    expect(renewed.statusCode, renewed.body).toBe(200);
    const other = await activate(
      base,
      requestFor(application, { license_key: key!.key, hwid: 'LAB-MACHINE-0002' }),
    );
    expect(other.statusCode).toBe(409);
    expect(other.json()).toMatchObject({ message: ACTIVATION_NO_FREE_DEVICE });
    // The program logging in online from that machine later finds it bound.
    const online = await callClientApi(testApp.app, 'license/login', {
      apiKey: application.apiKey,
      body: { license_key: key!.key, hwid: 'LAB-MACHINE-0001', version: '1.0.0' },
    });
    expect(online.json()).toMatchObject({ code: 'OK', username: activation.username });

    const events = await testApp.database.db
      .select({ metadata: activityLogs.metadata })
      .from(activityLogs)
      .where(
        and(
          eq(activityLogs.applicationId, application.id),
          eq(activityLogs.event, 'license_checkout'),
        ),
      );
    expect(events).toHaveLength(2);
    expect(events[0]?.metadata).toMatchObject({
      via: 'offline_activation',
      hwid: 'LAB-MACHINE-0001',
      nonce: expect.any(String),
    });
    // Neither the key nor the licence is in the log.
    expect(JSON.stringify(events)).not.toContain(key!.key);
  });

  it('activates for the signed-in account, encrypted when asked, and refuses what is not right', async () => {
    clock.set(start);
    const { application, base } = await setUp({ hwidLockEnabled: false });
    const user = await createAppUserViaApi(testApp.app, owner, application.id, {
      password: PASSWORD,
    });
    const cookie = await signIn(base, user.username);

    const encrypted = await activate(
      base,
      requestFor(application, { username: user.username.toUpperCase(), encrypt: true }),
      cookie,
    );
    expect(encrypted.statusCode, encrypted.body).toBe(200);
    const { license } = portalOfflineActivationSchema.parse(encrypted.json());
    const [prefix, payload] = license.split('.');
    expect(prefix).toBe('LK1E');
    const content = offlineLicenseContentSchema.parse(
      JSON.parse(
        decryptOfflineLicensePayload(
          payload!,
          'LAB-MACHINE-0001',
          application.signingPublicKey,
        ).toString('utf8'),
      ),
    );
    expect(content).toMatchObject({ user_id: user.id, hwid: 'LAB-MACHINE-0001' });
    // Without HWID lock no device is bound: the account keeps none.
    const account = await testApp.app.inject({
      url: `${base}/account`,
      headers: { cookie },
    });
    expect(portalAccountSchema.parse(account.json()).devices).toEqual([]);

    for (const [request, status, message, withCookie] of [
      ['LKA1.not-a-request.x', 400, ACTIVATION_REQUEST_MALFORMED, true],
      // A request changed after the program wrote it fails its check.
      [
        requestFor(application, {}).replace(/.$/, (last) => (last === 'A' ? 'B' : 'A')),
        400,
        ACTIVATION_REQUEST_MALFORMED,
        true,
      ],
      [requestFor(application, { app: 'ab'.repeat(32) }), 400, ACTIVATION_OTHER_APPLICATION, true],
      [requestFor(application, { username: 'someone-else' }), 400, ACTIVATION_OTHER_ACCOUNT, true],
      [requestFor(application, {}), 401, ACTIVATION_NEEDS_SIGN_IN, false],
      [
        requestFor(application, { license_key: 'AAAAA-BBBBB-CCCCC-DDDDD' }),
        400,
        'This licence key is not valid',
        false,
      ],
    ] as const) {
      const refused = await activate(base, request, withCookie ? cookie : undefined);
      expect(refused.statusCode, refused.body).toBe(status);
      expect(refused.json()).toMatchObject({ message });
    }
    const empty = await activate(base, '  \n ', cookie);
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ message: 'request: Please paste the activation request' });

    // A paused account gets no licence.
    const paused = await testApp.app.inject({
      method: 'PUT',
      url: `/api/applications/${application.id}/users/${user.id}`,
      headers: owner.headers,
      payload: { isPaused: true },
    });
    expect(paused.statusCode, paused.body).toBe(200);
    const key = await generateLicensesViaApi(testApp.app, owner, application.id, {
      planId: (await createPlanViaApi(testApp.app, owner, application.id)).id,
    });
    const keyUser = await activate(base, requestFor(application, { license_key: key[0]!.key }));
    expect(keyUser.statusCode, keyUser.body).toBe(200);
    const refusedForPause = await activate(base, requestFor(application, {}), cookie);
    expect(refusedForPause.statusCode).toBe(401);
  });

  it('holds a floating plan\u2019s seat for an air-gapped computer, borrowed as long as its licence', async () => {
    clock.set(start);
    const { application, base } = await setUp({ hwidLockEnabled: false });
    const team = await createPlanViaApi(testApp.app, owner, application.id, {
      name: 'Team',
      floating: true,
      seats: 1,
      maxBorrowDays: 10,
    });
    const [key] = await generateLicensesViaApi(testApp.app, owner, application.id, {
      planId: team.id,
    });
    const answered = await activate(base, requestFor(application, { license_key: key!.key }));
    expect(answered.statusCode, answered.body).toBe(200);
    // The plan lets a seat go offline for ten days: the licence lasts that, not 60.
    expect(portalOfflineActivationSchema.parse(answered.json()).validUntil).toBe(
      new Date(start.getTime() + 10 * DAY_MS).toISOString(),
    );
    const other = await activate(
      base,
      requestFor(application, { license_key: key!.key, hwid: 'LAB-MACHINE-0002' }),
    );
    expect(other.statusCode).toBe(409);
    const online = await callClientApi(testApp.app, 'license/login', {
      apiKey: application.apiKey,
      body: { license_key: key!.key, hwid: 'OFFICE', version: '1.0.0' },
    });
    expect(online.json()).toMatchObject({ code: 'NO_SEAT_AVAILABLE' });
  });
});
