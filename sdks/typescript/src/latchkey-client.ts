import { randomBytes, randomUUID, type KeyObject } from 'node:crypto';
import { checkAnswerSignature, publicKeyFromHex } from './answer-signature.js';
import type {
  AuthAnswer,
  CheckoutAnswer,
  DeviceResetAnswer,
  DownloadResult,
  FileAnswer,
  LoginResult,
  MailAnswer,
  MeterAnswer,
  ResultCode,
  Result,
  SeatReturnAnswer,
  SessionAnswer,
  UpdateOffer,
  VariableAnswer,
  VerifyAnswer,
} from './answer-types.js';
import { createActivationRequest } from './activation-request.js';
import { SignatureError, TransportError } from './client-errors.js';
import { downloadFile } from './download-file.js';
import { sendHttpRequest } from './http-transport.js';
import { hashMachineId, readRawMachineId } from './machine-id.js';
import {
  verifyOfflineLicense,
  type OfflineLicenseCheck,
  type OfflineLicenseOptions,
} from './offline-license.js';

export interface LatchkeyClientOptions {
  /** The Latchkey server's origin, e.g. `https://auth.example.com`. */
  baseUrl: string;
  /** The application's API key. */
  apiKey: string;
  /**
   * The application's Ed25519 public key (64 hex digits, its `signingPublicKey`): pinned, so an
   * answer signed by any other key is refused.
   */
  publicKey: string;
  /** This program's version, sent with the calls that check it (login, licenseLogin, startTrial). */
  version: string;
  /** How long one request may take, answer included (30 s). */
  timeoutMs?: number;
  /** An HTTP proxy for every request: `http://[user:password@]host:port`. */
  proxy?: string;
  /** This machine's HWID; by default `machineId()`. */
  hwid?: string;
  /** A name for this machine shown to the vendor in the user's devices (none by default). */
  deviceName?: string;
  /** How many times a safe call is tried again after a failure or a 429 (2). */
  retries?: number;
  /** The longest wait before trying again; a longer `Retry-After` answers the 429 (30 s). */
  maxRetryDelayMs?: number;
  /** How far an answer's signing time may be from this machine's clock (300 s). */
  maxClockSkewSeconds?: number;
}

/** The session a login opened: its token and its user. */
export interface ClientSession {
  token: string;
  userId: string;
}

export interface HeartbeatOptions {
  /** Time between heartbeats (30 s, as the server expects: 90 s without one is not live). */
  intervalMs?: number;
  /** The server ended the session (paused, expired, released, replaced...): the loop has stopped. */
  onRevoked: (result: Result<SessionAnswer>) => void;
  /** A heartbeat that failed without an answer to believe (network, refused signature): the loop goes on. */
  onError?: (error: Error) => void;
}

const V1 = '/api/v1';
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;
const FIRST_RETRY_DELAY_MS = 250;

/**
 * Heartbeat answers that mean the session is over; any other refusal (a rate limit) is not a
 * revocation and the loop goes on.
 */
const sessionEndingCodes: ReadonlySet<ResultCode> = new Set<ResultCode>([
  'SESSION_INVALID',
  'ACCOUNT_DISABLED',
  'ACCOUNT_EXPIRED',
  'APP_DISABLED',
  'NO_ACTIVE_SUBSCRIPTION',
  'EMAIL_NOT_VERIFIED',
  'USER_NOT_FOUND',
]);

/**
 * Whether a call may be sent again when no answer came: only calls whose repetition changes
 * nothing (a meter's increment counts once per idempotency key, which its retries keep). A
 * login, a trial's start, a registration, a key's redemption or a device release is never sent
 * twice.
 */
type RetryPolicy = 'safe' | 'once';

/**
 * A client of one Latchkey application. Every answer is checked before it is read: its
 * Ed25519 signature under the pinned key, this request's nonce in it, its time within the clock
 * window; a refused answer rejects with `SignatureError`, a network or server failure with
 * `TransportError`. Business outcomes (a wrong password, an expired account) are results with a
 * `code`, never exceptions. The client never writes to the console and never exits the process.
 */
export class LatchkeyClient {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly publicKey: string;
  readonly version: string;
  readonly hwid: string;
  readonly deviceName: string | null;
  private readonly key: KeyObject;
  private readonly proxy: URL | null;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly maxRetryDelayMs: number;
  private readonly maxClockSkewSeconds: number;
  private currentSession: ClientSession | null = null;
  /**
   * The token of the session whose seat this client last borrowed: the seat stays borrowed
   * after that session ends (which forgets the session), and `returnSeat` gives it back.
   */
  private borrowedSeatToken: string | null = null;
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private heartbeatLoop: HeartbeatOptions | null = null;

  constructor(options: LatchkeyClientOptions) {
    const base = new URL(options.baseUrl);
    if (base.protocol !== 'http:' && base.protocol !== 'https:') {
      throw new TypeError('baseUrl must be an http: or https: URL');
    }
    this.baseUrl = base.href.replace(/\/+$/, '');
    if (typeof options.apiKey !== 'string' || options.apiKey === '') {
      throw new TypeError('apiKey is required');
    }
    this.apiKey = options.apiKey;
    this.key = publicKeyFromHex(options.publicKey);
    this.publicKey = options.publicKey.toLowerCase();
    this.version = options.version;
    this.proxy = options.proxy ? new URL(options.proxy) : null;
    if (this.proxy && this.proxy.protocol !== 'http:') {
      throw new TypeError('proxy must be an http: URL (https targets go through a CONNECT tunnel)');
    }
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.retries = options.retries ?? 2;
    this.maxRetryDelayMs = options.maxRetryDelayMs ?? 30_000;
    this.maxClockSkewSeconds = options.maxClockSkewSeconds ?? 300;
    this.hwid = options.hwid ?? this.machineId();
    this.deviceName = options.deviceName ?? null;
  }

  /** The session the last login opened, or null. */
  get session(): ClientSession | null {
    return this.currentSession;
  }

  /**
   * This machine's id for this application: its own identifier (Windows `MachineGuid`, macOS
   * `IOPlatformUUID`, Linux `/etc/machine-id`) hashed with the application's public key, so
   * the raw identifier never leaves the machine.
   */
  machineId(): string {
    return hashMachineId(readRawMachineId(), this.publicKey);
  }

  /** A new account; with `licenseKey`, the key is redeemed in the same step. No session: log in next. */
  register(input: {
    username: string;
    password: string;
    email?: string;
    licenseKey?: string;
  }): Promise<Result<AuthAnswer>> {
    return this.call<AuthAnswer>('/register', 'once', {
      username: input.username,
      password: input.password,
      hwid: this.hwid,
      ...(input.email ? { email: input.email } : {}),
      ...(input.licenseKey ? { license_key: input.licenseKey } : {}),
    });
  }

  /**
   * Logs in and opens the session (`session/track` start with the token the login issued), so
   * heartbeat, checkout and the user's variables can follow. A refused start answers in the
   * login's place. With `requiredEntitlements`, the user must hold each of them (a verify,
   * before the session opens): if not, no session opens and the answer is the verify's refusal
   * (`ENTITLEMENTS_MISSING` with `missing_entitlements`) over the login's fields.
   */
  async login(input: {
    username: string;
    password: string;
    requiredEntitlements?: string[];
  }): Promise<LoginResult> {
    const answer = await this.call<AuthAnswer>('/login', 'once', {
      username: input.username,
      password: input.password,
      version: this.version,
      hwid: this.hwid,
      ...(this.deviceName ? { device_name: this.deviceName } : {}),
    });
    return this.openSession(answer, input.requiredEntitlements);
  }

  /**
   * Logs in with a licence key alone (its first use creates the user) and opens the session;
   * `requiredEntitlements` as for `login`.
   */
  async licenseLogin(input: {
    licenseKey: string;
    requiredEntitlements?: string[];
  }): Promise<LoginResult> {
    const answer = await this.call<AuthAnswer>('/license/login', 'once', {
      license_key: input.licenseKey,
      version: this.version,
      hwid: this.hwid,
      ...(this.deviceName ? { device_name: this.deviceName } : {}),
    });
    return this.openSession(answer, input.requiredEntitlements);
  }

  /**
   * Starts this machine's trial, or logs in the one it already has, and opens the session;
   * `requiredEntitlements` as for `login`. The application offers one trial per machine
   * (`hwid`, this client's unless given): the first call creates a trial account (named
   * `username`, else `trial-` and random hex) ending after the application's trial days, with its
   * trial entitlements; every later call from the machine, whatever `username` it sends, logs
   * in that same account. `TRIAL_UNAVAILABLE` when the application offers no trial,
   * `TRIAL_EXPIRED` once the machine's trial has ended (`expires_at` says when), `TRIAL_USED`
   * when the vendor deleted its account. Never sent twice, as a login.
   */
  async startTrial(
    input: { hwid?: string; username?: string; requiredEntitlements?: string[] } = {},
  ): Promise<LoginResult> {
    const hwid = input.hwid ?? this.hwid;
    const answer = await this.call<AuthAnswer>('/trial', 'once', {
      hwid,
      ...(input.username ? { username: input.username } : {}),
      version: this.version,
      ...(this.deviceName ? { device_name: this.deviceName } : {}),
    });
    return this.openSession(answer, input.requiredEntitlements, hwid);
  }

  /**
   * Resumes a session the program saved (`session`'s token and user id) at its next start,
   * without the password: one heartbeat with its token, and when it is accepted the session is
   * this client's again. Any session the client had is forgotten first; a refused one is not
   * kept. Answers the heartbeat's result.
   */
  async resumeSession(input: { token: string; userId: string }): Promise<Result<SessionAnswer>> {
    this.forgetSession();
    const answer = await this.call<SessionAnswer>('/session/track', 'safe', {
      action: 'heartbeat',
      session_token: input.token,
    });
    if (answer.success) this.currentSession = { token: input.token, userId: input.userId };
    return answer;
  }

  /** Adds a licence key to an account; the password proves the holder. */
  redeem(input: {
    username: string;
    password: string;
    licenseKey: string;
  }): Promise<Result<AuthAnswer>> {
    return this.call<AuthAnswer>('/license/redeem', 'once', {
      username: input.username,
      password: input.password,
      license_key: input.licenseKey,
    });
  }

  /**
   * Is the user (the session's, unless `userId` is given) in good standing now, holding every
   * entitlement asked for?
   */
  verify(input: { userId?: string; entitlements?: string[] } = {}): Promise<Result<VerifyAnswer>> {
    const userId = input.userId ?? this.requireSession('verify').userId;
    return this.call<VerifyAnswer>('/verify', 'safe', {
      user_id: userId,
      ...(input.entitlements ? { entitlements: input.entitlements } : {}),
    });
  }

  /**
   * Keeps the session alive. A refusal that ends it (paused, expired, released...) forgets it
   * here too, and a running heartbeat loop stops and reports it to its `onRevoked`.
   */
  async heartbeat(): Promise<Result<SessionAnswer>> {
    const session = this.requireSession('heartbeat');
    const answer = await this.call<SessionAnswer>('/session/track', 'safe', {
      action: 'heartbeat',
      session_token: session.token,
    });
    if (!answer.success && sessionEndingCodes.has(answer.code) && this.currentSession === session) {
      const loop = this.heartbeatLoop;
      this.forgetSession();
      if (loop) reportSafely(() => loop.onRevoked(answer));
    }
    return answer;
  }

  /** Ends the session (null when there is none). It is over here whatever the server answers. */
  async endSession(): Promise<Result<SessionAnswer> | null> {
    const session = this.currentSession;
    this.forgetSession();
    if (!session) return null;
    return this.call<SessionAnswer>('/session/track', 'safe', {
      action: 'end',
      session_token: session.token,
    });
  }

  /** An application variable; the session is sent when there is one (most variables need it). */
  getVariable(input: { name: string }): Promise<Result<VariableAnswer>> {
    return this.call<VariableAnswer>('/var', 'safe', {
      name: input.name,
      ...(this.currentSession ? { session_token: this.currentSession.token } : {}),
    });
  }

  /** One of the session's user's own variables. */
  getUserVariable(input: { name: string }): Promise<Result<VariableAnswer>> {
    return this.call<VariableAnswer>('/user-var', 'safe', {
      session_token: this.requireSession('getUserVariable').token,
      name: input.name,
    });
  }

  /** Creates or replaces one of the session's user's variables, unless the vendor made it read-only. */
  setUserVariable(input: { name: string; value: string }): Promise<Result<VariableAnswer>> {
    return this.call<VariableAnswer>('/user-var/set', 'safe', {
      session_token: this.requireSession('setUserVariable').token,
      name: input.name,
      value: input.value,
    });
  }

  /**
   * Counts `amount` units (1 unless given) against the session's user's usage meter `name`:
   * `METER_EXHAUSTED` when a refusing meter would pass its allowance for the period (nothing
   * counted; the answer still says where the meter stands), `METER_NOT_FOUND` when no active
   * plan of the user has it. Each increment carries an idempotency key (`idempotencyKey`, or a
   * random UUID), so the server counts it once however often it arrives: it is retried like the
   * other safe calls, with the same key, and a repeat is answered as the first time with
   * `replayed` true. A program that tries an increment again itself passes the same
   * `idempotencyKey` each time.
   */
  useMeter(
    name: string,
    options: { amount?: number; idempotencyKey?: string } = {},
  ): Promise<Result<MeterAnswer>> {
    // The name is one segment of the path, whatever it holds.
    return this.call<MeterAnswer>(`/meters/${encodeURIComponent(name)}/use`, 'safe', {
      session_token: this.requireSession('useMeter').token,
      amount: options.amount ?? 1,
      idempotency_key: options.idempotencyKey ?? randomUUID(),
    });
  }

  /**
   * Releases this machine's seat (or, with `all`, every device of the user) where the
   * application allows it; the server ends those devices' sessions, so this one is forgotten.
   */
  async resetDevices(input: {
    username: string;
    password: string;
    all?: boolean;
  }): Promise<Result<DeviceResetAnswer>> {
    const answer = await this.call<DeviceResetAnswer>('/devices/reset', 'once', {
      username: input.username,
      password: input.password,
      ...(input.all ? { all: true } : { hwid: this.hwid }),
    });
    if (answer.success) this.forgetSession();
    return answer;
  }

  /**
   * Mails a link to choose a new password to the account named by `username` or by `email`
   * (exactly one). The answer is the same whether or not the account exists. Never sent twice:
   * each request may send a mail.
   */
  forgotPassword(input: { username: string } | { email: string }): Promise<Result<MailAnswer>> {
    const named = input as { username?: string; email?: string };
    if ((named.username === undefined) === (named.email === undefined)) {
      throw new TypeError('forgotPassword: give either username or email');
    }
    return this.call<MailAnswer>(
      '/password/forgot',
      'once',
      named.username !== undefined ? { username: named.username } : { email: named.email },
    );
  }

  /**
   * Mails a new link to confirm the account's e-mail address, for an application that lets only
   * confirmed addresses log in; the password proves the holder. The answer is the same whatever
   * the account. Never sent twice.
   */
  resendVerification(input: { username: string; password: string }): Promise<Result<MailAnswer>> {
    return this.call<MailAnswer>('/email/verify/resend', 'once', {
      username: input.username,
      password: input.password,
    });
  }

  /**
   * An offline licence for the session: one line (`LK1.…`, or `LK1E.…` with `encrypt`) to store
   * as the program likes and check with `verifyOfflineLicense` when the server is out of reach.
   */
  checkout(
    input: { ttlSeconds?: number; encrypt?: boolean } = {},
  ): Promise<Result<CheckoutAnswer>> {
    return this.call<CheckoutAnswer>('/license/checkout', 'safe', {
      session_token: this.requireSession('checkout').token,
      ...(input.ttlSeconds !== undefined ? { ttl_seconds: input.ttlSeconds } : {}),
      ...(input.encrypt ? { encrypt: true } : {}),
    });
  }

  /**
   * Borrows the session's floating seat for `days` (1 to 365, at most the plan's
   * `maxBorrowDays`): an offline licence, as `checkout` answers (`LK1.…`, or `LK1E.…` with
   * `encrypt`), holding for those days, and the seat kept taken until then, even once the
   * session has ended, unless `returnSeat` gives it back sooner. `BORROW_NOT_ALLOWED` when the
   * user's plan is not floating or allows fewer days. Borrowing again issues another licence
   * for the same seat, so it is retried like `checkout`.
   */
  async borrowSeat(
    days: number,
    options: { encrypt?: boolean } = {},
  ): Promise<Result<CheckoutAnswer>> {
    const session = this.requireSession('borrowSeat');
    const answer = await this.call<CheckoutAnswer>('/session/borrow', 'safe', {
      session_token: session.token,
      days,
      ...(options.encrypt ? { encrypt: true } : {}),
    });
    if (answer.success) this.borrowedSeatToken = session.token;
    return answer;
  }

  /**
   * Gives back the seat this client last borrowed (with `borrowSeat`, even if its session has
   * ended since), or else the current session's borrowed seat, before the borrow ends: another
   * computer may then take it. The licence already issued cannot be recalled: discard it.
   * `SESSION_INVALID` when that login has no borrowed seat. Giving a seat back twice changes
   * nothing, so it is retried like the other safe calls.
   */
  async returnSeat(): Promise<Result<SeatReturnAnswer>> {
    const token = this.borrowedSeatToken ?? this.currentSession?.token;
    if (token === undefined) {
      throw new Error('returnSeat needs a session (or a seat this client borrowed): log in first');
    }
    const answer = await this.call<SeatReturnAnswer>('/session/return', 'safe', {
      session_token: token,
    });
    // Given back, or never borrowed under that token: either way there is nothing left to return.
    if ((answer.success || answer.code === 'SESSION_INVALID') && this.borrowedSeatToken === token) {
      this.borrowedSeatToken = null;
    }
    return answer;
  }

  /**
   * Downloads one of the application's files to `destination`: a signed answer names its URL,
   * size and SHA-256, the bytes are streamed beside `destination` and kept only when they match
   * (else `SignatureError` with reason `digest`, and no file). `sha256`, from an update offer,
   * must also be the file's. A file that needs a session and was published after the user's
   * updates window is refused with `UPDATES_EXPIRED`.
   */
  async download(input: {
    fileId: string;
    destination: string;
    sha256?: string;
  }): Promise<DownloadResult> {
    const answer = await this.call<FileAnswer>('/file', 'safe', {
      file_id: input.fileId,
      ...(this.currentSession ? { session_token: this.currentSession.token } : {}),
    });
    if (!answer.success) return answer;
    const { url, size, sha256 } = answer;
    if (typeof url !== 'string' || typeof size !== 'number' || typeof sha256 !== 'string') {
      throw new TransportError('malformed', 'The file answer has no URL, size or SHA-256');
    }
    if (input.sha256 !== undefined && input.sha256.toLowerCase() !== sha256.toLowerCase()) {
      throw new SignatureError('digest', 'The file is not the one the update offer signed');
    }
    await downloadFile({
      url: new URL(url, `${this.baseUrl}/`),
      destination: input.destination,
      size,
      sha256,
      timeoutMs: Math.max(this.timeoutMs, 10 * 60_000),
      proxy: this.proxy,
    });
    return { ...answer, path: input.destination };
  }

  /**
   * The release a login refused with `VERSION_MISMATCH` or `UPDATES_EXPIRED` offers, or null:
   * the current release, or, for a user whose updates window ended before it was published, the
   * newest release published within the window (the one they may run). The v1 API has no call
   * of its own for it: the offer rides, signed, on the login's answer; pass it to `download`
   * with its `file_id` and `sha256`.
   */
  checkForUpdate(answer: AuthAnswer): UpdateOffer | null {
    const offersRelease = answer.code === 'VERSION_MISMATCH' || answer.code === 'UPDATES_EXPIRED';
    const update = offersRelease ? answer.update : undefined;
    const isOffer =
      typeof update === 'object' &&
      update !== null &&
      typeof update.version === 'string' &&
      typeof update.file_id === 'string' &&
      Number.isSafeInteger(update.size) &&
      typeof update.sha256 === 'string' &&
      /^[0-9a-f]{64}$/i.test(update.sha256);
    return isOffer ? update : null;
  }

  /**
   * Checks an offline licence with this application's pinned key and this machine's HWID
   * (unless another is given), without the network.
   */
  verifyOfflineLicense(
    license: string,
    options: Partial<Omit<OfflineLicenseOptions, 'publicKey'>> = {},
  ): OfflineLicenseCheck {
    return verifyOfflineLicense(license, {
      ...options,
      publicKey: this.key,
      hwid: options.hwid ?? this.hwid,
    });
  }

  /**
   * An activation request for this machine, written without the network: the text (`LKA1.…`)
   * the user of a machine that never reaches the server pastes into the application's portal
   * (`/portal/<publicId>`) on another computer, signed in or with `licenseKey`; the portal
   * answers an offline licence for this machine (`LK1E.…` with `encrypt`) to paste back and check
   * with `verifyOfflineLicense`. It names this application's key, this machine (`hwid`, the
   * client's unless given) and the client's `deviceName`; `nonce` and `now` only pin what
   * would otherwise be random and this machine's clock. Neither `licenseKey` nor `username` is
   * needed when the user signs in to the portal.
   */
  createActivationRequest(
    input: {
      licenseKey?: string;
      username?: string;
      encrypt?: boolean;
      hwid?: string;
      nonce?: string;
      now?: Date;
    } = {},
  ): string {
    return createActivationRequest({
      ...input,
      publicKey: this.publicKey,
      hwid: input.hwid ?? this.hwid,
      ...(this.deviceName ? { deviceName: this.deviceName } : {}),
    });
  }

  /**
   * Heartbeats the session every `intervalMs` on an unref'd timer (it never keeps the process
   * alive). When the server ends the session, the loop stops and `onRevoked` is told why;
   * network failures and refused answers go to `onError` and the loop goes on.
   */
  startHeartbeat(options: HeartbeatOptions): void {
    this.requireSession('startHeartbeat');
    this.stopHeartbeat();
    // A loop of its own, even when a program passes the same options twice.
    const loop: HeartbeatOptions = { ...options };
    this.heartbeatLoop = loop;
    const intervalMs = options.intervalMs ?? 30_000;
    const isRunning = () => this.heartbeatLoop === loop;
    const beat = async () => {
      if (!isRunning()) return;
      try {
        // A revocation stops this loop and reaches `onRevoked` from `heartbeat` itself.
        await this.heartbeat();
      } catch (error) {
        if (isRunning()) reportSafely(() => options.onError?.(error as Error));
      }
      if (isRunning()) schedule();
    };
    const schedule = () => {
      this.heartbeatTimer = setTimeout(() => void beat(), intervalMs);
      this.heartbeatTimer.unref();
    };
    schedule();
  }

  stopHeartbeat(): void {
    this.heartbeatLoop = null;
    if (this.heartbeatTimer) clearTimeout(this.heartbeatTimer);
    this.heartbeatTimer = null;
  }

  private forgetSession(): void {
    this.stopHeartbeat();
    this.currentSession = null;
  }

  private requireSession(call: string): ClientSession {
    if (!this.currentSession) throw new Error(`${call} needs a session: log in first`);
    return this.currentSession;
  }

  /**
   * After a successful login: the required entitlements checked (a refusal answers in the
   * login's place, its fields over the login's), then `session/track` start with the login's
   * token, from the machine (`hwid`) the login named.
   */
  private async openSession(
    login: Result<AuthAnswer>,
    requiredEntitlements: string[] = [],
    hwid: string = this.hwid,
  ): Promise<LoginResult> {
    if (!login.success || typeof login.user_id !== 'string') return login;
    this.forgetSession();
    if (requiredEntitlements.length > 0) {
      const verdict = await this.call<VerifyAnswer>('/verify', 'safe', {
        user_id: login.user_id,
        entitlements: requiredEntitlements,
      });
      if (!verdict.success) {
        const { session_token: _unopened, ...withoutSession } = login;
        return { ...withoutSession, ...verdict };
      }
    }
    const token =
      typeof login.session_token === 'string'
        ? login.session_token
        : `sess_${randomBytes(16).toString('hex')}_${Math.floor(Date.now() / 1000)}`;
    const start = await this.call<SessionAnswer>('/session/track', 'safe', {
      action: 'start',
      user_id: login.user_id,
      session_token: token,
      hwid,
    });
    if (!start.success) return start;
    this.currentSession = { token, userId: login.user_id };
    return { ...login, session_token: token };
  }

  /**
   * One call, tried again only under the `safe` policy: after a failure without an answer or a
   * server fault (backing off, or as `Retry-After` says), and after a 429 whose `Retry-After`
   * is within `maxRetryDelayMs`. A `once` call is never sent twice: its 429 is its answer.
   */
  private async call<Answer extends { success: boolean; code: ResultCode; message: string }>(
    path: string,
    policy: RetryPolicy,
    payload: Record<string, unknown>,
  ): Promise<Result<Answer>> {
    for (let attempt = 0; ; attempt += 1) {
      const isLastTry = policy === 'once' || attempt >= this.retries;
      let answer: Result<Answer>;
      try {
        answer = await this.exchange<Answer>(path, payload);
      } catch (error) {
        if (!(error instanceof TransportError) || isLastTry || error.reason === 'malformed') {
          throw error;
        }
        const delayMs =
          error.retryAfterSeconds !== null
            ? error.retryAfterSeconds * 1000
            : FIRST_RETRY_DELAY_MS * 2 ** attempt;
        if (delayMs > this.maxRetryDelayMs) throw error;
        await sleep(delayMs);
        continue;
      }
      const waitMs = (answer.retryAfterSeconds ?? Infinity) * 1000;
      if (answer.code !== 'RATE_LIMITED' || isLastTry || waitMs > this.maxRetryDelayMs) {
        return answer;
      }
      await sleep(waitMs);
    }
  }

  /** One request and its checked answer. */
  private async exchange<Answer>(
    path: string,
    payload: Record<string, unknown>,
  ): Promise<Result<Answer & { success: boolean; code: ResultCode; message: string }>> {
    const nonce = randomBytes(16).toString('hex');
    const response = await sendHttpRequest({
      url: new URL(`${this.baseUrl}${V1}${path}`),
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        'user-agent': 'latchkey-client-node',
        'x-api-key': this.apiKey,
        'x-request-nonce': nonce,
      },
      body: Buffer.from(JSON.stringify(payload), 'utf8'),
      timeoutMs: this.timeoutMs,
      proxy: this.proxy,
      maxBodyBytes: MAX_ANSWER_BYTES,
    });
    const retryAfterSeconds = retryAfterOf(response.headers['retry-after']);
    // A server fault is no outcome, signed or not (a proxy's error page is not): the caller
    // learns the server failed, and a safe call tries again.
    if (response.status >= 500) {
      throw new TransportError(
        'server-error',
        `The server failed (HTTP ${response.status})`,
        response.status,
        retryAfterSeconds,
      );
    }
    const refusal = checkAnswerSignature({
      publicKey: this.key,
      timestamp: headerOf(response.headers['x-signature-timestamp']),
      signature: headerOf(response.headers['x-signature-ed25519']),
      nonce,
      body: response.body,
      maxClockSkewSeconds: this.maxClockSkewSeconds,
    });
    if (refusal) throw new SignatureError(refusal, signatureRefusalMessages[refusal]);
    let data: unknown;
    try {
      data = JSON.parse(response.body.toString('utf8'));
    } catch {
      throw new TransportError('malformed', 'The answer is not JSON', response.status);
    }
    if (
      data === null ||
      typeof data !== 'object' ||
      typeof (data as { code?: unknown }).code !== 'string'
    ) {
      throw new TransportError('malformed', 'The answer has no code', response.status);
    }
    const answer = data as Answer & { success: unknown; code: ResultCode; message: unknown };
    const { entitlements, meters } = data as { entitlements?: unknown; meters?: unknown };
    return {
      ...answer,
      // The server leaves the meters out for a user without any: where the answer carries the
      // user's licensing (its entitlements), a program reads an empty list instead of nothing.
      ...(Array.isArray(entitlements) && meters === undefined ? { meters: [] } : {}),
      success: answer.success === true && answer.code === 'OK',
      message: typeof answer.message === 'string' ? answer.message : '',
      ...(answer.code === 'RATE_LIMITED' && retryAfterSeconds !== null
        ? { retryAfterSeconds }
        : {}),
    };
  }
}

const signatureRefusalMessages = {
  unsigned: 'The answer is not signed',
  signature: 'The answer’s signature does not hold for this application’s key and this request',
  nonce: 'The answer is signed for a request without this request’s nonce',
  stale: 'The answer was signed too far from this machine’s clock',
  digest: 'The download does not match its signed SHA-256',
} as const;

function headerOf(value: string | string[] | undefined): string | null {
  return typeof value === 'string' ? value : null;
}

function retryAfterOf(value: string | string[] | undefined): number | null {
  return typeof value === 'string' && /^\d{1,6}$/.test(value) ? Number(value) : null;
}

/**
 * Runs a program's callback so that its failure cannot become an unhandled rejection, which
 * could end the process.
 */
function reportSafely(callback: () => void): void {
  try {
    callback();
  } catch {
    // The program's own failure: nothing this library can do with it.
  }
}

const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms);
  });
