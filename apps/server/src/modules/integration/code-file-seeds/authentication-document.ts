/** The seeded text of authentication.ts (a reference document; see code-file-seeds.ts). */
export const authenticationDocument = String.raw`/**
 * authentication.ts: how your programs authenticate their users with Latchkey.
 *
 * This is a reference document kept in your Latchkey account. Edit it freely: add your own
 * notes, your program's conventions, the settings you chose. Every save keeps the previous
 * version (see Version History), so nothing you write here is lost. Latchkey never runs it.
 *
 * The ready-to-paste clients are on the Integration page (C#, Python, Node.js, C++).
 */

// 1. Every call names your application with its API key, in the X-API-Key header.
//    Keep the key in your program; it identifies the application, not a user.
const BASE_URL = 'https://your-latchkey.example.com'; // the Base URL shown on /integration
const API_KEY = 'YOUR_API_KEY';

interface AuthResponse {
  success: boolean; // true exactly when code is 'OK'
  code: string; // program against the code, never against the message text
  message: string; // your application's own message (editable in the console)
  user_id?: string; // an opaque UUID: store it to verify the user on the next start
  username?: string;
  email?: string | null;
  expires_at?: string | null;
  hwid_locked?: boolean;
  session_token?: string; // use it for the session start below
}

async function call(path: string, body: object): Promise<AuthResponse> {
  const response = await fetch(BASE_URL + '/api/v1/' + path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-API-Key': API_KEY },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000), // the samples wait 30 seconds
  });
  // Business outcomes (wrong password, expired, blocked...) are HTTP 200 with success false.
  // Only malformed requests (400), a bad API key (401) and rate limits (429, see Retry-After)
  // are HTTP errors; a 5xx is a server fault: treat it like a network error.
  return (await response.json()) as AuthResponse;
}

// 2. Register, POST /api/v1/register (optional: you can also create users in the console).
//    The password needs at least 8 characters unless your installation says otherwise.
export function register(username: string, password: string, email?: string, hwid?: string) {
  return call('register', { username, password, email, hwid });
}

// 3. Log in, POST /api/v1/login. Checks run in this order; the first that fails answers:
//    application active -> failed-login limits -> blacklist (IP, username, e-mail, HWID)
//    -> credentials -> paused/inactive -> expiry -> version -> HWID lock.
//    A wrong password and an unknown username give the same answer, on purpose.
export function login(username: string, password: string, version: string, hwid: string) {
  return call('login', { username, password, version, hwid });
}

// 4. Verify: is this user still in good standing now (exists, active, not paused, not
//    expired)? Call it right after login, on every start with the saved user_id, and every
//    5 minutes while the program runs. Three failures in a row: log the user out.
export function verify(userId: string) {
  return call('verify', { user_id: userId });
}

// 5. Sessions: start once after login (with the session_token login returned), heartbeat
//    every 30 seconds, end on logout. A session silent for 90 seconds stops counting as live.
//    Pausing, deactivating or expiring a user in the console ends their sessions at once;
//    the program learns it at its next heartbeat.
export function trackSession(
  action: 'start' | 'heartbeat' | 'end',
  sessionToken: string,
  userId?: string,
) {
  return call('session/track', { action, session_token: sessionToken, user_id: userId });
}

// 6. Trust only signed answers. Every /api/v1 response carries X-Signature-Timestamp and
//    X-Signature-Ed25519 over "{timestamp}.{nonce}.{body}". Pin your application's signing
//    public key (Application > API Configuration), send a fresh X-Request-Nonce with every
//    request, and refuse answers whose signature does not verify or whose timestamp is far
//    from your clock. The samples on /integration do all of this for you.

// Codes you will meet: OK, INVALID_CREDENTIALS, ACCOUNT_DISABLED, ACCOUNT_EXPIRED,
// VERSION_MISMATCH, HWID_MISMATCH, BLACKLISTED, USERNAME_TAKEN, APP_DISABLED,
// USER_NOT_FOUND, SESSION_INVALID, INVALID_REQUEST, INVALID_API_KEY, RATE_LIMITED.
// The full contract: docs/client-api.md, and the Documentation page of the console.
`;
