import type {
  PortalAccount,
  PortalEmailVerified,
  PortalEmailVerifyRequest,
  PortalInfo,
  PortalPasswordRequest,
  PortalPasswordResetRequest,
  PortalForgotPasswordRequest,
  PortalOfflineActivation,
  PortalOfflineActivationRequest,
  PortalRedeemRequest,
  PortalSignInRequest,
} from '@latchkey/contracts';
import { asSentence, waitText } from './format.ts';

/**
 * A refused or failed call. `message` is for the reader: the server writes its error messages
 * for the end user; what this page adds (a lost connection, a wait) is worded the same way.
 */
export class PortalApiError extends Error {
  readonly status: number;
  readonly code: string | null;
  readonly retryAfterSeconds: number | null;

  constructor(
    status: number,
    message: string,
    code: string | null = null,
    retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.name = 'PortalApiError';
    this.status = status;
    this.code = code;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /** 401: no session, or it ended (expired, signed out elsewhere, account paused). */
  get isSessionEnded(): boolean {
    return this.status === 401;
  }
}

export const CONNECTION_FAILED =
  'Could not reach the server: please check your connection and try again.';

/** What to show for an error: the server's message, with the wait when throttled. */
export function errorText(error: unknown): string {
  if (!(error instanceof PortalApiError)) return 'Something went wrong: please try again.';
  if (error.status === 429)
    return `${asSentence(error.message)} ${waitText(error.retryAfterSeconds ?? 60)}`;
  return error.message;
}

export interface PortalApi {
  info(): Promise<PortalInfo>;
  account(): Promise<PortalAccount>;
  signIn(input: PortalSignInRequest): Promise<PortalAccount>;
  signOut(): Promise<void>;
  releaseDevice(deviceId: string): Promise<PortalAccount>;
  redeem(input: PortalRedeemRequest): Promise<PortalAccount>;
  /** An air-gapped machine's activation request in, its offline licence out. */
  activateOffline(input: PortalOfflineActivationRequest): Promise<PortalOfflineActivation>;
  changePassword(input: PortalPasswordRequest): Promise<void>;
  /** A mailed link's new password: works with the portal's sign-in off. */
  resetPassword(input: PortalPasswordResetRequest): Promise<void>;
  /** "Forgot password?": answers the server's message (the same whoever asked). */
  forgotPassword(input: PortalForgotPasswordRequest): Promise<{ message: string }>;
  /** A mailed link's confirmation of an address: works with the portal's sign-in off. */
  verifyEmail(input: PortalEmailVerifyRequest): Promise<PortalEmailVerified>;
  /** An expiry reminder's stop link: works with the portal's sign-in off. */
  stopReminders(link: StopRemindersLink): Promise<void>;
}

/** Whose reminders a stop link names, and the proof it carries, as the link has them. */
export interface StopRemindersLink {
  user: string;
  token: string;
}

/**
 * The portal's API, `/api/portal/:publicId/…`. The session is the HttpOnly cookie the server
 * sets (this script never sees it); same-origin fetch sends the page's Origin, which the
 * server requires on every change.
 */
export function createPortalApi(publicId: string, fetchImpl: typeof fetch = fetch): PortalApi {
  const base = `/api/portal/${encodeURIComponent(publicId)}`;

  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetchImpl(`${base}${path}`, {
        method,
        credentials: 'same-origin',
        cache: 'no-store',
        headers: {
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch {
      throw new PortalApiError(0, CONNECTION_FAILED);
    }
    if (response.ok) {
      return (response.status === 204 ? undefined : await response.json()) as T;
    }
    throw await errorOf(response);
  }

  return {
    info: () => call('GET', ''),
    account: () => call('GET', '/account'),
    signIn: (input) => call('POST', '/session', input),
    signOut: () => call('DELETE', '/session'),
    releaseDevice: (deviceId) => call('DELETE', `/devices/${encodeURIComponent(deviceId)}`),
    redeem: (input) => call('POST', '/redeem', input),
    activateOffline: (input) => call('POST', '/offline-activation', input),
    changePassword: (input) => call('POST', '/password', input),
    resetPassword: (input) => call('POST', '/password/reset', input),
    forgotPassword: (input) => call('POST', '/password/forgot', input),
    verifyEmail: (input) => call('POST', '/email/verify', input),
    // In the query, not a body: the same address a mail program posts to for a one-click
    // unsubscribe.
    stopReminders: ({ user, token }) =>
      call('POST', `/reminders/stop?${new URLSearchParams({ user, token }).toString()}`),
  };
}

async function errorOf(response: Response): Promise<PortalApiError> {
  let message = `Something went wrong (HTTP ${response.status}): please try again.`;
  let code: string | null = null;
  try {
    const body: unknown = await response.json();
    if (body && typeof body === 'object') {
      const fields = body as { message?: unknown; code?: unknown };
      if (typeof fields.message === 'string' && fields.message.trim()) message = fields.message;
      if (typeof fields.code === 'string') code = fields.code;
    }
  } catch {
    // Not JSON (a proxy's error page, say): the generic message stands.
  }
  const retryAfter = Number(response.headers.get('retry-after'));
  return new PortalApiError(
    response.status,
    message,
    code,
    Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
  );
}
