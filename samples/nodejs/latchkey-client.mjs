// Latchkey client sample for Node.js: a console program (Node 20 or later) on the Latchkey
// client library, @latchkey/client, which does everything that talks to the server.
//
// Install the library first, in the folder of this file, with the line the Integration page
// shows for your Latchkey server (`npm install https://<your server>/sdk/latchkey-client-<v>.tgz`),
// then run `node latchkey-client.mjs`. It asks for a username and a password, logs in, verifies
// the account, then keeps a live session (a heartbeat every 30 s, a verify every 5 min) while it
// shows a `> ` prompt that accepts `status`, `redeem`, `release`, `note`, `use`, `borrow`,
// `return`, `help` and `logout`. Leaving the program keeps the session (saved in ~/.latchkey):
// the next start resumes it without the password, until `logout` ends it or the server does. At
// the Username prompt, `/register` creates an account (with a licence key if you sell them),
// `/key` logs in with a licence key alone, `/trial` starts this machine's trial where the
// application offers one (one trial per machine: a later `/trial`, whatever name it gives, logs in
// the same trial account until it ends), `/forgot` has a link to choose a new password mailed
// to the account's address and `/resend` a new link to confirm that address (for an application
// that lets only confirmed addresses log in), and `/offline` activates a computer that never
// reaches the server: it writes an activation request (`LKA1.…`, for a licence key or a username)
// that the user pastes into the vendor's end-user portal on any other computer (its card
// "Activate a computer offline"), then takes the offline licence the portal answers, pasted back
// at its prompt, checks it as below and stores it like a checked-out one; `redeem` adds a key to
// the account that is logged in; `release` frees this machine's seat (the user can then log in
// from another one) where the application allows it. Logins send this machine's name, which the
// owner sees in the user's device list. The main screen shows the user's entitlements,
// subscriptions and updates period, what is left of each usage meter of their plans (so many
// exports a month, say), the vendor's message and the user's note (remote variables); `note` saves
// a new note, and `use` counts one use of a metered feature against the first meter the user
// holds. A user whose plan has floating seats (so many computers at once, any computers) takes a
// seat at each login; `borrow <days>` borrows this computer's seat for that many days (the plan
// says how many it allows): the seat stays taken, and the offline licence the server answers,
// stored like a checked-out one, lets the program run offline until the borrow ends; `return` gives
// the seat back sooner, so another computer may take it (the borrowed licence is discarded). The
// library checks every answer against the application's Ed25519 signing key before the program
// reads it, so a fake server cannot unlock the program. After each login the program checks out an
// offline licence (kept in ~/.latchkey beside the saved session): when a later start cannot reach
// the server at all, that licence, checked by the library with the same pinned key, lets the user
// work offline until it runs out, on this machine only; a start with no saved session and a licence
// from `/offline` runs on that licence without calling the server at all (a new request renews it).
// A version the server no longer accepts is offered the current release, downloaded beside the
// program and kept only if it matches the SHA-256 the server signed; a version released after the
// user's updates period ended is offered, the same way, the release their licence includes.
// Importing this file runs nothing: the program starts only when the file is executed directly.

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
// The address of your application's end-user portal (its settings, End-user portal: the page
// at <your server>/portal/<its id>), shown by `/offline`. Empty: the user is told to ask you.
export const PORTAL_URL = '';

export const HEARTBEAT_INTERVAL_SECONDS = 30;
export const VERIFY_INTERVAL_SECONDS = 300;
export const MAX_VERIFY_FAILURES = 3;
export const HTTP_TIMEOUT_SECONDS = 30;
export const MAX_CLOCK_SKEW_SECONDS = 300;
// The longest `device_name` the server accepts (in JavaScript characters, UTF-16 units).
export const MAX_DEVICE_NAME_LENGTH = 128;
// How long a licence checked out after login lets the program run without the network (7 days;
// the application's Max Offline Days caps it).
export const OFFLINE_LICENSE_TTL_SECONDS = 604800;
// How far the clock may seem to go back between runs before an offline licence is refused.
export const CLOCK_TOLERANCE_SECONDS = 300;
// The longest a floating seat may be borrowed, in days (the user's plan may allow fewer).
export const MAX_BORROW_DAYS = 365;
// Where Linux keeps the machine identifier the hardware id is made from (the first one found).
export const MACHINE_ID_FILES = ['/etc/machine-id', '/var/lib/dbus/machine-id'];

import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { clearLine, createInterface, cursorTo } from 'node:readline';
import { Writable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  LatchkeyClient,
  SignatureError,
  TransportError,
  hashMachineId,
  readRawMachineId,
} from '@latchkey/client';

export const NOT_VERIFIED_MESSAGE = 'The server response could not be verified.';
export const MISSING_CREDENTIALS_MESSAGE = 'Please provide both username and password';
export const MISSING_LICENSE_KEY_MESSAGE = 'Please provide a licence key';
export const MISSING_USERNAME_OR_EMAIL_MESSAGE = 'Please provide a username or an e-mail address';
export const MISSING_KEY_OR_USERNAME_MESSAGE = 'Please provide a licence key or a username';
export const NO_OFFLINE_LICENSE_PASTED_MESSAGE =
  'No licence pasted: this computer is not activated.';
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
export const BORROW_USAGE_MESSAGE = `Usage: borrow <days> (a whole number of days, 1 to ${MAX_BORROW_DAYS})`;

/**
 * The title of a refusal (of a login, a registration, a redemption or a verify), chosen by its
 * stable `code`, never by the message, which the vendor may rewrite. Codes without a title of
 * their own get the caller's.
 */
const REFUSAL_TITLES = new Map([
  ['VERSION_MISMATCH', 'Update Required'],
  ['UPDATES_EXPIRED', 'Updates Ended'],
  ['METER_EXHAUSTED', 'Usage Limit Reached'],
  ['METER_NOT_FOUND', 'Feature Not Included'],
  ['NO_SEAT_AVAILABLE', 'All Seats In Use'],
  ['BORROW_NOT_ALLOWED', 'Borrowing Not Allowed'],
  ['TRIAL_UNAVAILABLE', 'Trial Unavailable'],
  ['TRIAL_EXPIRED', 'Trial Ended'],
  ['TRIAL_USED', 'Trial Already Used'],
  ['HWID_MISMATCH', 'Hardware Mismatch'],
  ['ACCOUNT_EXPIRED', 'Account Expired'],
  ['ACCOUNT_DISABLED', 'Account Disabled'],
  ['BLACKLISTED', 'Access Blocked'],
  ['RATE_LIMITED', 'Too Many Attempts'],
  ['NO_ACTIVE_SUBSCRIPTION', 'Subscription Required'],
  ['LICENSE_REQUIRED', 'Licence Key Required'],
  ['LICENSE_INVALID', 'Invalid Licence Key'],
  ['LICENSE_USED', 'Licence Key Used'],
  ['LICENSE_BANNED', 'Licence Key Banned'],
  ['LICENSE_EXPIRED', 'Licence Key Lapsed'],
  ['ENTITLEMENTS_MISSING', 'Feature Not Included'],
  ['RESET_NOT_ALLOWED', 'Reset Not Allowed'],
  ['RESET_COOLDOWN', 'Reset Not Yet Available'],
  ['DEVICE_NOT_FOUND', 'Device Not Found'],
  ['MAIL_UNAVAILABLE', 'E-mail Unavailable'],
  ['EMAIL_NOT_VERIFIED', 'E-mail Not Verified'],
]);
/** Refusals after which this program may not run on: it exits. */
const EXITING_CODES = new Set(['VERSION_MISMATCH', 'UPDATES_EXPIRED', 'BLACKLISTED']);

/**
 * The question after a refused version. VERSION_MISMATCH offers the release the vendor wants run;
 * UPDATES_EXPIRED offers an older one, the newest the user's licence includes (this program came
 * out after their updates period ended), so it is not called newer.
 */
const updateQuestion = (code, update) =>
  code === 'UPDATES_EXPIRED'
    ? `Your licence includes version ${update.version}. Download it? (y/n) `
    : `Version ${update.version} is available. Download it? (y/n) `;

/** What the user sees when the stored offline licence is refused, by the library's code. */
function offlineRefusalMessage(check) {
  switch (check.code) {
    case 'OTHER_MACHINE':
      return 'This offline licence belongs to another machine.';
    case 'EXPIRED':
      return `This offline licence expired on ${formatLocalTime(check.content.valid_until)}.`;
    case 'CLOCK_MOVED_BACK':
      return 'The system clock moved backwards since the last run.';
    case 'MALFORMED':
      return 'This is not an offline licence, or only part of it was copied.';
    case 'OTHER_APPLICATION':
      return 'This offline licence is for another application.';
    default:
      return 'This offline licence is not signed by this application.';
  }
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
 * What the user holds, from an answer or an offline licence: sorted entitlements, subscriptions,
 * the end of their updates window (null, or missing in an older licence: every release) and
 * where their usage meters stand (none when no plan of theirs has one; in an offline licence,
 * as they stood when it was issued).
 */
const licensingOf = (answer) => ({
  entitlements: answer?.entitlements ?? [],
  subscriptions: answer?.subscriptions ?? [],
  updatesUntil: typeof answer?.updates_until === 'string' ? answer.updates_until : null,
  meters: Array.isArray(answer?.meters) ? answer.meters : [],
});
const formatEntitlements = (entitlements) =>
  entitlements.length > 0 ? entitlements.join(', ') : 'none';
const formatSubscriptions = (subscriptions) =>
  subscriptions.length > 0
    ? subscriptions
        .map(({ plan, expires_at }) =>
          expires_at ? `${plan} until ${expires_at}` : `${plan} (lifetime)`,
        )
        .join(', ')
    : 'none';
/** The updates line: releases published after `updatesUntil` are refused (null: none are). */
const formatUpdates = (updatesUntil, width) =>
  updatesUntil
    ? `${'Updates until:'.padEnd(width)}${updatesUntil}`
    : `${'Updates:'.padEnd(width)}every release`;

/**
 * A usage meter as the user reads it: what is left of the period's allowance and when it starts
 * again (in local time; a meter without periods never does), and, for a meter that counts use
 * beyond its allowance rather than refusing it, how far beyond.
 */
export function formatMeter(meter) {
  const over = meter.overage > 0 ? `, ${meter.overage} over` : '';
  const reset = meter.resets_at ? `resets ${formatLocalTime(meter.resets_at)}` : 'no reset';
  return `${meter.name}: ${meter.remaining} of ${meter.allowance} left${over}, ${reset}`;
}
/** The usage lines, one meter each; none for a user whose plans have no meters. */
const formatUsage = (meters, width) =>
  meters.map(
    (meter, index) => `${(index === 0 ? 'Usage:' : '').padEnd(width)}${formatMeter(meter)}`,
  );

/**
 * This machine's hardware id, hashed by the library with the application's key. Not the
 * library's own reading: this program names the files its Linux identifier is read from
 * (MACHINE_ID_FILES), so a setting can point it elsewhere; elsewhere the library reads it.
 */
function getHardwareId() {
  let raw = null;
  if (process.platform === 'linux') {
    for (const path of MACHINE_ID_FILES) {
      try {
        raw = readFileSync(path, 'utf8').trim() || null;
      } catch {
        // Not there on this system: try the next place.
      }
      if (raw) break;
    }
  }
  return hashMachineId(raw ?? readRawMachineId(), SIGNING_PUBLIC_KEY);
}

/**
 * This machine's name as the owner sees it in the user's device list (`device_name`; the
 * library sends none unless given one): the host name without control characters, trimmed, and
 * cut to MAX_DEVICE_NAME_LENGTH (never inside a character) so that no machine name can make the
 * server refuse a login. Empty: none is sent.
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

const preview = (token) => `${String(token).slice(0, 8)}…`;

/** Where the program remembers who logged in: `~/.latchkey/<first 12 chars of the key>.json`. */
function savedSessionPath() {
  const name = API_KEY.slice(0, 12).replace(/[^0-9A-Za-z_-]/g, '_') || 'default';
  return join(homedir(), '.latchkey', `${name}.json`);
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}

function writeJson(path, value, what) {
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    writeFileSync(path, JSON.stringify(value), { mode: 0o600 });
  } catch (error) {
    console.log(`[latchkey] could not save the ${what}: ${error.message}`);
  }
}

/** The later of `lastSeen` and now, in unix seconds: `last_seen` never goes back. */
const laterOfNow = (lastSeen) =>
  Math.max(Number.isFinite(lastSeen) ? lastSeen : 0, Math.floor(Date.now() / 1000));

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
 * commands, the saved session and the offline licence.
 */
export async function runConsoleProgram({ input = process.stdin, output = process.stdout } = {}) {
  const screen = new ConsoleScreen(input, output);
  const log = (line) => screen.print(`[latchkey] ${line}`);
  const client = new LatchkeyClient({
    baseUrl: BASE_URL,
    apiKey: API_KEY,
    publicKey: SIGNING_PUBLIC_KEY,
    version: APP_VERSION,
    hwid: getHardwareId(),
    deviceName: getDeviceName() || undefined,
    timeoutMs: HTTP_TIMEOUT_SECONDS * 1000,
    maxClockSkewSeconds: MAX_CLOCK_SKEW_SECONDS,
  });
  // Checked at every login (before the session opens) and every verify.
  const requiredEntitlements = REQUIRED_ENTITLEMENTS;
  const sessionFile = savedSessionPath();
  const offlineFile = sessionFile.replace(/\.json$/, '.offline.json');
  let state = 'busy';
  // The user of the open session and what the program shows of it (null: none).
  let current = null;
  // The licence the program runs on while the server cannot be reached (null: online).
  let offlineContent = null;
  // What the prompts of a registration, a redemption or a release collected so far.
  let pending = {};
  let timers = [];
  let exitCode = 0;
  // The increment of a metered feature that got no answer, with its idempotency key: the next
  // `use` of that session and meter sends it again (null: none).
  let unansweredUse = null;

  /**
   * Runs a library call. Its two errors become what this program says: an answer that fails
   * the signature check is never believed, and only no answer at all (`isUnreachable`) lets the
   * offline licence stand in; a server that answers is never bypassed.
   */
  const call = async (request) => {
    try {
      return await request();
    } catch (error) {
      if (error instanceof SignatureError) {
        log(`response not verified (${error.reason})`);
        throw new Error(NOT_VERIFIED_MESSAGE);
      }
      if (error instanceof TransportError) {
        const failure = new Error(`Connection error: ${error.message}`);
        failure.isConnection = true;
        failure.isUnreachable = error.reason === 'unreachable' || error.reason === 'timeout';
        throw failure;
      }
      throw error;
    }
  };
  /** `call`, or null once the failure is printed (`label` names a connection error's call). */
  const attempt = async (request, label) => {
    try {
      return await call(request);
    } catch (error) {
      screen.print(
        label && error.isConnection ? `${label} error: ${error.message}` : error.message,
      );
      return null;
    }
  };
  const verifyUser = (userId) => client.verify({ userId, entitlements: requiredEntitlements });

  const showLogin = () => {
    state = 'username';
    pending = {};
    screen.ask('Username: ');
  };

  const printLicensing = (holder) => {
    screen.print(`Entitlements:  ${formatEntitlements(holder.entitlements)}`);
    screen.print(`Subscriptions: ${formatSubscriptions(holder.subscriptions)}`);
    screen.print(formatUpdates(holder.updatesUntil, 15));
    for (const line of formatUsage(holder.meters, 15)) screen.print(line);
  };

  /** A refusal as its title and the server's message; true when the program must exit. */
  const printRefusal = (result, fallbackTitle) => {
    const title = REFUSAL_TITLES.get(result.code) ?? fallbackTitle;
    const retry = result.retryAfterSeconds
      ? ` (try again in ${result.retryAfterSeconds} seconds)`
      : '';
    const missing = result.missing_entitlements
      ? ` (missing: ${result.missing_entitlements.join(', ')})`
      : '';
    // A meter used up says when it starts again, so the user knows how long to wait.
    const refill =
      result.code === 'METER_EXHAUSTED'
        ? result.resets_at
          ? ` (resets ${formatLocalTime(result.resets_at)})`
          : ' (no reset)'
        : '';
    // A machine's trial is over for good: say since when.
    const ended =
      result.code === 'TRIAL_EXPIRED' && typeof result.expires_at === 'string'
        ? ` (ended ${formatLocalTime(result.expires_at)})`
        : '';
    // Every seat is taken on other computers: say when the first of their leases lapses (one
    // may free sooner, when its computer signs out).
    const seatFree =
      result.code === 'NO_SEAT_AVAILABLE' && typeof result.next_free_at === 'string'
        ? ` (next seat free by ${formatLocalTime(result.next_free_at)})`
        : '';
    screen.print(`${title}: ${result.message}${missing}${refill}${ended}${seatFree}${retry}`);
    // The user can do something about an unconfirmed address: say what.
    if (result.code === 'EMAIL_NOT_VERIFIED') screen.print(RESEND_VERIFICATION_HINT);
    return EXITING_CODES.has(result.code);
  };

  /** Forgets who logged in: the saved session and the offline licence go together. */
  const forgetUser = () => {
    rmSync(sessionFile, { force: true });
    rmSync(offlineFile, { force: true });
    offlineContent = null;
  };

  /** Moves the offline licence's `last_seen` to now unless it is later already. */
  const recordLastSeen = () => {
    const stored = readJson(offlineFile);
    if (typeof stored?.license === 'string') {
      writeJson(
        offlineFile,
        { ...stored, last_seen: laterOfNow(stored.last_seen) },
        'offline licence',
      );
    }
  };

  const showMain = (user, footer) => {
    state = 'main';
    screen.print('');
    screen.print(`=== Welcome, ${user.username || 'user'} ===`);
    screen.print(`User ID:       ${user.userId}`);
    if (user.expiresAt !== undefined) screen.print(`Expires:       ${user.expiresAt ?? 'never'}`);
    if (user.isHwidLocked !== undefined) {
      screen.print(`HWID locked:   ${user.isHwidLocked ? 'yes' : 'no'}`);
    }
    printLicensing(user);
    if (typeof user.welcomeMessage === 'string') screen.print(`Message: ${user.welcomeMessage}`);
    if (typeof user.note === 'string') screen.print(`Note: ${user.note}`);
    if (footer) screen.print(footer);
    screen.print("Type 'help' for the commands.");
    screen.ask('> ');
  };

  /**
   * The server cannot be reached: the stored offline licence, checked by the library with the
   * pinned key and this machine's id, lets the user in until its `valid_until`, without a
   * session (so no heartbeat). True when the main screen is open; otherwise says why not.
   */
  const startOffline = () => {
    const stored = readJson(offlineFile);
    if (typeof stored?.license !== 'string') {
      screen.print(`${SERVER_UNREACHABLE_TITLE}: ${SERVER_UNREACHABLE_MESSAGE}`);
      return false;
    }
    const content = checkLicense(stored.license, stored);
    if (content) showOffline(content);
    return Boolean(content);
  };

  /**
   * What an offline licence grants once the library accepts it (the pinned key, this machine's
   * id, the application it was stored for, a clock not set back since `stored.last_seen`);
   * otherwise null, once the refusal is shown, titled, with the library's code in the log.
   */
  const checkLicense = (license, stored) => {
    const check = client.verifyOfflineLicense(license, {
      ...(stored.application_id === undefined ? {} : { applicationId: stored.application_id }),
      lastSeenAt: new Date((Number(stored.last_seen) || 0) * 1000),
      clockToleranceSeconds: CLOCK_TOLERANCE_SECONDS,
    });
    if (!check.success) {
      log(`offline licence refused (${check.code})`);
      screen.print(`${OFFLINE_REFUSED_TITLE}: ${offlineRefusalMessage(check)}`);
      return null;
    }
    log('offline licence accepted');
    return check.content;
  };

  /** The main screen on an accepted offline licence: no session, so no heartbeat. */
  const showOffline = (content) => {
    offlineContent = content;
    const { username, user_id: userId } = content;
    showMain(
      { username, userId, ...licensingOf(content) },
      `Working offline until ${formatLocalTime(content.valid_until)}`,
    );
  };

  /**
   * The first half of `/offline`: an activation request for this machine (the hardware id every
   * login sends, and its name), written by the library without the network, and what to do with
   * it. Nothing in it is secret but the licence key it may carry: the portal decides who the
   * licence is for (the key's holder, or the signed-in account, which must be `username`).
   */
  const writeActivationRequest = (named) => {
    let request;
    try {
      request = client.createActivationRequest(named);
    } catch (error) {
      // Text the request cannot carry (a NUL, say): nothing to paste.
      screen.print(`Activation Request Not Written: ${error.message}`);
      return showLogin();
    }
    const portal = PORTAL_URL
      ? `open ${PORTAL_URL}`
      : "open your vendor's portal page (ask them for its address)";
    const signIn = named.username ? `, sign in as ${named.username}` : '';
    screen.print('');
    screen.print('=== Activate this computer offline ===');
    screen.print(`1. On any computer with the internet, ${portal}${signIn}`);
    screen.print('   and choose "Activate a computer offline".');
    screen.print('2. Paste this activation request there (all of it, one line):');
    screen.print('');
    screen.print(request);
    screen.print('');
    screen.print('3. Paste the licence it gives you here (an empty line cancels).');
    log('activation request written');
    return next('offline-license', 'Offline licence: ');
  };

  /**
   * The second half of `/offline`: the licence the portal answered. Checked like a stored one
   * (never trusted because it was pasted: the pinned key and this machine's id decide), then
   * stored where a checked-out licence is kept, so later starts run on it too, and shown.
   */
  const acceptPastedLicense = (line) => {
    // Base64url has no spaces: a licence copied across lines is joined again.
    const license = line.replace(/\s+/g, '');
    if (!license) {
      screen.print(NO_OFFLINE_LICENSE_PASTED_MESSAGE);
      return showLogin();
    }
    // No application id to hold it to (no server answered here): the pinned key decides, and
    // the one it names is kept, so a later start holds the licence to it as to a checked-out one.
    const lastSeen = laterOfNow(readJson(offlineFile)?.last_seen);
    const content = checkLicense(license, { last_seen: lastSeen });
    if (!content) return showLogin();
    writeJson(
      offlineFile,
      { license, last_seen: lastSeen, application_id: content.application_id },
      'offline licence',
    );
    log(`offline licence stored (valid until ${content.valid_until})`);
    screen.print(
      `Offline Licence Accepted: for ${content.username}, valid until ${formatLocalTime(content.valid_until)}`,
    );
    showOffline(content);
  };

  /**
   * Stores an offline licence the server has just issued (a checkout's, or a borrowed seat's)
   * once the library accepts it as it will offline: its content, or null (logged).
   */
  const storeIssuedLicense = (license) => {
    const check = client.verifyOfflineLicense(license);
    if (!check.success) {
      log(`offline licence not stored (${check.code})`);
      return null;
    }
    // The application it names came in an answer signed for this request: offline, a licence
    // must name the same one.
    const previous = readJson(offlineFile);
    writeJson(
      offlineFile,
      {
        license,
        last_seen: laterOfNow(previous?.last_seen),
        application_id: check.content.application_id,
      },
      'offline licence',
    );
    log(`offline licence stored (valid until ${check.content.valid_until})`);
    return check.content;
  };

  /**
   * Takes an offline licence for the session just opened and stores it. A failure only costs
   * the offline start: it is logged, no more.
   */
  const checkOutOfflineLicense = async () => {
    const session = current;
    let result;
    try {
      result = await call(() => client.checkout({ ttlSeconds: OFFLINE_LICENSE_TTL_SECONDS }));
    } catch (error) {
      log(`Licence checkout error: ${error.message}`);
      return;
    }
    log(result.success ? 'licence checked out' : `licence checkout refused (${result.code})`);
    // Logged out (or replaced) meanwhile: that user's licence is not to be kept. A seat borrowed
    // meanwhile has stored its own licence, the one that lasts the borrow: it stays.
    if (!result.success || current !== session || session.borrowedUntil) return;
    storeIssuedLicense(result.license);
  };

  const stopMonitoring = () => {
    for (const timer of timers) clearInterval(timer);
    timers = [];
  };

  /** Ends the open session, if any; a failure is only logged (the session is over here). */
  const endSession = async () => {
    stopMonitoring();
    current = null;
    try {
      const result = await call(() => client.endSession());
      if (result) log(result.success ? 'session ended' : `Session end error: ${result.message}`);
    } catch (error) {
      log(`Session end error: ${error.message}`);
    }
  };

  /**
   * A heartbeat and a periodic verify. The library's own loop (`startHeartbeat`) tells only of
   * a session's end, and this program also shows each accepted heartbeat and moves the offline
   * licence's `last_seen` with it, so it runs its own timers around the library's calls.
   * Heartbeat failures are only logged; a refused verify counts, a success resets the count,
   * and MAX_VERIFY_FAILURES in a row end the session and return to the login prompt.
   */
  const startMonitoring = (session) => {
    stopMonitoring();
    let isBeating = false;
    let isVerifying = false;
    const heartbeat = async () => {
      // The library forgets a session the server ended: the verifies decide what follows.
      if (isBeating || current !== session || !client.session) return;
      isBeating = true;
      try {
        const result = await call(() => client.heartbeat());
        if (result.success) {
          session.lastHeartbeatAt = new Date();
          log('heartbeat ok');
          recordLastSeen();
        } else log(`heartbeat failed (${result.code}): ${result.message}`);
      } catch (error) {
        log(`Heartbeat error: ${error.message}`);
      } finally {
        isBeating = false;
      }
    };
    const periodicVerify = async () => {
      if (isVerifying || current !== session) return;
      isVerifying = true;
      let reason = null;
      try {
        const result = await call(() => verifyUser(session.userId));
        // The owner may have granted or taken back a plan since: show what holds now.
        if (result.success) Object.assign(session, licensingOf(result));
        else reason = `${result.code}: ${result.message}`;
      } catch (error) {
        if (error.message !== NOT_VERIFIED_MESSAGE) {
          log(`Verification error: ${error.message}`);
          return;
        }
        reason = error.message;
      } finally {
        isVerifying = false;
      }
      if (current !== session) return;
      if (reason === null) {
        session.verifyFailures = 0;
        session.lastVerifiedAt = new Date();
        log('verify ok');
        return;
      }
      session.verifyFailures += 1;
      log(`verify failed (${session.verifyFailures}/${MAX_VERIFY_FAILURES}) ${reason}`);
      if (session.verifyFailures >= MAX_VERIFY_FAILURES) {
        stopMonitoring();
        log('forced logout');
        await endSession();
        forgetUser();
        screen.print(SESSION_EXPIRED_MESSAGE);
        showLogin();
      }
    };
    timers = [
      setInterval(heartbeat, HEARTBEAT_INTERVAL_SECONDS * 1000),
      setInterval(periodicVerify, VERIFY_INTERVAL_SECONDS * 1000),
    ];
  };

  /**
   * The application's welcome message and the user's note, for the main screen. One that does
   * not exist (VARIABLE_NOT_FOUND) shows nothing; any other failure is logged, no more.
   */
  const readVariable = async (label, request) => {
    try {
      const result = await call(request);
      if (result.success && typeof result.value === 'string') return result.value;
      if (result.code !== 'VARIABLE_NOT_FOUND') log(`${label} not read (${result.code})`);
    } catch (error) {
      log(`${label} not read: ${error.message}`);
    }
    return null;
  };

  /** The session the library opened, verified: monitoring, the main screen, an offline licence. */
  const enterMainScreen = async (user, how = 'started') => {
    const session = {
      ...user,
      token: client.session.token,
      startedAt: new Date(),
      lastHeartbeatAt: null,
      lastVerifiedAt: new Date(),
      verifyFailures: 0,
    };
    current = session;
    log(`session ${how} (${preview(session.token)})`);
    startMonitoring(session);
    session.welcomeMessage = await readVariable('welcome message', () =>
      client.getVariable({ name: WELCOME_MESSAGE_VARIABLE }),
    );
    session.note = await readVariable('note', () =>
      client.getUserVariable({ name: NOTE_VARIABLE }),
    );
    // A forced logout while they were read has moved to the login prompt already.
    if (current !== session) return;
    showMain(session);
    void checkOutOfflineLicense();
  };

  /** Downloads the offered update next to this program, and says where it is or why not. */
  const downloadUpdate = async (update) => {
    const name = `update-${update.version.replace(/[^\w.-]/g, '_')}.bin`;
    const destination = join(dirname(fileURLToPath(import.meta.url)), name);
    const download = () =>
      client.download({ fileId: update.file_id, sha256: update.sha256, destination });
    const result = await attempt(
      () =>
        download().catch((error) => {
          // Bytes that are not the signed ones: the library has deleted them.
          if (error instanceof SignatureError && error.reason === 'digest') {
            return { isTampered: true };
          }
          throw error;
        }),
      'Download',
    );
    if (!result) return;
    if (result.isTampered) screen.print(`${UPDATE_REFUSED_TITLE}: ${UPDATE_TAMPERED_MESSAGE}`);
    else if (result.success) screen.print(`Update saved to ${result.path}`);
    else printRefusal(result, 'Download Failed');
  };

  const exitProgram = () => {
    exitCode = 1;
    state = 'exit';
    screen.readline.close();
  };

  /**
   * A login (password or licence key) or a trial's start, which the library follows with the
   * session's start when it is accepted: refused, or verified and into the main screen. A trial
   * says when it ends.
   */
  const completeLogin = async (request, { isTrial = false } = {}) => {
    const what = isTrial ? 'trial' : 'login';
    const result = await attempt(request);
    if (!result) return showLogin();
    log(result.success ? `${what} ok` : `${what} refused (${result.code})`);
    if (!result.success) {
      const shouldExit = printRefusal(result, isTrial ? 'Trial Failed' : 'Login Failed');
      const update = client.checkForUpdate(result);
      if (update) {
        pending = { update };
        state = 'update-confirm';
        return screen.ask(updateQuestion(result.code, update));
      }
      return shouldExit ? exitProgram() : showLogin();
    }
    if (isTrial) {
      const ends = result.expires_at ? ` (trial ends ${formatLocalTime(result.expires_at)})` : '';
      screen.print(`Trial Active: ${result.message}${ends}`);
    } else screen.print(`Login Successful: ${result.message}`);
    const user = {
      userId: result.user_id,
      username: result.username,
      expiresAt: result.expires_at,
      isHwidLocked: result.hwid_locked,
      ...licensingOf(result),
    };
    const verified = await attempt(() => verifyUser(user.userId), 'Verification');
    if (!verified?.success) await endSession();
    if (!verified) return showLogin();
    if (!verified.success) {
      log(`verify failed after login (${verified.code})`);
      if (verified.code === 'ENTITLEMENTS_MISSING' || verified.code === 'EMAIL_NOT_VERIFIED') {
        printRefusal(verified, 'Security Warning');
      } else screen.print(`Security Warning: ${VERIFY_AFTER_LOGIN_FAILED_MESSAGE}`);
      return showLogin();
    }
    log('verify ok');
    Object.assign(user, licensingOf(verified));
    const saved = { user_id: user.userId, username: user.username, token: client.session.token };
    writeJson(sessionFile, saved, 'session');
    await enterMainScreen(user);
  };

  /** A call of the login screen that ends there, whatever its answer: mail requests. */
  const requestMail = async (request, fallbackTitle) => {
    const result = await attempt(request);
    if (result?.success) screen.print(`Check Your E-mail: ${result.message}`);
    else if (result) printRefusal(result, fallbackTitle);
    showLogin();
  };

  /** Registers, then logs in with the same username and password. */
  const attemptRegister = async ({ username, password, email, licenseKey }) => {
    const result = await attempt(() =>
      client.register({ username, password, email: email.trim(), licenseKey: licenseKey.trim() }),
    );
    if (!result) return showLogin();
    if (!result.success) {
      return printRefusal(result, 'Registration Failed') ? exitProgram() : showLogin();
    }
    screen.print(`Registration Successful: ${result.message}`);
    await completeLogin(() => client.login({ username, password, requiredEntitlements }));
  };

  /** Adds a licence key to the account that is logged in; its password proves the holder. */
  const attemptRedeem = async (licenseKey, password) => {
    const session = current;
    if (!session) return;
    if (!licenseKey.trim()) return screen.print(MISSING_LICENSE_KEY_MESSAGE);
    if (!password) return screen.print(MISSING_CREDENTIALS_MESSAGE);
    const result = await attempt(
      () => client.redeem({ username: session.username, password, licenseKey: licenseKey.trim() }),
      'Redeem',
    );
    if (!result) return;
    if (!result.success) return printRefusal(result, 'Redeem Failed');
    screen.print(`Licence Key Redeemed: ${result.message}`);
    Object.assign(session, licensingOf(result));
    printLicensing(session);
  };

  /**
   * Releases this machine from the account, so its user can log in from another one. On
   * success the server has ended this machine's session (the library forgets it: no end call)
   * and the program forgets the saved session and returns to the login prompt.
   */
  const attemptRelease = async (username, password) => {
    if (!current) return;
    const result = await attempt(
      () => client.resetDevices({ username: username.trim(), password }),
      'Release',
    );
    if (!result) return;
    const nextReleaseAt = typeof result.next_reset_at === 'string' ? result.next_reset_at : null;
    if (!result.success) printRefusal(result, 'Release Failed');
    else screen.print(`Device Released: ${result.message}`);
    if (nextReleaseAt && (result.success || result.code === 'RESET_COOLDOWN')) {
      screen.print(`You can release a device again at ${nextReleaseAt}.`);
    }
    // A forced logout while the call ran has moved to the login prompt already.
    if (!result.success || !current) return;
    stopMonitoring();
    current = null;
    forgetUser();
    log('logged out (device released)');
    screen.print(DEVICE_RELEASED_LOGOUT_MESSAGE);
    showLogin();
  };

  /** Saves the user's note (a user variable); the vendor may have made it read-only. */
  const saveNote = async (value) => {
    const session = current;
    if (!session) return screen.print('No active session.');
    const result = await attempt(
      () => client.setUserVariable({ name: NOTE_VARIABLE, value }),
      'Note',
    );
    if (!result) return;
    log(result.success ? `${NOTE_VARIABLE} saved` : `${NOTE_VARIABLE} not saved (${result.code})`);
    if (result.code === 'VARIABLE_READ_ONLY') screen.print(`Note Is Read-Only: ${result.message}`);
    else if (!result.success) printRefusal(result, 'Note Not Saved');
    else {
      session.note = value;
      screen.print('Note saved.');
    }
  };

  /**
   * Counts one use of a metered feature against the first usage meter the user holds (a program
   * names its own: `exports` before an export, say), then shows what is left. Each increment
   * sends a random idempotency key of its own; one that got no answer is sent again, by the next
   * `use`, with the same key, so the server counts it once even when only its answer was lost.
   * A refusal is titled by its code: the meter is used up, or no longer in the user's plans.
   */
  const useMeteredFeature = async () => {
    const session = current;
    if (!session) return screen.print('No active session.');
    const [meter] = session.meters;
    if (!meter) return screen.print('Your plans have no usage meters.');
    const isRetry = unansweredUse?.session === session && unansweredUse.name === meter.name;
    if (!isRetry) unansweredUse = { session, name: meter.name, key: randomUUID() };
    const { key } = unansweredUse;
    const result = await attempt(
      () => client.useMeter(meter.name, { amount: 1, idempotencyKey: key }),
      'Usage',
    );
    if (!result) return;
    unansweredUse = null;
    // Counted or used up, the answer says where the meter stands now; a meter no plan of the
    // user has any more is not shown any more.
    const standing =
      typeof result.remaining === 'number'
        ? {
            name: meter.name,
            allowance: result.allowance,
            used: result.used,
            remaining: result.remaining,
            overage: result.overage ?? 0,
            resets_at: result.resets_at ?? null,
          }
        : null;
    if (standing) {
      session.meters = session.meters.map((each) => (each.name === meter.name ? standing : each));
    } else if (result.code === 'METER_NOT_FOUND') {
      session.meters = session.meters.filter((each) => each.name !== meter.name);
    }
    if (result.success) {
      log(`${meter.name} use counted${result.replayed ? ' (sent again: counted once)' : ''}`);
      screen.print(`Usage Counted: ${formatMeter(standing ?? meter)}`);
    } else {
      log(`${meter.name} use refused (${result.code})`);
      printRefusal(result, 'Usage Not Counted');
    }
  };

  /**
   * Borrows this computer's floating seat for `days` (`borrow 3`: a trip without the network):
   * the seat stays taken until the borrow ends, even once the session has ended, and the offline
   * licence the server answers, stored where a checked-out one is kept, lets the program run
   * offline until then. The plan says how many days it allows (none: Borrowing Not Allowed).
   */
  const borrowSeat = async (days) => {
    const session = current;
    if (!session) return screen.print('No active session.');
    const count = /^\d+$/.test(days ?? '') ? Number(days) : 0;
    if (count < 1 || count > MAX_BORROW_DAYS) return screen.print(BORROW_USAGE_MESSAGE);
    const result = await attempt(() => client.borrowSeat(count), 'Borrow');
    if (!result) return;
    if (!result.success) {
      log(`seat borrow refused (${result.code})`);
      return printRefusal(result, 'Borrow Failed');
    }
    log(`seat borrowed for ${count} days`);
    // Logged out meanwhile: that user's licence is not to be kept.
    if (current !== session) return;
    const content = storeIssuedLicense(result.license);
    const until = content?.valid_until ?? result.valid_until;
    session.borrowedUntil = until;
    screen.print(`Seat Borrowed: ${result.message} (borrowed until ${formatLocalTime(until)})`);
  };

  /**
   * Gives the borrowed seat back before the borrow ends, so another computer may take it; the
   * session goes on, on an ordinary seat again. The licence the borrow issued cannot be
   * recalled: the program discards it (the next login checks out another).
   */
  const returnSeat = async () => {
    const session = current;
    if (!session) return screen.print('No active session.');
    const result = await attempt(() => client.returnSeat(), 'Return');
    if (!result) return;
    if (!result.success) {
      log(`seat return refused (${result.code})`);
      return printRefusal(result, 'Return Failed');
    }
    log('seat returned');
    session.borrowedUntil = null;
    rmSync(offlineFile, { force: true });
    log('borrowed licence discarded');
    screen.print(`Seat Returned: ${result.message}`);
  };

  /**
   * True when the saved session holds (online or on the offline licence). Leaving the program
   * stops monitoring but keeps the session open, so the next start takes it back with its
   * token (no password), then verifies the user as after a login. A session the server has
   * ended (a logout, the owner's pause, a new password) is refused, and forgotten here.
   */
  const resumeSavedSession = async (saved) => {
    let verified;
    try {
      const resumed = await call(() =>
        client.resumeSession({ token: saved.token, userId: saved.user_id }),
      );
      verified = resumed.success ? await call(() => verifyUser(saved.user_id)) : resumed;
    } catch (error) {
      // Not an answer from the server: keep the saved session for the next start.
      screen.print(error.message);
      return error.isUnreachable ? startOffline() : false;
    }
    if (!verified.success) {
      log(`saved session refused (${verified.code})`);
      if (client.session) await endSession();
      forgetUser();
      return false;
    }
    screen.print('Saved session verified.');
    log('saved session verified');
    const user = { userId: saved.user_id, username: saved.username ?? '' };
    await enterMainScreen({ ...user, ...licensingOf(verified) }, 'resumed');
    return true;
  };

  const logout = async () => {
    await endSession();
    forgetUser();
    log('logged out');
    screen.print(LOGGED_OUT_MESSAGE);
    showLogin();
  };

  const showStatus = () => {
    const session = current;
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
    screen.print(`Monitoring:      ${timers.length > 0 ? 'on' : 'off'}`);
    screen.print(`Last heartbeat:  ${time(session.lastHeartbeatAt)}`);
    screen.print(`Last verified:   ${time(session.lastVerifiedAt)}`);
    screen.print(`Verify failures: ${session.verifyFailures}/${MAX_VERIFY_FAILURES}`);
    screen.print(`Entitlements:    ${formatEntitlements(session.entitlements)}`);
    screen.print(`Subscriptions:   ${formatSubscriptions(session.subscriptions)}`);
    screen.print(formatUpdates(session.updatesUntil, 17));
    for (const line of formatUsage(session.meters, 17)) screen.print(line);
    if (session.borrowedUntil) {
      screen.print(`Seat borrowed:   until ${formatLocalTime(session.borrowedUntil)}`);
    }
    screen.print(`Version:         ${client.version}`);
  };

  const HELP = [
    'Commands:',
    '  status   show the session: user, token, last heartbeat and verify, entitlements',
    '  redeem   add a licence key to this account (asks for the key and your password)',
    '  release  release this device (log in again from another machine)',
    '  note     save a note on your account (your vendor may make it read-only)',
    '  use      use a metered feature: counts one use against your first usage meter',
    "  borrow   borrow this computer's seat to work offline: borrow <days> (borrow 3: three days)",
    '  return   give a borrowed seat back early, for another computer',
    '  help     show this list',
    '  logout   end the session and return to the login prompt',
  ];

  const runCommand = async (command) => {
    const [name = '', argument] = command.split(/\s+/);
    switch (name) {
      case '':
        break;
      case 'status':
        showStatus();
        break;
      case 'redeem':
        // Working offline there is no session, and redeeming and releasing need one.
        if (!current) {
          screen.print('No active session.');
          break;
        }
        state = 'redeem-key';
        return screen.ask('Licence key: ');
      case 'release':
        if (!current) {
          screen.print('No active session.');
          break;
        }
        screen.print(
          'Releasing this device frees its seat for another machine and ends this session here (an empty password cancels).',
        );
        if (current?.username) {
          pending = { username: current.username };
          state = 'release-password';
          return screen.ask('Password: ', { isHidden: true });
        }
        state = 'release-username';
        return screen.ask('Username: ');
      case 'note':
        if (!current) {
          screen.print('No active session.');
          break;
        }
        state = 'note-value';
        return screen.ask('New note: ');
      case 'use':
        await useMeteredFeature();
        break;
      case 'borrow':
        await borrowSeat(argument);
        break;
      case 'return':
        await returnSeat();
        break;
      case 'help':
        for (const line of HELP) screen.print(line);
        break;
      case 'logout':
        return logout();
      default:
        screen.print(`Unknown command: ${command}. Type 'help' for the commands.`);
    }
    if (state === 'main') screen.ask('> ');
  };

  /** Back to the main prompt after a call, unless a logout meanwhile has left it. */
  const backToMain = () => {
    pending = {};
    if (current) {
      state = 'main';
      screen.ask('> ');
    }
  };

  /** Asks for the next field of a multi-prompt command. */
  const next = (nextState, prompt, isHidden = false) => {
    state = nextState;
    screen.ask(prompt, { isHidden });
  };

  /** What a line typed at each prompt does; `state` says which prompt it answers. */
  const handleLine = async (currentState, line) => {
    if (currentState !== 'main') state = 'busy';
    switch (currentState) {
      case 'username': {
        const command = line.trim();
        if (command === '/register') return next('register-username', 'New username: ');
        if (command === '/key') return next('license-key', 'Licence key: ');
        if (command === '/trial') return next('trial-username', 'Trial username (optional): ');
        if (command === '/forgot') return next('forgot-password', 'Username or e-mail: ');
        if (command === '/resend') return next('resend-username', 'Username: ');
        if (command === '/offline') {
          return next('offline-key', 'Licence key (or empty to use a username): ');
        }
        pending = { username: line };
        return next('password', 'Password: ', true);
      }
      case 'password':
      case 'resend-password':
      case 'register-password': {
        const username = pending.username.trim();
        if (!username || !line) {
          screen.print(MISSING_CREDENTIALS_MESSAGE);
          return showLogin();
        }
        if (currentState === 'password') {
          return completeLogin(() =>
            client.login({ username, password: line, requiredEntitlements }),
          );
        }
        if (currentState === 'resend-password') {
          return requestMail(
            () => client.resendVerification({ username, password: line }),
            'Resend Failed',
          );
        }
        pending = { username, password: line };
        return next('register-email', 'E-mail (optional): ');
      }
      case 'license-key': {
        const licenseKey = line.trim();
        if (!licenseKey) {
          screen.print(MISSING_LICENSE_KEY_MESSAGE);
          return showLogin();
        }
        return completeLogin(() => client.licenseLogin({ licenseKey, requiredEntitlements }));
      }
      case 'trial-username': {
        // This machine's trial (the hardware id the library sends with every login): the name
        // is the new trial account's, and none lets the server choose one. A machine that has
        // had its trial gets that same account back, whatever name is given.
        const username = line.trim() || undefined;
        return completeLogin(() => client.startTrial({ username, requiredEntitlements }), {
          isTrial: true,
        });
      }
      case 'offline-key': {
        const licenseKey = line.trim();
        if (licenseKey) return writeActivationRequest({ licenseKey });
        return next('offline-username', 'Username: ');
      }
      case 'offline-username': {
        const username = line.trim();
        if (!username) {
          screen.print(MISSING_KEY_OR_USERNAME_MESSAGE);
          return showLogin();
        }
        return writeActivationRequest({ username });
      }
      case 'offline-license':
        return acceptPastedLicense(line);
      case 'forgot-password': {
        // Named by its username or, when the text holds an '@', by its e-mail address.
        const name = line.trim();
        if (!name) {
          screen.print(MISSING_USERNAME_OR_EMAIL_MESSAGE);
          return showLogin();
        }
        const named = name.includes('@') ? { email: name } : { username: name };
        return requestMail(() => client.forgotPassword(named), 'Password Reset Failed');
      }
      case 'resend-username':
        pending = { username: line };
        return next('resend-password', 'Password: ', true);
      case 'register-username':
        pending = { username: line };
        return next('register-password', 'Password: ', true);
      case 'register-email':
        pending.email = line;
        return next('register-key', 'Licence key (optional): ');
      case 'register-key':
        return attemptRegister({ ...pending, licenseKey: line });
      case 'main':
        return runCommand(line.trim().toLowerCase());
      case 'redeem-key':
        pending = { licenseKey: line };
        return next('redeem-password', 'Password: ', true);
      case 'redeem-password':
        await attemptRedeem(pending.licenseKey, line);
        return backToMain();
      case 'update-confirm':
        if (/^\s*y(es)?\s*$/i.test(line)) await downloadUpdate(pending.update);
        // This version may not log in: whatever the answer, the program ends here.
        return exitProgram();
      case 'note-value':
        await saveNote(line);
        return backToMain();
      case 'release-username':
        pending = { username: line };
        return next('release-password', 'Password: ', true);
      case 'release-password':
        if (line.length === 0) screen.print('Release cancelled.');
        else await attemptRelease(pending.username, line);
        // A release logs out; so does a forced logout while the call ran.
        return backToMain();
    }
  };

  const stop = () => screen.readline.close();
  screen.readline.on('SIGINT', stop);
  process.once('SIGTERM', stop);

  // Each start moves the offline licence's `last_seen` on (never back): a clock set back
  // before it is one the library refuses the licence for.
  recordLastSeen();
  const saved = readJson(sessionFile);
  const hasSavedUser = typeof saved?.user_id === 'string' && typeof saved.token === 'string';
  // No session to resume but a stored licence: this computer was activated offline (`/offline`;
  // a logout forgets a checked-out licence with its session), so it runs on that licence
  // without trying a server it may never reach.
  const hasActivatedLicense = !hasSavedUser && typeof readJson(offlineFile)?.license === 'string';
  const isRunning = hasSavedUser
    ? await resumeSavedSession(saved)
    : hasActivatedLicense && startOffline();
  if (!isRunning && state !== 'username') {
    screen.print(
      'Log in below. At the Username prompt, type /register to create an account, /key to log in with a licence key, /trial to start a trial on this machine, /forgot if you forgot your password, /resend for a new link to confirm your e-mail address, or /offline to activate this computer without the internet.',
    );
    showLogin();
  }

  for await (const line of screen.readline) {
    if (state === 'exit') break;
    const currentState = state;
    screen.answered();
    await handleLine(currentState, line);
    if (state === 'exit') break;
  }

  // The input ended (or the window closed): monitoring stops, and the session stays open for
  // the next start to resume (`logout` is what ends it).
  process.removeListener('SIGTERM', stop);
  stopMonitoring();
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
