import {
  clientCallCatalogue,
  endUserPasswordProblem,
  variableBodyLimitBytes,
  variableLimits,
  type ClientPublicKeyResponse,
} from '@latchkey/contracts';
import { borrowSeat } from './borrow-seat.ts';
import { checkOutLicense } from './check-out-license.ts';
import { returnSeat } from './return-seat.ts';
import { invalidRequest } from './client-api-error.ts';
import { clientCall, openClientCall, type ClientCallDefinition } from './client-call-definition.ts';
import type { ClientCallServices } from './client-call-services.ts';
import type { ClientCaller } from './client-caller.ts';
import type { ClientContext } from './client-context.ts';
import { issueFileUrl } from './issue-file-url.ts';
import { logInEndUser } from './log-in-end-user.ts';
import { logInWithLicense } from './log-in-with-license.ts';
import { readApplicationVariable } from './read-application-variable.ts';
import { readOwnUserVariable } from './read-own-user-variable.ts';
import { redeemLicense } from './redeem-license.ts';
import { registerEndUser } from './register-end-user.ts';
import { resendVerification } from './resend-verification.ts';
import { resetOwnDevices } from './reset-own-devices.ts';
import { setOwnUserVariable } from './set-own-user-variable.ts';
import { startTrial } from './start-trial.ts';
import { useOwnMeter } from './use-own-meter.ts';
import { trackClientSession } from './track-client-session.ts';
import { verifyEndUser } from './verify-end-user.ts';
import { requestPasswordReset } from './request-password-reset.ts';

/** A verb that needs nothing but the client context, as a call's `answer`. */
const withContext =
  <Input, Answer extends object>(
    verb: (args: { ctx: ClientContext; input: Input }) => Promise<Answer>,
  ) =>
  (input: Input, caller: ClientCaller, services: ClientCallServices): Promise<Answer> =>
    verb({ ctx: services.contextOf(caller), input });

/**
 * The client API, /api/v1: every call a vendor's program makes, each on its entry of the
 * contracts' catalogue (method, path, schemas) with its OpenAPI text and its verb. The
 * pipeline (client-call-pipeline.ts) registers each one and the lean path answers those marked
 * `isLean`; the OpenAPI document, the answer checks and the test suites read this table.
 */
export const clientCalls: readonly ClientCallDefinition[] = [
  openClientCall(clientCallCatalogue.publicKey, {
    docs: {
      summary: 'The server-wide signing key',
      description:
        'Answers to requests whose API key names no application are signed with this key; every other answer with the application\u2019s own key (shown on its page).',
    },
    answer: (services): ClientPublicKeyResponse => ({
      success: true,
      public_key: services.serverPublicKeyHex,
    }),
  }),
  clientCall(clientCallCatalogue.register, {
    docs: {
      summary: 'Register an end user',
      description:
        'Where the application requires verified addresses, `email` is required and a link to confirm it is mailed; login answers EMAIL_NOT_VERIFIED until it is followed.',
      answered: 'Registered (success true) or refused (success false and a code).',
    },
    async answer(input, caller, services) {
      const passwordProblem = endUserPasswordProblem(
        input.password,
        services.endUserPasswordMinLength,
      );
      if (passwordProblem) throw invalidRequest(`password: ${passwordProblem}`);
      const { mail } = services.mailContextOf(caller);
      return registerEndUser({ ctx: { ...services.licenseContextOf(caller), mail }, input });
    },
  }),
  clientCall(clientCallCatalogue.login, {
    docs: {
      summary: 'Log an end user in',
      description: 'The API key may come as `api_key` in the body instead of the X-API-Key header.',
      answered: 'Logged in (success true, a session token) or refused (success false and a code).',
    },
    bodyApiKey: (input) => input.api_key,
    answer: (input, caller, services) =>
      logInEndUser({ ctx: services.loginContextOf(caller), input }),
  }),
  clientCall(clientCallCatalogue.resetDevices, {
    docs: {
      summary: 'Release one of the end user\u2019s devices, or all (self-service)',
      description:
        'Needs the username and password, and `hwid` (the device to release) or `all: true`. Checked like a login, with the same throttles. Answers RESET_NOT_ALLOWED when the application does not allow self-service resets, RESET_COOLDOWN (with `next_reset_at`) within the cooldown, DEVICE_NOT_FOUND for a hwid the user does not have. The released devices\u2019 sessions end.',
      answered: 'Released, or refused.',
    },
    answer: (input, caller, services) =>
      resetOwnDevices({ ctx: services.loginContextOf(caller), input }),
  }),
  clientCall(clientCallCatalogue.redeemLicense, {
    docs: {
      summary: 'Add a licence key to an end user\u2019s account',
      description:
        'Needs the username and password. The key extends (or starts) the subscription of its plan, from the later of now and its current expiry. Refused keys answer LICENSE_INVALID, LICENSE_USED, LICENSE_BANNED or LICENSE_EXPIRED and count against the licence throttles.',
      answered: 'Redeemed (with the user\u2019s entitlements and subscriptions) or refused.',
    },
    answer: (input, caller, services) =>
      redeemLicense({
        ctx: {
          ...services.licenseContextOf(caller),
          loginThrottles: services.loginThrottles,
          statements: services.statements,
          redeemForClient: services.redeemForClient,
        },
        input,
      }),
  }),
  clientCall(clientCallCatalogue.logInWithLicense, {
    docs: {
      summary: 'Log in with a licence key alone',
      description:
        'The first use creates an end user named `key-<licence id>` and redeems the key; later uses log that user in. The checks and the answer of a login follow.',
      answered: 'Logged in (success true, a session token) or refused (success false and a code).',
    },
    answer: (input, caller, services) =>
      logInWithLicense({
        ctx: {
          ...services.licenseContextOf(caller),
          statements: services.statements,
          sessions: services.sessions,
        },
        input,
      }),
  }),
  clientCall(clientCallCatalogue.startTrial, {
    docs: {
      summary: 'Start or resume this machine\u2019s trial',
      description:
        'Once per machine (`hwid`) of the application: the first call creates a trial account (named `username`, else `trial-<random>`) that expires after the application\u2019s `trialDays`, holding its trial entitlements until then; every later call from the machine, whatever name it sends, logs that account in. TRIAL_UNAVAILABLE when the application offers no trial, TRIAL_EXPIRED (with `expires_at`) once the trial has ended, TRIAL_USED when the machine\u2019s trial account was deleted. The checks and the answer of a login follow.',
      answered: 'Logged in (success true, a session token) or refused (success false and a code).',
    },
    answer: (input, caller, services) =>
      startTrial({
        ctx: {
          ...services.licenseContextOf(caller),
          statements: services.statements,
          sessions: services.sessions,
        },
        input,
      }),
  }),
  clientCall(clientCallCatalogue.borrowSeat, {
    docs: {
      summary: 'Borrow the session\u2019s floating seat for some days',
      description:
        'Needs the `session_token` of a live session whose user holds a floating plan allowing `days` of borrowing (`maxBorrowDays`), else BORROW_NOT_ALLOWED. Answers an offline licence as license/checkout does, lasting the borrow (and no longer than what it grants); the seat stays taken until then, even after the session ends, unless session/return gives it back. SESSION_INVALID when the session\u2019s login holds no seat (it lapsed, or the owner freed it).',
      answered: 'Borrowed (success true, the licence and valid_until) or refused.',
    },
    answer: withContext(borrowSeat),
  }),
  clientCall(clientCallCatalogue.returnSeat, {
    docs: {
      summary: 'Give a borrowed seat back early',
      description:
        'The login whose `session_token` borrowed it gives the seat back: another computer may take it. If that session is still open the seat becomes an ordinary lease its heartbeats renew. SESSION_INVALID when it has no borrowed seat. The licence already issued cannot be recalled: discard it.',
      answered: 'Given back (success true) or refused.',
    },
    answer: withContext(returnSeat),
  }),
  clientCall(clientCallCatalogue.checkOutLicense, {
    docs: {
      summary: 'Take an offline licence for a live session',
      description:
        'Needs the `session_token` of a started, unended session whose user is in good standing. `ttl_seconds` (default 7 days) runs from an hour to the application\u2019s `maxOfflineDays` (else 400). The answer\u2019s `license` is `LK1.<payload>.<signature>` (or `LK1E.` with `encrypt: true`, AES-256-GCM under a key derived from the session\u2019s HWID), signed by the application\u2019s key over a domain-separated message; `valid_until` is the earliest of issue + TTL, the account\u2019s expiry and the expiries its entitlements depend on. HWID_REQUIRED when the licence must be bound (encrypt, or HWID lock) and the session has no HWID. A licence cannot be recalled once issued. docs/client-api.md has the format and its verification.',
      answered:
        'Issued (success true, the licence and valid_until) or refused (success false and a code).',
    },
    answer: withContext(checkOutLicense),
  }),
  clientCall(clientCallCatalogue.forgotPassword, {
    docs: {
      summary: 'Mail a link to choose a new password',
      description:
        'The answer is the same whether or not the account exists or has an address (no enumeration). Throttled per client address (429), and per named account and per application (past those, no mail goes out and the answer stays the same). MAIL_UNAVAILABLE when the server sends no mail.',
      answered: 'Asked (success true), or the server sends no mail (MAIL_UNAVAILABLE).',
    },
    answer: (input, caller, services) =>
      requestPasswordReset({ ctx: services.mailContextOf(caller), input }),
  }),
  clientCall(clientCallCatalogue.resendVerification, {
    docs: {
      summary: 'Mail a new link to confirm the account\u2019s address',
      description:
        'Needs the username and password. The answer is the same whether or not the account exists, the password is right, or its address is confirmed already (no enumeration). Throttled like password/forgot: per client address (429), per account and per application (silently). MAIL_UNAVAILABLE when the server sends no mail.',
      answered: 'Asked (success true), or the server sends no mail (MAIL_UNAVAILABLE).',
    },
    answer: (input, caller, services) =>
      resendVerification({ ctx: services.mailContextOf(caller), input }),
  }),
  clientCall(clientCallCatalogue.readVariable, {
    docs: {
      summary: 'Read an application variable',
      description:
        'Answers the variable\u2019s `value` in the signed body. A variable that requires a session (the default) needs the `session_token` of a started, unended session whose user is in good standing, else SESSION_INVALID (or the standing\u2019s code). An unknown name answers VARIABLE_NOT_FOUND. Never cached: an owner\u2019s change is the next answer.',
      answered: 'The value (success true) or a refusal.',
    },
    answer: withContext(readApplicationVariable),
  }),
  clientCall(clientCallCatalogue.readUserVariable, {
    docs: {
      summary: 'Read one of the session\u2019s end user\u2019s own variables',
      description:
        'Needs a live `session_token`; the user is the session\u2019s. Answers `value` and `read_only`; VARIABLE_NOT_FOUND for a name the user does not hold.',
      answered: 'The value (success true) or a refusal.',
    },
    answer: withContext(readOwnUserVariable),
  }),
  clientCall(clientCallCatalogue.setUserVariable, {
    docs: {
      summary: 'Create or replace one of the session\u2019s end user\u2019s own variables',
      description:
        'Needs a live `session_token`. VARIABLE_READ_ONLY when the vendor made it read-only; VARIABLE_LIMIT_REACHED for a new name when the user already holds 100. A value over 16 KB (UTF-8) is a 400.',
      answered: 'Saved (success true, the value) or refused.',
    },
    // A 16 KB value can need more than the default body limit once JSON-escaped.
    bodyLimit: variableBodyLimitBytes(variableLimits.userValueBytes),
    answer: withContext(setOwnUserVariable),
  }),
  clientCall(clientCallCatalogue.useMeter, {
    docs: {
      summary: 'Count use of a usage meter of the session\u2019s end user',
      description:
        'Needs a live `session_token`. Counts `amount` (1 unless sent) against the meter `name` that the user\u2019s active subscriptions define (their allowances added up when several define it). A refusing meter answers METER_EXHAUSTED when the amount would pass its allowance for the period, counting nothing; a counting meter counts it as overage. Periods follow the UTC calendar and reset with no job. Send an `idempotency_key` (a UUID per increment) and a retry within 24 hours counts once, answered as the first time with `replayed: true`; the same key with another meter or amount is a 400. METER_NOT_FOUND when no active subscription has the meter.',
      answered:
        'Counted (success true) or refused (METER_EXHAUSTED, METER_NOT_FOUND or the session\u2019s code), with where the meter stands.',
    },
    answer: (input, caller, services) =>
      useOwnMeter({
        ctx: { ...services.licenseContextOf(caller), countMeterUse: services.countMeterUse },
        input,
      }),
  }),
  clientCall(clientCallCatalogue.issueFileUrl, {
    docs: {
      summary: 'A short-lived download URL for one of the application’s files',
      description:
        'Needs the `session_token` of a started, unended session whose user is in good standing, unless the file was uploaded with `requiresSession=false`. Answers FILE_NOT_FOUND for an unknown file, another application’s or an upload in progress. The `url` needs no API key, serves the bytes (with Range) as often as asked until `expires_at` (5 minutes), and is bound to this file; check the downloaded bytes against `sha256`. Each URL issued counts one download.',
      answered:
        'Issued (success true, url, size, sha256, expires_at) or refused (success false and a code).',
    },
    answer: (input, caller, services) =>
      issueFileUrl({
        ctx: {
          ...services.contextOf(caller),
          serverSecret: services.serverSecret,
          // Through the proxy the client reached us by, unless the deployment names its origin.
          downloadOrigin:
            services.publicOrigin ?? `${caller.request.protocol}://${caller.request.host}`,
        },
        input,
      }),
  }),
  clientCall(clientCallCatalogue.verify, {
    docs: {
      summary: 'Check that an end user may still use the program',
      answered: 'Still valid (success true) or not (success false and a code).',
    },
    isLean: true,
    answer: (input, caller, services) =>
      verifyEndUser({
        ctx: { ...services.contextOf(caller), userStanding: services.userStanding },
        input: { userId: input.user_id, entitlements: input.entitlements },
      }),
  }),
  clientCall(clientCallCatalogue.trackSession, {
    docs: {
      summary: 'Start, keep alive (heartbeat every 30 s) or end a session',
      answered: 'Done (success true) or refused (success false and a code).',
    },
    isLean: true,
    answer: (input, caller, services) =>
      trackClientSession({
        ctx: { ...services.contextOf(caller), sessions: services.sessions },
        input,
      }),
  }),
];
