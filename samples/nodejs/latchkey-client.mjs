// Latchkey client sample for Node.js: a console program (Node 20 or later, no dependencies).
//
// Run it with `node latchkey-client.mjs`. It asks for a username and a password, logs in,
// verifies the account, then keeps a live session (a heartbeat every 30 s, a verify every
// 5 min) while it shows a `> ` prompt that accepts `status`, `redeem`, `release`, `note`,
// `help` and `logout`. At the Username prompt, `/register` creates an account (with a licence key if you
// sell them), `/key` logs in with a licence key alone, `/forgot` has a link to choose a new
// password mailed to the account's address and `/resend` a new link to confirm that address
// (for an application that lets only confirmed addresses log in); `redeem` adds a key to the account
// that is logged in; `release` frees this machine's seat (the user can then log in from
// another one) where the application allows it. Logins send this machine's name, which the
// owner sees in the user's device list. The main screen shows the user's entitlements and
// subscriptions. Every answer from the server is checked against the application's Ed25519
// signing key before it is believed, so a fake server cannot unlock the program. After each
// login it checks out an offline licence (kept in ~/.latchkey beside the saved session): when a
// later start cannot reach the server at all, that licence, checked with the same pinned key,
// lets the user work offline until it runs out, on this machine only. The main screen shows
// the vendor's message and the user's note (remote variables); `note` saves a new note. A
// version the server no longer accepts is offered the current release, which is downloaded
// beside the program and kept only if it matches the SHA-256 the server signed. Import it to
// reuse `LatchkeyClient` and `verifyResponseSignature` in your own program: the console part
// only runs when this file is executed directly.

// Settings: Latchkey fills these in when you copy the sample for your application.
export const API_KEY = 'YOUR_API_KEY';
export const BASE_URL = 'YOUR_LATCHKEY_URL';
export const APP_VERSION = 'YOUR_APP_VERSION';
export const SIGNING_PUBLIC_KEY = 'YOUR_SIGNING_PUBLIC_KEY';
// Entitlement codes this program needs (e.g. ['PRO']): verify refuses a user who lacks one
// (ENTITLEMENTS_MISSING). Empty: any user in good standing may use it.
export const REQUIRED_ENTITLEMENTS = [];
// Remote variables (set in the console): the application's message shown on the main screen,
// and the user's own note, which the user may change unless the vendor made it read-only.
export const WELCOME_MESSAGE_VARIABLE = 'welcome_message';
export const NOTE_VARIABLE = 'note';

export const HEARTBEAT_INTERVAL_SECONDS = 30;
export const VERIFY_INTERVAL_SECONDS = 300;
export const MAX_VERIFY_FAILURES = 3;
export const HTTP_TIMEOUT_SECONDS = 30;
export const MAX_CLOCK_SKEW_SECONDS = 300;
// How long an update's download may take in all.
export const DOWNLOAD_TIMEOUT_SECONDS = 600;
// The longest `device_name` the server accepts (in JavaScript characters, UTF-16 units).
export const MAX_DEVICE_NAME_LENGTH = 128;
// How long a licence checked out after login lets the program run without the network (7 days;
// the application's Max Offline Days caps it).
export const OFFLINE_LICENSE_TTL_SECONDS = 604800;
// How far the clock may seem to go back between runs before an offline licence is refused.
export const CLOCK_TOLERANCE_SECONDS = 300;
// Where Linux keeps the machine identifier the hardware id is made from (the first one found).
export const MACHINE_ID_FILES = ['/etc/machine-id', '/var/lib/dbus/machine-id'];

import { execFileSync } from 'node:child_process';
import { createHash, createPublicKey, randomBytes, randomUUID, verify } from 'node:crypto';
import {
  createWriteStream,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { cpus, homedir, hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { clearLine, createInterface, cursorTo } from 'node:readline';
import { Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const NOT_VERIFIED_MESSAGE = 'The server response could not be verified.';
export const MISSING_CREDENTIALS_MESSAGE = 'Please provide both username and password';
export const MISSING_LICENSE_KEY_MESSAGE = 'Please provide a licence key';
export const MISSING_USERNAME_OR_EMAIL_MESSAGE = 'Please provide a username or an e-mail address';
export const SESSION_EXPIRED_MESSAGE = 'Your session has expired. Please login again.';
export const LOGGED_OUT_MESSAGE = 'You have been logged out.';
export const VERIFY_AFTER_LOGIN_FAILED_MESSAGE =
  'Session verification failed. Please try logging in again.';
export const RESEND_VERIFICATION_HINT =
  'Type /resend at the Username prompt to be mailed a new link.';
export const DEVICE_RELEASED_LOGOUT_MESSAGE =
  'This device is released and its session has ended: log in again here or on another machine.';
export const OFFLINE_REFUSED_TITLE = 'Offline Licence Refused';
export const SERVER_UNREACHABLE_TITLE = 'Server Unreachable';
export const UPDATE_REFUSED_TITLE = 'Update Refused';
export const UPDATE_TAMPERED_MESSAGE = 'The download does not match its signed SHA-256.';
export const SERVER_UNREACHABLE_MESSAGE =
  'Cannot reach the server, and there is no offline licence on this machine.';

const HEX_SIGNATURE = /^[0-9a-fA-F]{128}$/;
const HEX_PUBLIC_KEY = /^[0-9a-fA-F]{64}$/;
const UNIX_SECONDS = /^\d{1,15}$/;

/**
 * Whether a response really comes from your Latchkey application: the Ed25519 signature
 * (`X-Signature-Ed25519`, hex) must cover `{timestamp}.{nonce}.{body}` exactly as received,
 * under the application's public key, and the timestamp (`X-Signature-Timestamp`) must be
 * within `maxClockSkewSeconds` of this machine's clock, so an old genuine answer cannot be
 * replayed. Anything missing or malformed is simply not genuine.
 */
export function verifyResponseSignature({
  publicKeyHex,
  timestamp,
  nonce,
  body,
  signatureHex,
  nowSeconds = Date.now() / 1000,
  maxClockSkewSeconds = MAX_CLOCK_SKEW_SECONDS,
}) {
  if (typeof publicKeyHex !== 'string' || !HEX_PUBLIC_KEY.test(publicKeyHex)) return false;
  if (typeof signatureHex !== 'string' || !HEX_SIGNATURE.test(signatureHex)) return false;
  if (typeof timestamp !== 'string' || !UNIX_SECONDS.test(timestamp)) return false;
  if (Math.abs(nowSeconds - Number(timestamp)) > maxClockSkewSeconds) return false;
  try {
    const key = createPublicKey({
      key: {
        kty: 'OKP',
        crv: 'Ed25519',
        x: Buffer.from(publicKeyHex, 'hex').toString('base64url'),
      },
      format: 'jwk',
    });
    const bodyBytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body);
    const message = Buffer.concat([Buffer.from(`${timestamp}.${nonce}.`, 'utf8'), bodyBytes]);
    return verify(null, message, key, Buffer.from(signatureHex, 'hex'));
  } catch {
    return false;
  }
}

/** Why an offline licence is refused, each with the text the user sees. */
export const offlineRefusalMessage = (refusal, content) => {
  switch (refusal) {
    case 'another-machine':
      return 'This offline licence belongs to another machine.';
    case 'expired':
      return `This offline licence expired on ${formatLocalTime(content.valid_until)}.`;
    case 'clock':
      return 'The system clock moved backwards since the last run.';
    default:
      return 'This offline licence is not signed by this application.';
  }
};

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * The bytes of a canonical base64url segment, else null: Buffer.from forgives padding,
 * whitespace, stray characters and non-zero unused bits, so a segment counts only when it
 * re-encodes to exactly itself.
 */
function fromBase64Url(segment) {
  const bytes = Buffer.from(segment, 'base64url');
  const isCanonical = BASE64URL.test(segment) && bytes.toString('base64url') === segment;
  return isCanonical ? bytes : null;
}

/**
 * Checks an offline licence (`LK1.<payload>.<signature>`, docs/client-api.md "Offline
 * licences") without the network, and answers `{ content }` when it holds, else `{ refusal,
 * content }` with `refusal` one of `not-signed`, `another-machine`, `expired` or `clock`.
 *
 * - The signature, under the application's public key pinned in this program, covers
 *   `latchkey-license-v1.` and the payload segment: nothing but the server holds the private
 *   key, so an edited or home-made licence is refused (and so is one of another application).
 * - The licence names the machine it was issued to: a copy on another machine is refused.
 * - Offline, this machine's clock is the only judge of `valid_until`, so setting it back would
 *   stretch the licence for ever: `lastSeenSeconds` is the latest time this program has seen,
 *   and a clock more than CLOCK_TOLERANCE_SECONDS before it (or before the licence was issued)
 *   has been moved backwards.
 */
export function verifyOfflineLicense(
  license,
  {
    publicKeyHex,
    applicationId,
    hwid,
    nowSeconds = Date.now() / 1000,
    lastSeenSeconds = 0,
    clockToleranceSeconds = CLOCK_TOLERANCE_SECONDS,
  },
) {
  const notSigned = { refusal: 'not-signed', content: null };
  const parts = typeof license === 'string' ? license.split('.') : [];
  // This program checks licences out in the plain form; an encrypted one (LK1E) is not its own.
  if (parts.length !== 3 || parts[0] !== 'LK1') return notSigned;
  const [, payload, signature] = parts;
  const payloadBytes = fromBase64Url(payload);
  const signatureBytes = fromBase64Url(signature);
  if (payloadBytes === null || signatureBytes?.length !== 64) return notSigned;
  if (typeof publicKeyHex !== 'string' || !HEX_PUBLIC_KEY.test(publicKeyHex)) return notSigned;
  let content;
  try {
    const key = createPublicKey({
      key: {
        kty: 'OKP',
        crv: 'Ed25519',
        x: Buffer.from(publicKeyHex, 'hex').toString('base64url'),
      },
      format: 'jwk',
    });
    const message = Buffer.from(`latchkey-license-v1.${payload}`, 'ascii');
    if (!verify(null, message, key, signatureBytes)) return notSigned;
    content = JSON.parse(payloadBytes.toString('utf8'));
  } catch {
    return notSigned;
  }
  if (content === null || typeof content !== 'object') return notSigned;
  if (content.application_id !== applicationId) return { refusal: 'not-signed', content };
  if (typeof content.hwid !== 'string' || content.hwid !== hwid) {
    return { refusal: 'another-machine', content };
  }
  const validUntil = Date.parse(content.valid_until) / 1000;
  if (!(nowSeconds <= validUntil)) return { refusal: 'expired', content };
  const issuedAt = Date.parse(content.issued_at) / 1000;
  const latestSeen = Math.max(
    Number(lastSeenSeconds) || 0,
    Number.isFinite(issuedAt) ? issuedAt : 0,
  );
  if (nowSeconds + clockToleranceSeconds < latestSeen) return { refusal: 'clock', content };
  return { content };
}

/**
 * A server time (ISO 8601) as this computer's local time to the minute, rounded up (never
 * before the time meant): `2026-06-08 17:30`. The text as it came when it is not a time.
 */
export function formatLocalTime(iso) {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return String(iso);
  const local = new Date(Math.ceil(at / 60_000) * 60_000);
  const two = (number) => String(number).padStart(2, '0');
  return (
    `${local.getFullYear()}-${two(local.getMonth() + 1)}-${two(local.getDate())} ` +
    `${two(local.getHours())}:${two(local.getMinutes())}`
  );
}

/**
 * A network failure, a timeout, a server fault (5xx) or an answer that is not JSON.
 * `isUnreachable`: no HTTP answer came at all (refused, DNS, timeout), the only case in which
 * the program may fall back to its offline licence; a server that answers is never bypassed.
 */
export class ConnectionError extends Error {
  constructor(detail, { isUnreachable = false } = {}) {
    super(`Connection error: ${detail}`);
    this.name = 'ConnectionError';
    this.detail = detail;
    this.isUnreachable = isUnreachable;
  }
}

/** An answer whose signature or timestamp did not check out: never to be believed. */
export class ResponseNotVerifiedError extends Error {
  constructor() {
    super(NOT_VERIFIED_MESSAGE);
    this.name = 'ResponseNotVerifiedError';
  }
}

/**
 * The title for a refusal (of a login, a registration, a redemption or a verify), chosen by
 * the stable `code` (never by the message, which the vendor may rewrite), and whether the
 * program must exit. Codes without a title of their own get `fallbackTitle`.
 */
export function describeRefusal(code, fallbackTitle = 'Login Failed') {
  switch (code) {
    case 'VERSION_MISMATCH':
      return { title: 'Update Required', shouldExit: true };
    case 'HWID_MISMATCH':
      return { title: 'Hardware Mismatch', shouldExit: false };
    case 'ACCOUNT_EXPIRED':
      return { title: 'Account Expired', shouldExit: false };
    case 'ACCOUNT_DISABLED':
      return { title: 'Account Disabled', shouldExit: false };
    case 'BLACKLISTED':
      return { title: 'Access Blocked', shouldExit: true };
    case 'RATE_LIMITED':
      return { title: 'Too Many Attempts', shouldExit: false };
    case 'NO_ACTIVE_SUBSCRIPTION':
      return { title: 'Subscription Required', shouldExit: false };
    case 'LICENSE_REQUIRED':
      return { title: 'Licence Key Required', shouldExit: false };
    case 'LICENSE_INVALID':
      return { title: 'Invalid Licence Key', shouldExit: false };
    case 'LICENSE_USED':
      return { title: 'Licence Key Used', shouldExit: false };
    case 'LICENSE_BANNED':
      return { title: 'Licence Key Banned', shouldExit: false };
    case 'LICENSE_EXPIRED':
      return { title: 'Licence Key Lapsed', shouldExit: false };
    case 'ENTITLEMENTS_MISSING':
      return { title: 'Feature Not Included', shouldExit: false };
    case 'RESET_NOT_ALLOWED':
      return { title: 'Reset Not Allowed', shouldExit: false };
    case 'RESET_COOLDOWN':
      return { title: 'Reset Not Yet Available', shouldExit: false };
    case 'DEVICE_NOT_FOUND':
      return { title: 'Device Not Found', shouldExit: false };
    case 'MAIL_UNAVAILABLE':
      return { title: 'E-mail Unavailable', shouldExit: false };
    case 'EMAIL_NOT_VERIFIED':
      return { title: 'E-mail Not Verified', shouldExit: false };
    default:
      return { title: fallbackTitle, shouldExit: false };
  }
}

/**
 * What the user holds, from a login, verify, register or redeem answer: the sorted
 * entitlement codes and the active subscriptions (`expiresAt` null: lifetime).
 */
export function licensingOf(answer) {
  const entitlements = Array.isArray(answer?.entitlements)
    ? answer.entitlements.filter((code) => typeof code === 'string')
    : [];
  const subscriptions = Array.isArray(answer?.subscriptions)
    ? answer.subscriptions
        .filter((item) => item && typeof item.plan === 'string')
        .map((item) => ({
          plan: item.plan,
          expiresAt: typeof item.expires_at === 'string' ? item.expires_at : null,
        }))
    : [];
  return { entitlements, subscriptions };
}

export const formatEntitlements = (entitlements) =>
  entitlements.length > 0 ? entitlements.join(', ') : 'none';

export const formatSubscriptions = (subscriptions) =>
  subscriptions.length > 0
    ? subscriptions
        .map(({ plan, expiresAt }) =>
          expiresAt ? `${plan} until ${expiresAt}` : `${plan} (lifetime)`,
        )
        .join(', ')
    : 'none';

/**
 * This machine's hardware id: the SHA-256 (hex) of its machine identifier (Linux
 * /etc/machine-id, the Windows MachineGuid, the macOS platform UUID) and its processor model.
 * Where no machine identifier can be read, the host name, platform and architecture stand in.
 */
export function getHardwareId() {
  const processor = cpus()[0]?.model ?? 'unknown processor';
  const machine = readMachineIdentifier();
  const source = machine
    ? `${machine}|${processor}`
    : `fallback|${hostname()}|${process.platform}|${process.arch}|${processor}`;
  return createHash('sha256').update(source, 'utf8').digest('hex');
}

function readMachineIdentifier() {
  try {
    if (process.platform === 'win32') {
      const output = execFileSync(
        'reg',
        ['query', 'HKLM\\SOFTWARE\\Microsoft\\Cryptography', '/v', 'MachineGuid'],
        { encoding: 'utf8', timeout: 5000, windowsHide: true },
      );
      return /MachineGuid\s+REG_SZ\s+(\S+)/.exec(output)?.[1] ?? null;
    }
    if (process.platform === 'darwin') {
      const output = execFileSync('ioreg', ['-rd1', '-c', 'IOPlatformExpertDevice'], {
        encoding: 'utf8',
        timeout: 5000,
      });
      return /"IOPlatformUUID" = "([^"]+)"/.exec(output)?.[1] ?? null;
    }
  } catch {
    return null;
  }
  for (const path of MACHINE_ID_FILES) {
    try {
      const id = readFileSync(path, 'utf8').trim();
      if (id) return id;
    } catch {
      // Not there on this system: try the next place.
    }
  }
  return null;
}

/**
 * This machine's name as the owner sees it in the user's device list (`device_name`): the host
 * name without control characters, trimmed, and cut to MAX_DEVICE_NAME_LENGTH (never inside a
 * character) so that no machine name can make the server refuse a login. Empty: none is sent.
 */
export function getDeviceName(machineName = hostname()) {
  let name = String(machineName)
    .replace(/\p{Cc}/gu, '')
    .trim();
  if (name.length > MAX_DEVICE_NAME_LENGTH) {
    name = name
      .slice(0, MAX_DEVICE_NAME_LENGTH)
      .replace(/[\uD800-\uDBFF]$/, '')
      .trim();
  }
  return name;
}

/** A session token in the clients' own format: `sess_<32 hex>_<unix seconds>`. */
export function createSessionToken() {
  return `sess_${randomUUID().replaceAll('-', '')}_${Math.floor(Date.now() / 1000)}`;
}

const preview = (token) => `${String(token).slice(0, 8)}…`;

const defaultLog = (line) => console.log(`[latchkey] ${line}`);

/**
 * The Latchkey client: login, verify and the session calls, each answer verified before it
 * is read, and session monitoring (a heartbeat and a periodic verify). Refusals are data
 * (`{ success: false, code, message }`); only a bad input, a connection problem or an
 * unverifiable answer throws.
 */
export class LatchkeyClient {
  constructor({
    apiKey = API_KEY,
    baseUrl = BASE_URL,
    version = APP_VERSION,
    signingPublicKey = SIGNING_PUBLIC_KEY,
    hardwareId = getHardwareId(),
    deviceName = getDeviceName(),
    requiredEntitlements = REQUIRED_ENTITLEMENTS,
    log = defaultLog,
  } = {}) {
    this.apiKey = apiKey;
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.version = version;
    this.signingPublicKey = signingPublicKey;
    this.hardwareId = hardwareId;
    this.deviceName = deviceName;
    this.requiredEntitlements = requiredEntitlements;
    this.log = log;
    this.session = null;
    this.timers = [];
    this.isMonitoring = false;
  }

  /**
   * One call to the client API. The answer's signature is checked over its raw bytes before
   * anything reads them; a 5xx is a server fault, reported like a network error.
   */
  async post(path, payload) {
    const nonce = randomBytes(16).toString('hex');
    let response;
    let body;
    try {
      response = await fetch(`${this.baseUrl}/api/v1${path}`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'X-API-Key': this.apiKey,
          'X-Request-Nonce': nonce,
        },
        body: JSON.stringify(payload),
        signal: AbortSignal.timeout(HTTP_TIMEOUT_SECONDS * 1000),
      });
      body = Buffer.from(await response.arrayBuffer());
    } catch (error) {
      throw new ConnectionError(describeNetworkError(error), { isUnreachable: true });
    }
    const isGenuine = verifyResponseSignature({
      publicKeyHex: this.signingPublicKey,
      timestamp: response.headers.get('x-signature-timestamp'),
      nonce,
      body,
      signatureHex: response.headers.get('x-signature-ed25519'),
    });
    if (!isGenuine) {
      this.log(`response not verified (${path}, HTTP ${response.status})`);
      throw new ResponseNotVerifiedError();
    }
    let data;
    try {
      data = JSON.parse(body.toString('utf8'));
    } catch {
      throw new ConnectionError('Failed to parse response');
    }
    if (data === null || typeof data !== 'object' || typeof data.code !== 'string') {
      throw new ConnectionError('Failed to parse response');
    }
    if (response.status >= 500) {
      throw new ConnectionError(
        typeof data.message === 'string' ? data.message : `HTTP ${response.status}`,
      );
    }
    const retryAfter = Number(response.headers.get('retry-after'));
    return {
      ...data,
      success: data.success === true && data.code === 'OK',
      message: typeof data.message === 'string' ? data.message : '',
      retryAfterSeconds: response.status === 429 && retryAfter > 0 ? retryAfter : null,
    };
  }

  /** POST /login. Throws when either field is empty, before any request is made. */
  async login(username, password) {
    const name = typeof username === 'string' ? username.trim() : '';
    if (!name || typeof password !== 'string' || password.length === 0) {
      throw new Error(MISSING_CREDENTIALS_MESSAGE);
    }
    const result = await this.post('/login', {
      username: name,
      password,
      api_key: this.apiKey,
      version: this.version,
      hwid: this.hardwareId,
      ...(this.deviceName ? { device_name: this.deviceName } : {}),
    });
    this.log(result.success ? 'login ok' : `login refused (${result.code})`);
    return result;
  }

  /**
   * POST /register: a new account, with a licence key redeemed in the same step when one is
   * given (required when the application sells its access by key). No session: log in next.
   */
  async register({ username, password, email = '', licenseKey = '' }) {
    const name = typeof username === 'string' ? username.trim() : '';
    if (!name || typeof password !== 'string' || password.length === 0) {
      throw new Error(MISSING_CREDENTIALS_MESSAGE);
    }
    const result = await this.post('/register', {
      username: name,
      password,
      hwid: this.hardwareId,
      ...(email.trim() ? { email: email.trim() } : {}),
      ...(licenseKey.trim() ? { license_key: licenseKey.trim() } : {}),
    });
    this.log(result.success ? 'register ok' : `register refused (${result.code})`);
    return result;
  }

  /** POST /license/login: log in with a licence key alone; answers like `login`. */
  async loginWithLicense(licenseKey) {
    const key = typeof licenseKey === 'string' ? licenseKey.trim() : '';
    if (!key) throw new Error(MISSING_LICENSE_KEY_MESSAGE);
    const result = await this.post('/license/login', {
      license_key: key,
      hwid: this.hardwareId,
      version: this.version,
      ...(this.deviceName ? { device_name: this.deviceName } : {}),
    });
    this.log(result.success ? 'licence login ok' : `licence login refused (${result.code})`);
    return result;
  }

  /** POST /license/redeem: adds a key to an account; its password proves the holder. */
  async redeemLicense(username, password, licenseKey) {
    const key = typeof licenseKey === 'string' ? licenseKey.trim() : '';
    if (!key) throw new Error(MISSING_LICENSE_KEY_MESSAGE);
    if (typeof password !== 'string' || password.length === 0) {
      throw new Error(MISSING_CREDENTIALS_MESSAGE);
    }
    const result = await this.post('/license/redeem', {
      username,
      password,
      license_key: key,
    });
    this.log(result.success ? 'redeem ok' : `redeem refused (${result.code})`);
    return result;
  }

  /**
   * POST /devices/reset for this machine (its hardware id, as logins send it): frees its seat so
   * the user can log in from another machine; the password proves the holder. The server ends
   * this machine's sessions at once, so a success leaves no session to end (`forgetSession`).
   * `next_reset_at` says when the user may release a device again (null: no cooldown).
   */
  async releaseDevice(username, password) {
    const name = typeof username === 'string' ? username.trim() : '';
    if (!name || typeof password !== 'string' || password.length === 0) {
      throw new Error(MISSING_CREDENTIALS_MESSAGE);
    }
    const result = await this.post('/devices/reset', {
      username: name,
      password,
      hwid: this.hardwareId,
    });
    this.log(result.success ? 'release ok' : `release refused (${result.code})`);
    return result;
  }

  /**
   * POST /password/forgot: has a link to choose a new password mailed to the account, named by
   * its username or, when the text holds an '@', by its e-mail address (every address has one,
   * few usernames do). The answer is the same whether or not such an account exists, so it
   * tells no one who has an account here.
   */
  async forgotPassword(usernameOrEmail) {
    const name = typeof usernameOrEmail === 'string' ? usernameOrEmail.trim() : '';
    if (!name) throw new Error(MISSING_USERNAME_OR_EMAIL_MESSAGE);
    const result = await this.post(
      '/password/forgot',
      name.includes('@') ? { email: name } : { username: name },
    );
    this.log(
      result.success ? 'password reset requested' : `password reset refused (${result.code})`,
    );
    return result;
  }

  /**
   * POST /email/verify/resend: has a new link to confirm the account's e-mail address mailed to
   * it, where the application lets only confirmed addresses log in (login answers
   * EMAIL_NOT_VERIFIED until the link is followed). The password proves the holder. The answer
   * is the same whether or not the account exists or its address is confirmed already.
   */
  async resendVerification(username, password) {
    const name = typeof username === 'string' ? username.trim() : '';
    if (!name || typeof password !== 'string' || password.length === 0) {
      throw new Error(MISSING_CREDENTIALS_MESSAGE);
    }
    const result = await this.post('/email/verify/resend', { username: name, password });
    this.log(
      result.success
        ? 'verification e-mail requested'
        : `verification e-mail refused (${result.code})`,
    );
    return result;
  }

  /**
   * POST /verify: is this user still in good standing, and do they hold the entitlements this
   * program needs? The answer names their entitlements and subscriptions.
   */
  async verify(userId) {
    const entitlements = this.requiredEntitlements;
    return this.post('/verify', {
      user_id: userId,
      ...(entitlements.length > 0 ? { entitlements } : {}),
    });
  }

  /**
   * Opens the session for a verified user: with the token login returned, or (for a saved
   * session, which has none) a token of our own, which the server accepts from the address and
   * device of the user's last login.
   */
  async startSession(user, loginToken) {
    const token = loginToken || createSessionToken();
    const result = await this.post('/session/track', {
      action: 'start',
      user_id: user.userId,
      session_token: token,
      hwid: this.hardwareId,
    });
    if (result.success) {
      this.session = {
        ...user,
        token,
        startedAt: new Date(),
        lastHeartbeatAt: null,
        lastVerifiedAt: new Date(),
        verifyFailures: 0,
      };
      this.log(`session started (${preview(token)})`);
    } else {
      this.log(`session start refused (${result.code})`);
    }
    return result;
  }

  /**
   * POST /license/checkout for the open session: a signed licence (`license`, `valid_until`)
   * that lets this program start without the network for OFFLINE_LICENSE_TTL_SECONDS.
   */
  async checkOutLicense() {
    const session = this.session;
    if (!session) throw new Error('No active session.');
    const result = await this.post('/license/checkout', {
      session_token: session.token,
      ttl_seconds: OFFLINE_LICENSE_TTL_SECONDS,
    });
    this.log(result.success ? 'licence checked out' : `licence checkout refused (${result.code})`);
    return result;
  }

  /**
   * POST /var: an application variable (`value`), read with the open session (a vendor may let
   * some be read without one). VARIABLE_NOT_FOUND when the application has none of that name.
   */
  async readVariable(name) {
    return this.post('/var', {
      name,
      ...(this.session ? { session_token: this.session.token } : {}),
    });
  }

  /** POST /user-var: one of the logged-in user's own variables (`value`). */
  async readUserVariable(name) {
    if (!this.session) throw new Error('No active session.');
    return this.post('/user-var', { session_token: this.session.token, name });
  }

  /** POST /user-var/set: saves one of the user's own variables; VARIABLE_READ_ONLY if the vendor locked it. */
  async setUserVariable(name, value) {
    if (!this.session) throw new Error('No active session.');
    const result = await this.post('/user-var/set', {
      session_token: this.session.token,
      name,
      value,
    });
    this.log(result.success ? `${name} saved` : `${name} not saved (${result.code})`);
    return result;
  }

  /**
   * Downloads the update a VERSION_MISMATCH answer offered (`update`: version, file_id, size,
   * sha256) into `directory`: POST /file for a short-lived URL, then the bytes into a temporary
   * file while their SHA-256 is computed. The bytes themselves are not signed (anything between
   * here and the server could change them), so they are kept, as `update-<version>.bin`, only
   * when their size and SHA-256 are the ones the server signed; otherwise the temporary file is
   * deleted. Answers `{ path }`, `{ isTampered: true }`, or `{ refusal }` (the /file answer).
   */
  async downloadUpdate(update, directory) {
    const link = await this.post('/file', {
      file_id: update.file_id,
      ...(this.session ? { session_token: this.session.token } : {}),
    });
    if (!link.success || typeof link.url !== 'string') return { refusal: link };
    const expectedSize = update.size;
    const expectedSha256 = String(update.sha256).toLowerCase();
    const temporary = join(directory, `.update-${randomBytes(8).toString('hex')}.part`);
    const hash = createHash('sha256');
    let size = 0;
    const measure = new Transform({
      transform(chunk, _encoding, done) {
        size += chunk.length;
        // More than was signed is wrong already: stop rather than fill the disk.
        if (size > expectedSize) return done(new Error('larger than its signed size'));
        hash.update(chunk);
        done(null, chunk);
      },
    });
    try {
      const response = await fetch(new URL(link.url, `${this.baseUrl}/`), {
        signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_SECONDS * 1000),
      });
      if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
      await pipeline(
        Readable.fromWeb(response.body),
        measure,
        createWriteStream(temporary, { mode: 0o600 }),
      );
    } catch (error) {
      rmSync(temporary, { force: true });
      if (size > expectedSize) {
        this.log('update refused: larger than its signed size');
        return { isTampered: true };
      }
      throw new ConnectionError(`download failed: ${describeNetworkError(error)}`);
    }
    const sha256 = hash.digest('hex');
    if (size !== expectedSize || sha256 !== expectedSha256) {
      rmSync(temporary, { force: true });
      this.log(`update refused: ${size} bytes, SHA-256 ${sha256}`);
      return { isTampered: true };
    }
    const path = join(directory, `update-${String(update.version).replace(/[^\w.-]/g, '_')}.bin`);
    renameSync(temporary, path);
    this.log(`update saved (${size} bytes, SHA-256 ${sha256})`);
    return { path };
  }

  /** Stops monitoring and drops the session without an end call: the server has ended it. */
  forgetSession() {
    this.stopMonitoring();
    this.session = null;
  }

  /** Ends the open session, if any; failures are only logged (the session is over for us). */
  async endSession() {
    const session = this.session;
    this.session = null;
    if (!session) return;
    try {
      const result = await this.post('/session/track', {
        action: 'end',
        session_token: session.token,
      });
      this.log(result.success ? 'session ended' : `Session end error: ${result.message}`);
    } catch (error) {
      this.log(`Session end error: ${error.message}`);
    }
  }

  /**
   * Heartbeats and periodic verifies. Heartbeat failures and network errors are only logged;
   * a verify refusal (or an answer that cannot be verified) counts, a success resets the
   * count, and MAX_VERIFY_FAILURES in a row end the session and call `onForcedLogout`.
   * `onHeartbeat` is called after each heartbeat the server accepted.
   */
  startMonitoring({ onForcedLogout, onHeartbeat = () => {} }) {
    this.stopMonitoring();
    this.isMonitoring = true;
    let isHeartbeatRunning = false;
    let isVerifyRunning = false;
    const heartbeat = async () => {
      if (isHeartbeatRunning || !this.session) return;
      isHeartbeatRunning = true;
      const session = this.session;
      try {
        const result = await this.post('/session/track', {
          action: 'heartbeat',
          session_token: session.token,
        });
        if (result.success) {
          session.lastHeartbeatAt = new Date();
          this.log('heartbeat ok');
          onHeartbeat();
        } else {
          this.log(`heartbeat failed (${result.code}): ${result.message}`);
        }
      } catch (error) {
        this.log(`Heartbeat error: ${error.message}`);
      } finally {
        isHeartbeatRunning = false;
      }
    };
    const periodicVerify = async () => {
      if (isVerifyRunning || !this.session) return;
      isVerifyRunning = true;
      const session = this.session;
      let outcome = 'network error';
      let reason = '';
      try {
        const result = await this.verify(session.userId);
        outcome = result.success ? 'ok' : 'refused';
        reason = `${result.code}: ${result.message}`;
        // The owner may have granted or taken back a plan since: show what holds now.
        if (result.success) Object.assign(session, licensingOf(result));
      } catch (error) {
        if (error instanceof ResponseNotVerifiedError) {
          outcome = 'refused';
          reason = error.message;
        } else {
          this.log(`Verification error: ${error.message}`);
        }
      } finally {
        isVerifyRunning = false;
      }
      if (!this.isMonitoring || this.session !== session || outcome === 'network error') return;
      if (outcome === 'ok') {
        session.verifyFailures = 0;
        session.lastVerifiedAt = new Date();
        this.log('verify ok');
        return;
      }
      session.verifyFailures += 1;
      this.log(`verify failed (${session.verifyFailures}/${MAX_VERIFY_FAILURES}) ${reason}`);
      if (session.verifyFailures >= MAX_VERIFY_FAILURES) {
        this.stopMonitoring();
        this.log('forced logout');
        await this.endSession();
        onForcedLogout();
      }
    };
    this.timers = [
      setInterval(heartbeat, HEARTBEAT_INTERVAL_SECONDS * 1000),
      setInterval(periodicVerify, VERIFY_INTERVAL_SECONDS * 1000),
    ];
  }

  stopMonitoring() {
    this.isMonitoring = false;
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
  }
}

/** Whether a VERSION_MISMATCH answer's `update` names a file to download, with its signed size and hash. */
function isOfferedUpdate(update) {
  return (
    update !== null &&
    typeof update === 'object' &&
    typeof update.version === 'string' &&
    typeof update.file_id === 'string' &&
    Number.isSafeInteger(update.size) &&
    typeof update.sha256 === 'string' &&
    /^[0-9a-fA-F]{64}$/.test(update.sha256)
  );
}

function describeNetworkError(error) {
  if (error?.name === 'TimeoutError') return `no answer within ${HTTP_TIMEOUT_SECONDS} seconds`;
  const cause = error?.cause;
  if (cause?.code) return `${cause.code}${cause.message ? ` (${cause.message})` : ''}`;
  return error?.message ?? String(error);
}

/** Where the program remembers who logged in: `~/.latchkey/<first 12 chars of the key>.json`. */
export function savedSessionPath(apiKey = API_KEY) {
  const name = apiKey.slice(0, 12).replace(/[^0-9A-Za-z_-]/g, '_') || 'default';
  return join(homedir(), '.latchkey', `${name}.json`);
}

export function loadSavedSession(path) {
  try {
    const saved = JSON.parse(readFileSync(path, 'utf8'));
    return typeof saved?.user_id === 'string' && saved.user_id ? saved : null;
  } catch {
    return null;
  }
}

function saveSession(path, user) {
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    writeFileSync(path, JSON.stringify({ user_id: user.userId, username: user.username }), {
      mode: 0o600,
    });
  } catch (error) {
    console.log(`[latchkey] could not save the session: ${error.message}`);
  }
}

function clearSavedSession(path) {
  rmSync(path, { force: true });
}

/**
 * Where the offline licence is kept, beside the saved session:
 * `~/.latchkey/<same prefix>.offline.json`, as `{ license, last_seen, application_id }`.
 */
export function offlineLicensePath(apiKey = API_KEY) {
  return savedSessionPath(apiKey).replace(/\.json$/, '.offline.json');
}

export function loadOfflineLicense(path) {
  try {
    const stored = JSON.parse(readFileSync(path, 'utf8'));
    return typeof stored?.license === 'string' && stored.license ? stored : null;
  } catch {
    return null;
  }
}

function writeOfflineLicense(path, stored) {
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    writeFileSync(path, JSON.stringify(stored), { mode: 0o600 });
  } catch (error) {
    console.log(`[latchkey] could not save the offline licence: ${error.message}`);
  }
}

/** The later of `lastSeen` and now, in unix seconds: `last_seen` never goes back. */
const laterOfNow = (lastSeen) =>
  Math.max(Number.isFinite(lastSeen) ? lastSeen : 0, Math.floor(Date.now() / 1000));

/**
 * Stores a licence just checked out. `applicationId` is the one it names: it came in an answer
 * signed for this request, so it is this application's, and a licence read offline must name it.
 */
function storeOfflineLicense(path, license, applicationId) {
  const previous = loadOfflineLicense(path);
  writeOfflineLicense(path, {
    license,
    last_seen: laterOfNow(previous?.last_seen),
    application_id: applicationId,
  });
}

/** Moves `last_seen` to now unless it is later already (a clock set back must not lower it). */
function recordLastSeen(path) {
  const stored = loadOfflineLicense(path);
  if (stored) writeOfflineLicense(path, { ...stored, last_seen: laterOfNow(stored.last_seen) });
}

/** The payload of a licence string (not checked: only for what the server just signed). */
function licenseContentOf(license) {
  try {
    return JSON.parse(
      Buffer.from(String(license).split('.')[1] ?? '', 'base64url').toString('utf8'),
    );
  } catch {
    return null;
  }
}

/**
 * The console: prompts that stay at the bottom while log lines and messages print above
 * them, and a hidden password on a terminal. Lines are read through readline's async
 * iterator, which queues what arrives while the program is busy (piped input loses nothing).
 */
class ConsoleScreen {
  constructor(input, output) {
    this.output = output;
    this.isTerminal = Boolean(input.isTTY && output.isTTY);
    this.isHidden = false;
    this.prompt = '';
    const echo = new Writable({
      write: (chunk, _encoding, done) => {
        if (!this.isHidden) output.write(chunk);
        done();
      },
    });
    this.readline = createInterface({ input, output: echo, terminal: this.isTerminal });
  }

  ask(prompt, { isHidden = false } = {}) {
    if (this.prompt) this.leavePromptLine();
    this.prompt = prompt;
    this.isHidden = false;
    this.readline.setPrompt(prompt);
    this.readline.prompt();
    this.isHidden = isHidden && this.isTerminal;
  }

  /** Called once a line has been read: no prompt is open while the program works. */
  answered() {
    if (this.isHidden) this.output.write('\n');
    this.isHidden = false;
    this.prompt = '';
  }

  /** Makes room for a line of text where an open prompt is: erased on a terminal. */
  leavePromptLine() {
    if (this.isTerminal) {
      clearLine(this.output, 0);
      cursorTo(this.output, 0);
    } else {
      this.output.write('\n');
    }
  }

  print(text) {
    const prompt = this.prompt;
    if (prompt) this.leavePromptLine();
    this.output.write(`${text}\n`);
    if (prompt) {
      this.output.write(prompt);
      if (this.isTerminal && !this.isHidden) this.output.write(this.readline.line);
    }
  }
}

/**
 * The interactive program: login screen (or registration, or a licence key), main screen,
 * commands and the saved session.
 */
export async function runConsoleProgram({
  input = process.stdin,
  output = process.stdout,
  clientOptions = {},
} = {}) {
  const screen = new ConsoleScreen(input, output);
  const client = new LatchkeyClient({
    ...clientOptions,
    log: (line) => screen.print(`[latchkey] ${line}`),
  });
  const sessionFile = savedSessionPath(client.apiKey);
  const offlineFile = offlineLicensePath(client.apiKey);
  let state = 'busy';
  // The licence the program runs on while the server cannot be reached (null: online).
  let offlineContent = null;
  // What the prompts of a registration, a redemption or a release collected so far.
  let pending = {};
  let exitCode = 0;

  const showLogin = () => {
    state = 'username';
    pending = {};
    screen.ask('Username: ');
  };

  const printLicensing = (holder) => {
    screen.print(`Entitlements:  ${formatEntitlements(holder.entitlements ?? [])}`);
    screen.print(`Subscriptions: ${formatSubscriptions(holder.subscriptions ?? [])}`);
  };

  const showMain = () => {
    const session = client.session;
    state = 'main';
    screen.print('');
    screen.print(`=== Welcome, ${session.username || 'user'} ===`);
    screen.print(`User ID:       ${session.userId}`);
    if (session.expiresAt !== undefined) {
      screen.print(`Expires:       ${session.expiresAt ?? 'never'}`);
    }
    if (session.isHwidLocked !== undefined) {
      screen.print(`HWID locked:   ${session.isHwidLocked ? 'yes' : 'no'}`);
    }
    printLicensing(session);
    if (typeof session.welcomeMessage === 'string')
      screen.print(`Message: ${session.welcomeMessage}`);
    if (typeof session.note === 'string') screen.print(`Note: ${session.note}`);
    screen.print("Type 'help' for the commands.");
    screen.ask('> ');
  };

  /**
   * The application's welcome message and the user's note, for the main screen. One that does
   * not exist (VARIABLE_NOT_FOUND) shows nothing; any other failure is logged, no more.
   */
  const readMainScreenVariables = async (session) => {
    const read = async (label, call) => {
      try {
        const result = await call();
        if (result.success && typeof result.value === 'string') return result.value;
        if (result.code !== 'VARIABLE_NOT_FOUND') client.log(`${label} not read (${result.code})`);
      } catch (error) {
        client.log(`${label} not read: ${error.message}`);
      }
      return null;
    };
    session.welcomeMessage = await read('welcome message', () =>
      client.readVariable(WELCOME_MESSAGE_VARIABLE),
    );
    session.note = await read('note', () => client.readUserVariable(NOTE_VARIABLE));
  };

  /** Saves the user's note (a user variable); the vendor may have made it read-only. */
  const saveNote = async (value) => {
    const session = client.session;
    if (!session) {
      screen.print('No active session.');
      return;
    }
    let result;
    try {
      result = await client.setUserVariable(NOTE_VARIABLE, value);
    } catch (error) {
      screen.print(
        error instanceof ConnectionError ? `Note error: ${error.message}` : error.message,
      );
      return;
    }
    if (result.code === 'VARIABLE_READ_ONLY') {
      screen.print(`Note Is Read-Only: ${result.message}`);
    } else if (!result.success) {
      printRefusal(result, 'Note Not Saved');
    } else {
      session.note = value;
      screen.print('Note saved.');
    }
  };

  /** A refusal as its title and the server's message; true when the program must exit. */
  const printRefusal = (result, fallbackTitle) => {
    const { title, shouldExit } = describeRefusal(result.code, fallbackTitle);
    const retry = result.retryAfterSeconds
      ? ` (try again in ${result.retryAfterSeconds} seconds)`
      : '';
    const missing = Array.isArray(result.missing_entitlements)
      ? ` (missing: ${result.missing_entitlements.join(', ')})`
      : '';
    screen.print(`${title}: ${result.message}${missing}${retry}`);
    // The user can do something about an unconfirmed address: say what.
    if (result.code === 'EMAIL_NOT_VERIFIED') screen.print(RESEND_VERIFICATION_HINT);
    return shouldExit;
  };

  /** Forgets who logged in: the saved session and the offline licence go together. */
  const forgetUser = () => {
    clearSavedSession(sessionFile);
    rmSync(offlineFile, { force: true });
    offlineContent = null;
  };

  /** The main screen without a session, on the offline licence's word. */
  const showOfflineMain = (content) => {
    offlineContent = content;
    state = 'main';
    screen.print('');
    screen.print(`=== Welcome, ${content.username || 'user'} ===`);
    screen.print(`User ID:       ${content.user_id}`);
    printLicensing(licensingOf(content));
    screen.print(`Working offline until ${formatLocalTime(content.valid_until)}`);
    screen.print("Type 'help' for the commands.");
    screen.ask('> ');
  };

  /**
   * The server cannot be reached: the stored offline licence, checked with the pinned key,
   * lets the user in until its `valid_until`, without a session (so no heartbeat). True when
   * the main screen is open; otherwise the reason is shown.
   */
  const startOffline = () => {
    const stored = loadOfflineLicense(offlineFile);
    if (!stored) {
      screen.print(`${SERVER_UNREACHABLE_TITLE}: ${SERVER_UNREACHABLE_MESSAGE}`);
      return false;
    }
    const checked = verifyOfflineLicense(stored.license, {
      publicKeyHex: client.signingPublicKey,
      applicationId: stored.application_id,
      hwid: client.hardwareId,
      lastSeenSeconds: stored.last_seen,
    });
    if (checked.refusal) {
      client.log(`offline licence refused (${checked.refusal})`);
      screen.print(
        `${OFFLINE_REFUSED_TITLE}: ${offlineRefusalMessage(checked.refusal, checked.content)}`,
      );
      return false;
    }
    client.log('offline licence accepted');
    showOfflineMain(checked.content);
    return true;
  };

  /**
   * Takes an offline licence for the session just opened and stores it once it checks out as
   * it will be checked offline. A failure only costs the offline start: it is logged, no more.
   */
  const checkOutOfflineLicense = async () => {
    const session = client.session;
    let result;
    try {
      result = await client.checkOutLicense();
    } catch (error) {
      client.log(`Licence checkout error: ${error.message}`);
      return;
    }
    // Logged out (or replaced) meanwhile: that user's licence is not to be kept.
    if (!result.success || client.session !== session) return;
    const checked = verifyOfflineLicense(result.license, {
      publicKeyHex: client.signingPublicKey,
      applicationId: licenseContentOf(result.license)?.application_id,
      hwid: client.hardwareId,
    });
    if (checked.refusal) {
      client.log(`offline licence not stored (${checked.refusal})`);
      return;
    }
    storeOfflineLicense(offlineFile, result.license, checked.content.application_id);
    client.log(`offline licence stored (valid until ${checked.content.valid_until})`);
  };

  /** Downloads the offered update next to this program, and says where it is or why not. */
  const downloadUpdate = async (update) => {
    let outcome;
    try {
      outcome = await client.downloadUpdate(update, dirname(fileURLToPath(import.meta.url)));
    } catch (error) {
      screen.print(
        error instanceof ConnectionError ? `Download error: ${error.message}` : error.message,
      );
      return;
    }
    if (outcome.path) screen.print(`Update saved to ${outcome.path}`);
    else if (outcome.isTampered)
      screen.print(`${UPDATE_REFUSED_TITLE}: ${UPDATE_TAMPERED_MESSAGE}`);
    else printRefusal(outcome.refusal, 'Download Failed');
  };

  const exitProgram = () => {
    exitCode = 1;
    state = 'exit';
    screen.readline.close();
  };

  const onForcedLogout = () => {
    forgetUser();
    screen.print(SESSION_EXPIRED_MESSAGE);
    showLogin();
  };

  /** Opens the session and the main screen; a refused start returns to the login prompt. */
  const enterMainScreen = async (user, loginToken) => {
    let result;
    try {
      result = await client.startSession(user, loginToken);
    } catch (error) {
      screen.print(
        error instanceof ConnectionError ? `Session start error: ${error.message}` : error.message,
      );
      showLogin();
      return;
    }
    if (!result.success) {
      forgetUser();
      screen.print(`Session start error: ${result.message}`);
      showLogin();
      return;
    }
    client.startMonitoring({ onForcedLogout, onHeartbeat: () => recordLastSeen(offlineFile) });
    await readMainScreenVariables(client.session);
    // A forced logout while they were read has moved to the login prompt already.
    if (!client.session) return;
    showMain();
    void checkOutOfflineLicense();
  };

  /** A login answer (password or licence key): refused, or verified and into the main screen. */
  const completeLogin = async (result) => {
    if (!result.success) {
      const shouldExit = printRefusal(result, 'Login Failed');
      if (result.code === 'VERSION_MISMATCH' && isOfferedUpdate(result.update)) {
        pending = { update: result.update };
        state = 'update-confirm';
        screen.ask(`Version ${result.update.version} is available. Download it? (y/n) `);
        return;
      }
      if (shouldExit) {
        exitProgram();
        return;
      }
      showLogin();
      return;
    }
    screen.print(`Login Successful: ${result.message}`);
    const user = {
      userId: result.user_id,
      username: result.username,
      email: result.email,
      expiresAt: result.expires_at,
      isHwidLocked: result.hwid_locked,
      ...licensingOf(result),
    };
    let verified;
    try {
      verified = await client.verify(user.userId);
    } catch (error) {
      screen.print(
        error instanceof ConnectionError ? `Verification error: ${error.message}` : error.message,
      );
      showLogin();
      return;
    }
    if (!verified.success) {
      client.log(`verify failed after login (${verified.code})`);
      if (verified.code === 'ENTITLEMENTS_MISSING' || verified.code === 'EMAIL_NOT_VERIFIED') {
        printRefusal(verified, 'Security Warning');
      } else screen.print(`Security Warning: ${VERIFY_AFTER_LOGIN_FAILED_MESSAGE}`);
      showLogin();
      return;
    }
    client.log('verify ok');
    Object.assign(user, licensingOf(verified));
    saveSession(sessionFile, user);
    await enterMainScreen(user, result.session_token);
  };

  /** Runs one call of the login screen; a bad input or a failed call returns to it. */
  const callFromLogin = async (call) => {
    try {
      return await call();
    } catch (error) {
      screen.print(error.message);
      showLogin();
      return null;
    }
  };

  const attemptLogin = async (username, password) => {
    const result = await callFromLogin(() => client.login(username, password));
    if (result) await completeLogin(result);
  };

  const attemptLicenseLogin = async (licenseKey) => {
    const result = await callFromLogin(() => client.loginWithLicense(licenseKey));
    if (result) await completeLogin(result);
  };

  /** Registers, then logs in with the same username and password. */
  const attemptRegister = async ({ username, password, email, licenseKey }) => {
    const result = await callFromLogin(() =>
      client.register({ username, password, email, licenseKey }),
    );
    if (!result) return;
    if (!result.success) {
      if (printRefusal(result, 'Registration Failed')) {
        exitProgram();
        return;
      }
      showLogin();
      return;
    }
    screen.print(`Registration Successful: ${result.message}`);
    await attemptLogin(username, password);
  };

  /**
   * Asks for a link to choose a new password, then returns to the login prompt: the answer
   * reads the same whether or not the account exists, so there is nothing more to show.
   */
  const attemptForgotPassword = async (usernameOrEmail) => {
    const result = await callFromLogin(() => client.forgotPassword(usernameOrEmail));
    if (!result) return;
    if (result.success) screen.print(`Check Your E-mail: ${result.message}`);
    else printRefusal(result, 'Password Reset Failed');
    showLogin();
  };

  /**
   * Asks for a new link to confirm the account's address, then returns to the login prompt: the
   * answer reads the same whatever the account, so there is nothing more to show.
   */
  const attemptResendVerification = async (username, password) => {
    const result = await callFromLogin(() => client.resendVerification(username, password));
    if (!result) return;
    if (result.success) screen.print(`Check Your E-mail: ${result.message}`);
    else printRefusal(result, 'Resend Failed');
    showLogin();
  };

  /** Adds a licence key to the account that is logged in; its password proves the holder. */
  const attemptRedeem = async (licenseKey, password) => {
    const session = client.session;
    if (!session) return;
    let result;
    try {
      result = await client.redeemLicense(session.username, password, licenseKey);
    } catch (error) {
      screen.print(
        error instanceof ConnectionError ? `Redeem error: ${error.message}` : error.message,
      );
      return;
    }
    if (!result.success) {
      printRefusal(result, 'Redeem Failed');
      return;
    }
    screen.print(`Licence Key Redeemed: ${result.message}`);
    Object.assign(session, licensingOf(result));
    printLicensing(session);
  };

  /**
   * Releases this machine from the account, so its user can log in from another one. On
   * success the server has ended this machine's session: the program returns to the login
   * prompt without an end call (it would be refused) and forgets the saved session.
   */
  const attemptRelease = async (username, password) => {
    if (!client.session) return;
    let result;
    try {
      result = await client.releaseDevice(username, password);
    } catch (error) {
      screen.print(
        error instanceof ConnectionError ? `Release error: ${error.message}` : error.message,
      );
      return;
    }
    const nextReleaseAt = typeof result.next_reset_at === 'string' ? result.next_reset_at : null;
    if (!result.success) {
      printRefusal(result, 'Release Failed');
      if (result.code === 'RESET_COOLDOWN' && nextReleaseAt) {
        screen.print(`You can release a device again at ${nextReleaseAt}.`);
      }
      return;
    }
    screen.print(`Device Released: ${result.message}`);
    if (nextReleaseAt) screen.print(`You can release a device again at ${nextReleaseAt}.`);
    // A forced logout while the call ran has moved to the login prompt already.
    if (!client.session) return;
    client.forgetSession();
    forgetUser();
    client.log('logged out (device released)');
    screen.print(DEVICE_RELEASED_LOGOUT_MESSAGE);
    showLogin();
  };

  const resumeSavedSession = async (saved) => {
    let verified;
    try {
      verified = await client.verify(saved.user_id);
    } catch (error) {
      // Not an answer from the server: keep the saved id for the next start.
      screen.print(error.message);
      // No answer at all (not a refusal, not a fake): the offline licence may stand in.
      return error instanceof ConnectionError && error.isUnreachable ? startOffline() : false;
    }
    if (!verified.success) {
      client.log(`saved session refused (${verified.code})`);
      forgetUser();
      return false;
    }
    screen.print('Saved session verified.');
    client.log('saved session verified');
    await enterMainScreen(
      { userId: saved.user_id, username: saved.username ?? '', ...licensingOf(verified) },
      null,
    );
    return true;
  };

  const logout = async () => {
    client.stopMonitoring();
    await client.endSession();
    forgetUser();
    client.log('logged out');
    screen.print(LOGGED_OUT_MESSAGE);
    showLogin();
  };

  const showStatus = () => {
    const session = client.session;
    if (!session) {
      screen.print('No active session.');
      if (offlineContent) {
        screen.print(`Working offline until ${formatLocalTime(offlineContent.valid_until)}`);
      }
      return;
    }
    const time = (date) => (date ? date.toLocaleTimeString() : 'not yet');
    screen.print(`User:            ${session.username || '(saved session)'} (${session.userId})`);
    screen.print(`Session:         ${preview(session.token)} since ${time(session.startedAt)}`);
    screen.print(`Monitoring:      ${client.isMonitoring ? 'on' : 'off'}`);
    screen.print(`Last heartbeat:  ${time(session.lastHeartbeatAt)}`);
    screen.print(`Last verified:   ${time(session.lastVerifiedAt)}`);
    screen.print(`Verify failures: ${session.verifyFailures}/${MAX_VERIFY_FAILURES}`);
    screen.print(`Entitlements:    ${formatEntitlements(session.entitlements ?? [])}`);
    screen.print(`Subscriptions:   ${formatSubscriptions(session.subscriptions ?? [])}`);
    screen.print(`Version:         ${client.version}`);
  };

  const showHelp = () => {
    screen.print('Commands:');
    screen.print(
      '  status   show the session: user, token, last heartbeat and verify, entitlements',
    );
    screen.print(
      '  redeem   add a licence key to this account (asks for the key and your password)',
    );
    screen.print('  release  release this device (log in again from another machine)');
    screen.print('  note     save a note on your account (your vendor may make it read-only)');
    screen.print('  help     show this list');
    screen.print('  logout   end the session and return to the login prompt');
  };

  const runCommand = async (command) => {
    switch (command) {
      case '':
        break;
      case 'status':
        showStatus();
        break;
      case 'redeem':
        state = 'redeem-key';
        screen.ask('Licence key: ');
        return;
      case 'release':
        screen.print(
          'Releasing this device frees its seat for another machine and ends this session here (an empty password cancels).',
        );
        if (client.session?.username) {
          pending = { username: client.session.username };
          state = 'release-password';
          screen.ask('Password: ', { isHidden: true });
        } else {
          state = 'release-username';
          screen.ask('Username: ');
        }
        return;
      case 'note':
        if (!client.session) {
          screen.print('No active session.');
          break;
        }
        state = 'note-value';
        screen.ask('New note: ');
        return;
      case 'help':
        showHelp();
        break;
      case 'logout':
        await logout();
        return;
      default:
        screen.print(`Unknown command: ${command}. Type 'help' for the commands.`);
    }
    if (state === 'main') screen.ask('> ');
  };

  /** What a line typed at each prompt does; `state` says which prompt it answers. */
  const handleLine = async (currentState, line) => {
    switch (currentState) {
      case 'username':
        if (line.trim() === '/register') {
          state = 'register-username';
          screen.ask('New username: ');
        } else if (line.trim() === '/key') {
          state = 'license-key';
          screen.ask('Licence key: ');
        } else if (line.trim() === '/forgot') {
          state = 'forgot-password';
          screen.ask('Username or e-mail: ');
        } else if (line.trim() === '/resend') {
          state = 'resend-username';
          screen.ask('Username: ');
        } else {
          pending = { username: line };
          state = 'password';
          screen.ask('Password: ', { isHidden: true });
        }
        break;
      case 'password':
        state = 'busy';
        await attemptLogin(pending.username, line);
        break;
      case 'license-key':
        state = 'busy';
        await attemptLicenseLogin(line);
        break;
      case 'forgot-password':
        state = 'busy';
        await attemptForgotPassword(line);
        break;
      case 'resend-username':
        pending = { username: line };
        state = 'resend-password';
        screen.ask('Password: ', { isHidden: true });
        break;
      case 'resend-password':
        state = 'busy';
        await attemptResendVerification(pending.username, line);
        break;
      case 'register-username':
        pending = { username: line };
        state = 'register-password';
        screen.ask('Password: ', { isHidden: true });
        break;
      case 'register-password':
        pending.password = line;
        state = 'register-email';
        screen.ask('E-mail (optional): ');
        break;
      case 'register-email':
        pending.email = line;
        state = 'register-key';
        screen.ask('Licence key (optional): ');
        break;
      case 'register-key':
        state = 'busy';
        await attemptRegister({ ...pending, licenseKey: line });
        break;
      case 'main':
        await runCommand(line.trim().toLowerCase());
        break;
      case 'redeem-key':
        pending = { licenseKey: line };
        state = 'redeem-password';
        screen.ask('Password: ', { isHidden: true });
        break;
      case 'redeem-password':
        state = 'busy';
        await attemptRedeem(pending.licenseKey, line);
        pending = {};
        // A forced logout while the call ran has moved to the login prompt already.
        if (client.session) {
          state = 'main';
          screen.ask('> ');
        }
        break;
      case 'update-confirm':
        state = 'busy';
        if (/^\s*y(es)?\s*$/i.test(line)) await downloadUpdate(pending.update);
        pending = {};
        // This version may not log in: whatever the answer, the program ends here.
        exitProgram();
        break;
      case 'note-value':
        state = 'busy';
        await saveNote(line);
        // A forced logout while the call ran has moved to the login prompt already.
        if (client.session) {
          state = 'main';
          screen.ask('> ');
        }
        break;
      case 'release-username':
        pending = { username: line };
        state = 'release-password';
        screen.ask('Password: ', { isHidden: true });
        break;
      case 'release-password':
        state = 'busy';
        if (line.length === 0) screen.print('Release cancelled.');
        else await attemptRelease(pending.username, line);
        pending = {};
        // A release logs out; so does a forced logout while the call ran.
        if (client.session) {
          state = 'main';
          screen.ask('> ');
        }
        break;
    }
  };

  const stop = () => screen.readline.close();
  screen.readline.on('SIGINT', stop);
  process.once('SIGTERM', stop);

  // Each start moves the offline licence's `last_seen` on (never back): see verifyOfflineLicense.
  recordLastSeen(offlineFile);
  const saved = loadSavedSession(sessionFile);
  if (!(saved && (await resumeSavedSession(saved)))) {
    if (state !== 'username') {
      screen.print(
        'Log in below. At the Username prompt, type /register to create an account, /key to log in with a licence key, /forgot if you forgot your password, or /resend for a new link to confirm your e-mail address.',
      );
      showLogin();
    }
  }

  for await (const line of screen.readline) {
    if (state === 'exit') break;
    const currentState = state;
    screen.answered();
    await handleLine(currentState, line);
    if (state === 'exit') break;
  }

  // The input ended (or the window closed): stop monitoring and close the session cleanly.
  process.removeListener('SIGTERM', stop);
  client.stopMonitoring();
  await client.endSession();
  screen.readline.close();
  return exitCode;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // Exit once everything written has left: output to a pipe is asynchronous.
  const exit = (code) => process.stdout.write('', () => process.exit(code));
  runConsoleProgram().then(exit, (error) => {
    console.error(error);
    exit(1);
  });
}
