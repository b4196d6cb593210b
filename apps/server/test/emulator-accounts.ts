import { randomUUID } from 'node:crypto';

export const testEmulatorHost = () => process.env.TEST_AUTH_EMULATOR_HOST ?? '127.0.0.1:9499';

export interface GoogleTestAccount {
  sub: string;
  email: string;
  name?: string;
}

/** A unique fake Google account, so tests sharing one emulator never collide. */
export function newGoogleAccount(name = 'Test Owner'): GoogleTestAccount {
  const id = randomUUID().slice(0, 8);
  return { sub: `google-${id}`, email: `owner-${id}@example.com`, name };
}

/**
 * POSTs JSON to the emulator, once more if the connection was closed under us. fetch keeps
 * connections alive and does not retry a POST when the emulator closes an idle one just as
 * it is reused (the keep-alive race: "other side closed", seen on a loaded CI machine). Both
 * calls here are safe to repeat: the same Google account signs in as the same uid.
 */
async function postToEmulator(url: string, body: unknown): Promise<Response> {
  const send = () =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  try {
    return await send();
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    if (code !== 'UND_ERR_SOCKET' && code !== 'ECONNRESET') throw error;
    return send();
  }
}

/**
 * Signs in to the real Auth emulator with Google the way its documentation prescribes for
 * automated tests (an unsigned Google ID token), and returns the Firebase ID token.
 */
export async function emulatorGoogleIdToken(
  account: GoogleTestAccount,
  host = testEmulatorHost(),
): Promise<{ idToken: string; uid: string }> {
  const claims = JSON.stringify({ ...account, email_verified: true });
  const response = await postToEmulator(
    `http://${host}/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=demo-api-key`,
    {
      postBody: `id_token=${encodeURIComponent(claims)}&providerId=google.com`,
      requestUri: 'http://localhost',
      returnSecureToken: true,
    },
  );
  const body = (await response.json()) as { idToken?: string; localId?: string; error?: unknown };
  if (!body.idToken || !body.localId)
    throw new Error(`emulator sign-in failed: ${JSON.stringify(body)}`);
  return { idToken: body.idToken, uid: body.localId };
}

/** An ID token from the emulator's e-mail/password provider (not Google). */
export async function emulatorPasswordIdToken(host = testEmulatorHost()): Promise<string> {
  const response = await fetch(
    `http://${host}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=demo-api-key`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: `pw-${randomUUID().slice(0, 8)}@example.com`,
        password: 'correct horse battery',
        returnSecureToken: true,
      }),
    },
  );
  const body = (await response.json()) as { idToken: string };
  return body.idToken;
}

/** An unsigned token shaped like the emulator's, but issued for another Firebase project. */
export function foreignProjectIdToken(projectId = 'demo-someone-else'): string {
  const now = Math.floor(Date.now() / 1000);
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return [
    encode({ alg: 'none', typ: 'JWT' }),
    encode({
      iss: `https://securetoken.google.com/${projectId}`,
      aud: projectId,
      auth_time: now,
      user_id: 'foreign-user',
      sub: 'foreign-user',
      iat: now,
      exp: now + 3600,
      email: 'intruder@example.com',
      email_verified: true,
      firebase: { identities: {}, sign_in_provider: 'google.com' },
    }),
    '',
  ].join('.');
}

/**
 * A new Google identity (its own Google subject, so its own Firebase uid) with the verified
 * address `email`, as when an address was released and registered again by someone else.
 * The emulator, like a real project, keeps one account per address (it folds a Google
 * sign-in with a known address into that account and refuses duplicates even through its
 * admin API), so the identity that held the address is deleted from the emulator first.
 */
export async function newGoogleIdentityWithEmail(
  previousHolder: GoogleTestAccount,
  host = testEmulatorHost(),
): Promise<GoogleTestAccount> {
  const { uid } = await emulatorGoogleIdToken(previousHolder, host);
  const response = await fetch(
    `http://${host}/identitytoolkit.googleapis.com/v1/projects/demo-latchkey/accounts:delete`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer owner' },
      body: JSON.stringify({ localId: uid }),
    },
  );
  if (!response.ok) throw new Error(`emulator account delete failed: ${await response.text()}`);
  return { ...newGoogleAccount(), email: previousHolder.email };
}
