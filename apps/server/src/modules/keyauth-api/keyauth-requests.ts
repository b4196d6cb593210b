import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import {
  clientForgotPasswordRequestSchema,
  clientLicenseLoginRequestSchema,
  clientLoginRequestSchema,
  clientRedeemRequestSchema,
  clientRegisterRequestSchema,
  clientSetUserVariableRequestSchema,
  clientUserVariableRequestSchema,
  clientVariableRequestSchema,
  endUserPasswordProblem,
  keyauthLimits,
  keyauthUnsupportedTypes,
  type ClientAuthResponse,
  type KeyauthRequestType,
} from '@latchkey/contracts';
import { appFiles, appUsers } from '../../db/schema/index.ts';
import { isUniqueViolation } from '../../lib/database-errors.ts';
import {
  issueFileUrl,
  logInEndUser,
  logInWithLicense,
  readApplicationVariable,
  readOwnUserVariable,
  redeemLicense,
  registerEndUser,
  requestPasswordReset,
  setOwnUserVariable,
  trackClientSession,
  type ClientCaller,
  type ClientCallServices,
  type ClientOutcome,
} from '../client-api/index.ts';
import type { FileStorage } from '../files/index.ts';
import { banOwnUser } from './ban-own-user.ts';
import { readKeyauthAppInfo, readOnlineNames, type AppInfoCache } from './keyauth-app-info.ts';
import { userInfoOf } from './keyauth-user-info.ts';
import type { FoundKeyauthSession, KeyauthSessionStore } from './keyauth-sessions.ts';

/** An answer before the route adds `ownerid`, `nonce` and `code`: KeyAuth's own shape. */
export type KeyauthAnswer = { success: boolean; message: string } & Record<string, unknown>;

/** KeyAuth's own texts where its clients or vendors' programs may compare them. */
export const keyauthMessages = {
  initialized: 'Initialized',
  invalidVersion: 'invalidver',
  sessionNotFound: 'Session not found. Call init first, or it expired.',
  sessionUnauthed: 'Session is not validated. Log in first.',
  sessionValidated: 'Session is validated.',
  loggedOut: 'Successfully logged out.',
  logoutFailed: 'Failed to logout.',
  upgraded: 'Upgraded successfully',
  usernameChanged: 'Successfully changed username, user logged out.',
  usernameTaken: 'Username already used!',
  variableRetrieved: 'Successfully retrieved variable',
  variableSet: 'Successfully set variable',
  blacklisted: 'Client is blacklisted',
  notBlacklisted: 'Client is not blacklisted',
  banned: 'Successfully Banned User',
  logged: 'Logged',
  fileDownloaded: 'File download successful',
  statsFetched: 'Successfully fetched stats.',
  onlineFetched: 'Successfully fetched online users.',
  noneOnline: 'No online users found!',
  resetMailed: 'Successfully sent email to change password.',
  unknownType: 'The value inputted for type paramater was not found',
} as const;

export const fileTooLargeMessage = (fileId: string) =>
  `This file is larger than ${keyauthLimits.maxInlineFileBytes / (1024 * 1024)} MB: download it through Latchkey's v1 API (POST /api/v1/file with file_id ${fileId}).`;

export const unsupportedTypeMessage = (type: string) =>
  `Latchkey does not offer KeyAuth's "${type}" request (chat, the webhook proxy and two-factor sign-in are not part of it); see "Moving from KeyAuth" in the docs.`;

/** What every request handler is given. */
export interface KeyauthRequest {
  fields: Record<string, string>;
  caller: ClientCaller;
  services: ClientCallServices;
  /** The session the request names, when it names a live one. */
  session: FoundKeyauthSession | null;
  /** The session came from this instance's memory (`check`): a refusal is checked again. */
  isSessionRemembered: boolean;
  sessionId: string;
  sessions: KeyauthSessionStore;
  storage: FileStorage;
  appInfo: AppInfoCache;
  /** The application's KeyAuth session lifetime. */
  sessionHours: number;
  /** Where the client reached us, for download links. */
  origin: string;
}

const failure = (message: string): KeyauthAnswer => ({ success: false, message });
const fromOutcome = (outcome: ClientOutcome): KeyauthAnswer => failure(outcome.message);

/** A HWID as the rules see it: KeyAuth's Python client on Linux sends /etc/machine-id with its newline. */
const hwidOf = (fields: Record<string, string>): string | null => fields.hwid?.trim() || null;

/** The v1 schema's parse of what the KeyAuth fields map to: its refusals read as v1's. */
function parsed<Schema extends z.ZodType>(
  schema: Schema,
  input: Record<string, unknown>,
): { value: z.output<Schema>; refused?: never } | { refused: KeyauthAnswer } {
  const result = schema.safeParse(input);
  if (result.success) return { value: result.data };
  const issue = result.error.issues[0]!;
  const path = issue.path.join('.');
  return {
    refused: failure(
      path && !issue.message.startsWith(path) ? `${path}: ${issue.message}` : issue.message,
    ),
  };
}

type Handler = (request: KeyauthRequest) => Promise<KeyauthAnswer>;

/** The request types that need a session that a login validated. */
const needsValidatedSession = new Set<KeyauthRequestType>([
  'check',
  'getvar',
  'setvar',
  'ban',
  'changeUsername',
]);

/** The request types that need a session at all (every one but init and the unknown). */
export const typeNeedsSession = (type: KeyauthRequestType) => type !== 'init';

/**
 * After a successful login, register or key login: the client session it proved starts
 * (v1's session/track start, with its rules: the session limit ends the oldest), and the KeyAuth
 * session is bound to it. A KeyAuth session holds one client session: a second login on it
 * ends the first one's.
 */
async function startBoundSession(
  request: KeyauthRequest,
  answer: ClientAuthResponse,
): Promise<KeyauthAnswer> {
  const { caller, services, session } = request;
  const ctx = { ...services.contextOf(caller), sessions: services.sessions };
  if (session?.sessionToken) {
    await trackClientSession({
      ctx,
      input: { action: 'end', session_token: session.sessionToken },
    });
  }
  const started = await trackClientSession({
    ctx,
    input: {
      action: 'start',
      user_id: answer.user_id!,
      session_token: answer.session_token!,
      hwid: null,
    },
  });
  if (!started.success) return fromOutcome(started);
  await request.sessions.bind(session!.idDigest, answer.user_id!, answer.session_token!);
  return {
    success: true,
    message: answer.message,
    info: await userInfoOf(services.contextOf(caller), answer.user_id!),
  };
}

/** The live client session behind a validated KeyAuth session, through v1's heartbeat. */
async function keepAlive(request: KeyauthRequest): Promise<ClientOutcome> {
  const { caller, services, session } = request;
  return trackClientSession({
    ctx: { ...services.contextOf(caller), sessions: services.sessions },
    input: { action: 'heartbeat', session_token: session!.sessionToken! },
  });
}

const handlers: Record<KeyauthRequestType, Handler> = {
  // Answered by the route itself: it opens the session before there is one.
  init: () => Promise.reject(new Error('init is answered by the route')),

  async register(request) {
    const { fields, caller, services } = request;
    const input = parsed(clientRegisterRequestSchema, {
      username: fields.username,
      password: fields.pass,
      email: fields.email,
      hwid: hwidOf(fields),
      license_key: fields.key || null,
    });
    if (input.refused) return input.refused;
    const passwordProblem = endUserPasswordProblem(
      input.value.password,
      services.endUserPasswordMinLength,
    );
    if (passwordProblem) return failure(passwordProblem);
    const { mail } = services.mailContextOf(caller);
    const registered = await registerEndUser({
      ctx: { ...services.licenseContextOf(caller), mail },
      input: input.value,
    });
    if (!registered.success) return fromOutcome(registered);
    // KeyAuth's register also logs the new user in on the same session.
    return handlers.login({
      ...request,
      fields: {
        username: input.value.username,
        pass: input.value.password,
        hwid: fields.hwid ?? '',
      },
    });
  },

  async login(request) {
    const { fields, caller, services } = request;
    const input = parsed(clientLoginRequestSchema, {
      username: fields.username,
      password: fields.pass,
      hwid: hwidOf(fields),
      // The version was checked by init, as KeyAuth does: login carries none.
      version: caller.application.version,
    });
    if (input.refused) return input.refused;
    const answer = await logInEndUser({ ctx: services.loginContextOf(caller), input: input.value });
    if (!answer.success) return fromOutcome(answer);
    return startBoundSession(request, answer);
  },

  async license(request) {
    const { fields, caller, services } = request;
    const input = parsed(clientLicenseLoginRequestSchema, {
      license_key: fields.key,
      hwid: hwidOf(fields),
      version: caller.application.version,
    });
    if (input.refused) return input.refused;
    const answer = await logInWithLicense({
      ctx: {
        ...services.licenseContextOf(caller),
        statements: services.statements,
        sessions: services.sessions,
      },
      input: input.value,
    });
    if (!answer.success) return fromOutcome(answer);
    return startBoundSession(request, answer);
  },

  async upgrade({ fields, caller, services }) {
    const input = parsed(clientRedeemRequestSchema.omit({ password: true }), {
      username: fields.username,
      license_key: fields.key,
    });
    if (input.refused) return input.refused;
    const answer = await redeemLicense({
      ctx: {
        ...services.licenseContextOf(caller),
        loginThrottles: services.loginThrottles,
        statements: services.statements,
        redeemForClient: services.redeemForClient,
      },
      input: { ...input.value, password: null },
    });
    if (!answer.success) return fromOutcome(answer);
    return { success: true, message: keyauthMessages.upgraded };
  },

  async check(request) {
    let alive = await keepAlive(request);
    if (!alive.success && request.isSessionRemembered) {
      // The remembered binding may name a client session a newer login replaced.
      request.sessions.forget(request.session!.idDigest);
      const session = await request.sessions.find(
        request.caller.application.id,
        request.sessionId,
        request.services.contextOf(request.caller).clock.now(),
      );
      if (!session?.sessionToken) return failure(keyauthMessages.sessionUnauthed);
      alive = await keepAlive({ ...request, session, isSessionRemembered: false });
    }
    if (!alive.success) return fromOutcome(alive);
    return { success: true, message: keyauthMessages.sessionValidated };
  },

  async logout(request) {
    const { caller, services, session } = request;
    if (session!.sessionToken) {
      await trackClientSession({
        ctx: { ...services.contextOf(caller), sessions: services.sessions },
        input: { action: 'end', session_token: session!.sessionToken },
      });
    }
    const isClosed = await request.sessions.unbind(session!.idDigest);
    return isClosed
      ? { success: true, message: keyauthMessages.loggedOut }
      : failure(keyauthMessages.logoutFailed);
  },

  async changeUsername(request) {
    const { fields, caller, services, session } = request;
    const alive = await keepAlive(request);
    if (!alive.success) return fromOutcome(alive);
    const input = parsed(clientLoginRequestSchema.pick({ username: true }), {
      username: fields.newUsername,
    });
    if (input.refused) return input.refused;
    const ctx = services.contextOf(caller);
    try {
      await ctx.db
        .update(appUsers)
        .set({ username: input.value.username, updatedAt: ctx.clock.now() })
        .where(
          and(
            eq(appUsers.id, session!.appUserId!),
            eq(appUsers.applicationId, caller.application.id),
          ),
        );
    } catch (error) {
      if (isUniqueViolation(error, 'app_users_application_username_idx')) {
        return failure(keyauthMessages.usernameTaken);
      }
      throw error;
    }
    // KeyAuth ends the session that changed the name: the program logs in again with it.
    await handlers.logout(request);
    return { success: true, message: keyauthMessages.usernameChanged };
  },

  async var({ fields, caller, services, session }) {
    const input = parsed(clientVariableRequestSchema, {
      name: fields.varid,
      session_token: session?.sessionToken ?? null,
    });
    if (input.refused) return input.refused;
    const answer = await readApplicationVariable({
      ctx: services.contextOf(caller),
      input: input.value,
    });
    if (!answer.success) return fromOutcome(answer);
    // KeyAuth answers an application variable's value as the message.
    return { success: true, message: answer.value ?? '' };
  },

  async getvar({ fields, caller, services, session }) {
    const input = parsed(clientUserVariableRequestSchema, {
      name: fields.var,
      session_token: session!.sessionToken,
    });
    if (input.refused) return input.refused;
    const answer = await readOwnUserVariable({
      ctx: services.contextOf(caller),
      input: input.value,
    });
    if (!answer.success) return fromOutcome(answer);
    return {
      success: true,
      message: keyauthMessages.variableRetrieved,
      response: answer.value ?? '',
    };
  },

  async setvar({ fields, caller, services, session }) {
    const input = parsed(clientSetUserVariableRequestSchema, {
      name: fields.var,
      value: fields.data,
      session_token: session!.sessionToken,
    });
    if (input.refused) return input.refused;
    const answer = await setOwnUserVariable({
      ctx: services.contextOf(caller),
      input: input.value,
    });
    if (!answer.success) return fromOutcome(answer);
    return { success: true, message: keyauthMessages.variableSet };
  },

  async checkblacklist({ fields, caller, services }) {
    const ctx = services.contextOf(caller);
    const blocked = await ctx.blacklist.find({
      ownerAccountId: caller.application.ownerAccountId,
      applicationId: caller.application.id,
      ipAddress: caller.ipAddress,
      username: '',
      email: null,
      hwid: hwidOf(fields),
    });
    // KeyAuth's inverted answer: success means the client is blacklisted.
    return blocked
      ? { success: true, message: keyauthMessages.blacklisted }
      : failure(keyauthMessages.notBlacklisted);
  },

  async ban(request) {
    const { fields, caller, services, session } = request;
    const alive = await keepAlive(request);
    if (!alive.success) return fromOutcome(alive);
    const reason =
      (fields.reason ?? '').trim() || 'User banned from triggering ban function in the client';
    if (reason.length > keyauthLimits.banReason) {
      return failure(`Reason must be ${keyauthLimits.banReason} characters or less`);
    }
    await banOwnUser({
      ctx: { ...services.licenseContextOf(caller), sessions: services.sessions },
      input: { appUserId: session!.appUserId!, reason, hwid: hwidOf(fields) },
    });
    return { success: true, message: keyauthMessages.banned };
  },

  async log({ fields, caller, services, session }) {
    const message = (fields.message ?? '').slice(0, keyauthLimits.logMessage);
    if (!message) return failure('Message can\u2019t be blank');
    const ctx = services.contextOf(caller);
    const user = session?.appUserId
      ? (
          await ctx.db
            .select({ username: appUsers.username })
            .from(appUsers)
            .where(eq(appUsers.id, session.appUserId))
        )[0]
      : undefined;
    await ctx.activity.recordActivity({
      applicationId: caller.application.id,
      appUserId: user ? session!.appUserId : null,
      username: user?.username ?? null,
      event: 'client_log',
      success: true,
      ipAddress: caller.ipAddress,
      errorMessage: null,
      metadata: { message, pcuser: (fields.pcuser ?? '').slice(0, 100) || null },
      createdAt: ctx.clock.now(),
    });
    return { success: true, message: keyauthMessages.logged };
  },

  async file({ fields, caller, services, session, storage, origin }) {
    const fileId = fields.fileid ?? '';
    const issued = await issueFileUrl({
      ctx: {
        ...services.contextOf(caller),
        serverSecret: services.serverSecret,
        downloadOrigin: origin,
      },
      input: { file_id: fileId.slice(0, 64), session_token: session?.sessionToken ?? null },
    });
    if (!issued.success) return fromOutcome(issued);
    if (issued.size! > keyauthLimits.maxInlineFileBytes)
      return failure(fileTooLargeMessage(fileId));
    const chunks: Buffer[] = [];
    const [file] = await services
      .contextOf(caller)
      .db.select({ chunkSizeBytes: appFiles.chunkSizeBytes })
      .from(appFiles)
      .where(eq(appFiles.id, fileId.toLowerCase()));
    const chunkSizeBytes = file?.chunkSizeBytes ?? 0;
    if (issued.size! > 0 && chunkSizeBytes > 0) {
      for await (const chunk of storage.readRange({
        fileId: fileId.toLowerCase(),
        chunkSizeBytes,
        start: 0,
        end: issued.size! - 1,
      })) {
        chunks.push(chunk as Buffer);
      }
    }
    return {
      success: true,
      message: keyauthMessages.fileDownloaded,
      contents: Buffer.concat(chunks).toString('hex'),
    };
  },

  async fetchStats({ caller, services, appInfo, origin }) {
    return {
      success: true,
      message: keyauthMessages.statsFetched,
      appinfo: await readKeyauthAppInfo({ ...services.contextOf(caller), origin }, appInfo),
    };
  },

  async fetchOnline({ caller, services }) {
    const names = await readOnlineNames(services.contextOf(caller));
    if (names.length === 0) return failure(keyauthMessages.noneOnline);
    return {
      success: true,
      message: keyauthMessages.onlineFetched,
      users: names.map((credential) => ({ credential })),
    };
  },

  async forgot({ fields, caller, services }) {
    const input = parsed(clientForgotPasswordRequestSchema, {
      username: fields.username,
      email: null,
    });
    if (input.refused) return input.refused;
    const answer = await requestPasswordReset({
      ctx: services.mailContextOf(caller),
      input: input.value,
    });
    if (!answer.success) return fromOutcome(answer);
    // The same answer whether or not the account exists or the address matches (KeyAuth tells).
    return { success: true, message: keyauthMessages.resetMailed };
  },
};

/** Runs one request type, after the route has found its application and session. */
export async function answerKeyauthRequest(
  type: string,
  request: KeyauthRequest,
): Promise<KeyauthAnswer> {
  if ((keyauthUnsupportedTypes as readonly string[]).includes(type)) {
    return failure(unsupportedTypeMessage(type));
  }
  if (!Object.hasOwn(handlers, type) || type === 'init')
    return failure(keyauthMessages.unknownType);
  const known = type as KeyauthRequestType;
  if (!request.session) return failure(keyauthMessages.sessionNotFound);
  if (needsValidatedSession.has(known) && !request.session.sessionToken) {
    return failure(keyauthMessages.sessionUnauthed);
  }
  return handlers[known](request);
}
