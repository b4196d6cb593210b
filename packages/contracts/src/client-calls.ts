import type { z } from 'zod';
import {
  clientAuthResponseSchema,
  clientDeviceResetRequestSchema,
  clientDeviceResetResponseSchema,
  clientForgotPasswordRequestSchema,
  clientLicenseCheckoutRequestSchema,
  clientLicenseCheckoutResponseSchema,
  clientLicenseLoginRequestSchema,
  clientLoginRequestSchema,
  clientMailResponseSchema,
  clientPublicKeyResponseSchema,
  clientRedeemRequestSchema,
  clientRegisterRequestSchema,
  clientResendVerificationRequestSchema,
  clientSessionRequestSchema,
  clientSessionResponseSchema,
  clientVerifyRequestSchema,
  clientVerifyResponseSchema,
} from './client-api.ts';
import { clientFileRequestSchema, clientFileResponseSchema } from './app-files.ts';
import {
  clientSetUserVariableRequestSchema,
  clientUserVariableRequestSchema,
  clientVariableRequestSchema,
  clientVariableResponseSchema,
} from './variables.ts';

/** One call of the client API as people read about it. */
export interface ClientCallEntry {
  method: 'GET' | 'POST';
  path: `/api/v1/${string}`;
  /** What the call does, in a sentence (the console's /docs reference). */
  summary: string;
  /** The body's schema; null for a call without one. */
  request: z.ZodType | null;
  /** The answer's schema (HTTP 200; refusals are answers too, with a `code`). */
  response: z.ZodType;
  /** Its inputs and purpose in one line (the code editor's seeded api-routes.ts). */
  brief: string;
}

/**
 * Every call of the client API, in the order people meet them: the server's table of client
 * calls is built on these entries (a test holds the two to the same calls), and the console's
 * /docs reference and the code editor's seeded document list them from here.
 */
export const clientCallCatalogue = {
  register: {
    method: 'POST',
    path: '/api/v1/register',
    summary: 'Creates an end user of the application the API key names.',
    request: clientRegisterRequestSchema,
    response: clientAuthResponseSchema,
    brief: 'username, password, email?, expiresAt?, hwid?',
  },
  login: {
    method: 'POST',
    path: '/api/v1/login',
    summary:
      'Checks the blacklist, the password, the account state, the version and the hardware ID, in that order; the first that fails answers.',
    request: clientLoginRequestSchema,
    response: clientAuthResponseSchema,
    brief: 'username, password, version, hwid?  (api_key may also go in the body)',
  },
  verify: {
    method: 'POST',
    path: '/api/v1/verify',
    summary:
      'Confirms that a user is still in good standing (exists, active, not paused, not expired).',
    request: clientVerifyRequestSchema,
    response: clientVerifyResponseSchema,
    brief: 'user_id: is the user in good standing now?',
  },
  trackSession: {
    method: 'POST',
    path: '/api/v1/session/track',
    summary:
      'Starts a session after a login, keeps it alive with heartbeats and ends it. One body per action.',
    request: clientSessionRequestSchema,
    response: clientSessionResponseSchema,
    brief: 'action start | heartbeat | end, session_token, user_id (start)',
  },
  redeemLicense: {
    method: 'POST',
    path: '/api/v1/license/redeem',
    summary:
      'Adds a licence key to an end user\u2019s account (username and password): it starts or extends the subscription of its plan.',
    request: clientRedeemRequestSchema,
    response: clientAuthResponseSchema,
    brief: 'username, password, license_key: add a key to the account',
  },
  logInWithLicense: {
    method: 'POST',
    path: '/api/v1/license/login',
    summary:
      'Logs in with a licence key alone: its first use creates the end user it stands for, later uses log that user in.',
    request: clientLicenseLoginRequestSchema,
    response: clientAuthResponseSchema,
    brief: 'license_key, version?, hwid?, device_name?: log in with a key alone',
  },
  checkOutLicense: {
    method: 'POST',
    path: '/api/v1/license/checkout',
    summary:
      'An offline licence for a live session: one signed line the program verifies without the network until it lapses.',
    request: clientLicenseCheckoutRequestSchema,
    response: clientLicenseCheckoutResponseSchema,
    brief: 'session_token, ttl_seconds?, encrypt?: an offline licence (LK1...)',
  },
  resetDevices: {
    method: 'POST',
    path: '/api/v1/devices/reset',
    summary:
      'Releases one of the end user\u2019s devices, or all of them, when the application allows self-service resets (once per cooldown).',
    request: clientDeviceResetRequestSchema,
    response: clientDeviceResetResponseSchema,
    brief: 'username, password, hwid | all: release a device (self-service)',
  },
  forgotPassword: {
    method: 'POST',
    path: '/api/v1/password/forgot',
    summary:
      'Mails a link to choose a new password (valid 30 minutes, usable once) to the account named by its username or e-mail address. The answer is the same whether or not the account exists.',
    request: clientForgotPasswordRequestSchema,
    response: clientMailResponseSchema,
    brief: 'username | email: mail a link to choose a new password',
  },
  resendVerification: {
    method: 'POST',
    path: '/api/v1/email/verify/resend',
    summary:
      'Mails a new link to confirm the account\u2019s e-mail address (valid 24 hours), for an application that requires verified addresses. The answer is the same whether or not the account exists, the password is right or the address is confirmed already.',
    request: clientResendVerificationRequestSchema,
    response: clientMailResponseSchema,
    brief: 'username, password: mail a new link to confirm the address',
  },
  readVariable: {
    method: 'POST',
    path: '/api/v1/var',
    summary:
      'Reads an application variable. One that requires a session (the default) needs a live session_token.',
    request: clientVariableRequestSchema,
    response: clientVariableResponseSchema,
    brief: 'name, session_token?: an application variable',
  },
  readUserVariable: {
    method: 'POST',
    path: '/api/v1/user-var',
    summary: 'Reads one of the session’s own end user’s variables.',
    request: clientUserVariableRequestSchema,
    response: clientVariableResponseSchema,
    brief: "name, session_token: a variable of the session's own user",
  },
  setUserVariable: {
    method: 'POST',
    path: '/api/v1/user-var/set',
    summary:
      'Creates or replaces one of the session’s own end user’s variables, unless it is read-only.',
    request: clientSetUserVariableRequestSchema,
    response: clientVariableResponseSchema,
    brief: 'name, value, session_token: write one (unless read-only)',
  },
  issueFileUrl: {
    method: 'POST',
    path: '/api/v1/file',
    summary:
      'A 5-minute download URL for one of the application\u2019s files, with its size and SHA-256; a live session unless the file needs none.',
    request: clientFileRequestSchema,
    response: clientFileResponseSchema,
    brief: 'file_id, session_token?: a 5-minute download URL, size and SHA-256',
  },
  publicKey: {
    method: 'GET',
    path: '/api/v1/public-key',
    summary: 'The server-wide Ed25519 key that signs answers to requests with no known API key.',
    request: null,
    response: clientPublicKeyResponseSchema,
    brief: 'the server-wide signing key (answers to unknown API keys)',
  },
} as const satisfies Record<string, ClientCallEntry>;
