import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ownerAccounts, ownerSessions } from '../../db/schema/index.ts';
import {
  emulatorGoogleIdToken,
  emulatorPasswordIdToken,
  foreignProjectIdToken,
  newGoogleAccount,
  newGoogleIdentityWithEmail,
} from '../../../test/emulator-accounts.ts';
import { startTestAppForSuite } from '../../../test/suite-test-app.ts';
import { createTestApp, signInOwner, testConsoleOrigin } from '../../../test/test-app.ts';

describe('owner sign-in with Google through Firebase', () => {
  const testApp = startTestAppForSuite();

  const login = (
    payload: object,
    headers: Record<string, string> = { origin: testConsoleOrigin },
  ) => testApp.app.inject({ method: 'POST', url: '/api/auth/firebase-login', payload, headers });

  it('creates the first account as the site owner and later ones as users', async () => {
    const first = await signInOwner(testApp.app, newGoogleAccount('Ada Lovelace'));
    const second = await signInOwner(testApp.app);
    const firstProfile = await testApp.app.inject({
      url: '/api/auth/user',
      headers: first.headers,
    });
    expect(firstProfile.statusCode).toBe(200);
    expect(firstProfile.json()).toEqual({
      id: first.accountId,
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: first.account.email,
      userPermissions: { role: 'owner', permissions: [] },
    });
    const secondProfile = await testApp.app.inject({
      url: '/api/auth/user',
      headers: second.headers,
    });
    expect(secondProfile.json().userPermissions).toEqual({
      role: 'user',
      permissions: ['manage_applications', 'delete_applications'],
    });
    expect(second.accountId).not.toBe(first.accountId);
  });

  it('makes exactly one site owner when the first sign-ins arrive at once', async () => {
    const fresh = await createTestApp({ env: { DEFAULT_ACCOUNT_PERMISSIONS: 'edit_code' } });
    try {
      const accounts = await Promise.all(
        Array.from({ length: 4 }, () => signInOwner(fresh.app, newGoogleAccount())),
      );
      const rows = await fresh.database.db
        .select({ role: ownerAccounts.role, permissions: ownerAccounts.permissions })
        .from(ownerAccounts);
      expect(rows).toHaveLength(accounts.length);
      expect(rows.filter((row) => row.role === 'owner')).toEqual([
        { role: 'owner', permissions: [] },
      ]);
      expect(rows.filter((row) => row.role === 'user')).toEqual(
        Array.from({ length: 3 }, () => ({ role: 'user', permissions: ['edit_code'] })),
      );
    } finally {
      await fresh.close();
    }
  });

  it('signs the same Google account in to the same owner', async () => {
    const account = newGoogleAccount();
    const first = await signInOwner(testApp.app, account);
    const again = await signInOwner(testApp.app, account);
    expect(again.accountId).toBe(first.accountId);
    expect(again.cookie).not.toBe(first.cookie);
  });

  it('never links another Google identity by e-mail: it gets its own account', async () => {
    const original = await signInOwner(testApp.app);
    const { uid: originalUid } = await emulatorGoogleIdToken(original.account);
    const newcomer = await newGoogleIdentityWithEmail(original.account);
    const { uid: newcomerUid } = await emulatorGoogleIdToken(newcomer);
    expect(newcomerUid).not.toBe(originalUid);

    const signedIn = await signInOwner(testApp.app, newcomer);
    expect(signedIn.accountId).not.toBe(original.accountId);
    const accounts = await testApp.database.db
      .select()
      .from(ownerAccounts)
      .where(inArray(ownerAccounts.id, [original.accountId, signedIn.accountId]));
    expect(accounts.find((row) => row.id === original.accountId)?.firebaseUid).toBe(originalUid);
    expect(accounts.find((row) => row.id === signedIn.accountId)?.firebaseUid).toBe(newcomerUid);
    // The original session still opens the original account, and only it.
    const profile = await testApp.app.inject({ url: '/api/auth/user', headers: original.headers });
    expect(profile.statusCode).toBe(200);
    expect(profile.json().id).toBe(original.accountId);
    const newcomerProfile = await testApp.app.inject({
      url: '/api/auth/user',
      headers: signedIn.headers,
    });
    expect(newcomerProfile.json().id).toBe(signedIn.accountId);
  });

  it('sets an HttpOnly, SameSite=Lax session cookie holding a 256-bit token stored only hashed', async () => {
    const { idToken } = await emulatorGoogleIdToken(newGoogleAccount());
    const response = await login({ firebase_token: idToken });
    const cookie = response.cookies.find((c) => c.name === 'latchkey_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(Buffer.from(cookie!.value, 'base64url').length).toBe(32);
    const stored = await testApp.database.db.select().from(ownerSessions);
    expect(stored.some((row) => row.tokenHash === cookie!.value)).toBe(false);
    expect(stored.every((row) => /^[0-9a-f]{64}$/.test(row.tokenHash))).toBe(true);
  });

  it.each([
    ['a garbage token', async () => 'not-a-jwt'],
    ['a token of another Firebase project', async () => foreignProjectIdToken()],
    ['a non-Google (password) sign-in', async () => emulatorPasswordIdToken()],
  ])('refuses %s with success false and no session', async (_label, makeToken) => {
    const response = await login({ firebase_token: await makeToken() });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ success: false });
    expect(response.json().account_id).toBeUndefined();
    expect(response.cookies.find((c) => c.name === 'latchkey_session')).toBeUndefined();
  });

  it('trusts the token, not the uid or e-mail in the body', async () => {
    const victim = await signInOwner(testApp.app);
    const attacker = newGoogleAccount();
    const { idToken } = await emulatorGoogleIdToken(attacker);
    const response = await login({
      firebase_token: idToken,
      firebase_uid: victim.account.sub,
      email: victim.account.email,
    });
    expect(response.json().account_id).not.toBe(victim.accountId);
  });

  it.each([
    ['from a foreign origin', { origin: 'https://evil.example' }],
    ['without an Origin', {}],
    ['by a cross-site fetch', { origin: testConsoleOrigin, 'sec-fetch-site': 'cross-site' }],
    ['by a same-site fetch', { 'sec-fetch-site': 'same-site' }],
  ])('refuses a sign-in posted %s (login CSRF)', async (_label, headers) => {
    const { idToken } = await emulatorGoogleIdToken(newGoogleAccount());
    const response = await login({ firebase_token: idToken }, headers);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'FORBIDDEN' });
    expect(response.cookies).toHaveLength(0);
  });

  it('accepts a sign-in without Origin when Sec-Fetch-Site says same-origin', async () => {
    const { idToken } = await emulatorGoogleIdToken(newGoogleAccount());
    const response = await login({ firebase_token: idToken }, { 'sec-fetch-site': 'same-origin' });
    expect(response.json()).toMatchObject({ success: true });
  });

  it('allows only PUBLIC_ORIGIN when it is set, whatever the Host header says', async () => {
    const behindProxy = await createTestApp({
      env: { PUBLIC_ORIGIN: 'https://latchkey.example.com' },
    });
    try {
      const { idToken } = await emulatorGoogleIdToken(newGoogleAccount());
      const hostOrigin = await behindProxy.app.inject({
        method: 'POST',
        url: '/api/auth/firebase-login',
        headers: { host: 'evil.example', origin: 'http://evil.example' },
        payload: { firebase_token: idToken },
      });
      expect(hostOrigin.statusCode).toBe(403);
      const publicOrigin = await behindProxy.app.inject({
        method: 'POST',
        url: '/api/auth/firebase-login',
        headers: { origin: 'https://latchkey.example.com' },
        payload: { firebase_token: idToken },
      });
      expect(publicOrigin.json()).toMatchObject({ success: true });
    } finally {
      await behindProxy.close();
    }
  });

  it('requires a session for owner routes', async () => {
    for (const url of ['/api/auth/user', '/api/dashboard/stats']) {
      const response = await testApp.app.inject({ url });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
      const forged = await testApp.app.inject({
        url,
        headers: { cookie: 'latchkey_session=forged' },
      });
      expect(forged.statusCode).toBe(401);
    }
  });

  it('refuses an x-account-id naming another account, even a real one', async () => {
    const alice = await signInOwner(testApp.app);
    const bob = await signInOwner(testApp.app);
    const response = await testApp.app.inject({
      url: '/api/auth/user',
      headers: { cookie: alice.cookie, 'x-account-id': bob.accountId },
    });
    expect(response.statusCode).toBe(403);
    const withoutHeader = await testApp.app.inject({
      url: '/api/auth/user',
      headers: { cookie: alice.cookie },
    });
    expect(withoutHeader.json().id).toBe(alice.accountId);
  });

  it('logs out server-side: clears the cookie, redirects home, and the old cookie stops working', async () => {
    const owner = await signInOwner(testApp.app);
    const response = await testApp.app.inject({ url: '/api/logout', headers: owner.headers });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/');
    const cleared = response.cookies.find((c) => c.name === 'latchkey_session');
    expect(cleared?.value).toBe('');
    const replay = await testApp.app.inject({ url: '/api/auth/user', headers: owner.headers });
    expect(replay.statusCode).toBe(401);
    const sessions = await testApp.database.db
      .select()
      .from(ownerSessions)
      .where(eq(ownerSessions.accountId, owner.accountId));
    expect(sessions).toHaveLength(0);
  });

  it('expires sessions after their lifetime', async () => {
    const owner = await signInOwner(testApp.app);
    await testApp.database.db
      .update(ownerSessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(ownerSessions.accountId, owner.accountId));
    const response = await testApp.app.inject({ url: '/api/auth/user', headers: owner.headers });
    expect(response.statusCode).toBe(401);
  });
});
