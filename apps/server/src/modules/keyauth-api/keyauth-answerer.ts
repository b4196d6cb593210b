import { createHmac, randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { KEYAUTH_OWNER_ID_PATTERN, keyauthLimits } from '@latchkey/contracts';
import type { AppDependencies } from '../../http/app-dependencies.ts';
import { findUncleanText, uncleanTextMessage } from '../../http/find-unclean-text.ts';
import { isDatabaseUnavailable } from '../../lib/database-errors.ts';
import type { ActivityRecorder } from '../activity/index.ts';
import {
  appDisabled,
  ClientApiError,
  issueFileUrl,
  type ClientApplication,
  type ClientCallPipeline,
} from '../client-api/index.ts';
import type { FileStorage } from '../files/index.ts';
import { createAppInfoCache, readKeyauthAppInfo } from './keyauth-app-info.ts';
import { createKeyauthDirectory, type KeyauthListing } from './keyauth-directory.ts';
import {
  answerKeyauthRequest,
  keyauthMessages,
  type KeyauthAnswer,
  type KeyauthRequest,
} from './keyauth-requests.ts';
import { createKeyauthSessionStore, type FoundKeyauthSession } from './keyauth-sessions.ts';
import { phpJsonEncode } from './php-json.ts';

/** KeyAuth's clients treat an answer with this code as a success (the C++ library exits without it). */
export const KEYAUTH_SUCCESS_CODE = 68;
/** What KeyAuth answers for an owner id and name it does not know: the bare body, unsigned. */
export const KEYAUTH_INVALID = 'KeyAuth_Invalid';
export const KEYAUTH_VERSIONS = ['1.2', '1.3'] as const;
export type KeyauthVersion = (typeof KEYAUTH_VERSIONS)[number];

export interface KeyauthApiDependencies extends Pick<
  AppDependencies,
  'config' | 'database' | 'clock' | 'applicationEvents'
> {
  pipeline: ClientCallPipeline;
  activity: ActivityRecorder;
  storage: FileStorage;
}

/** One request, however it arrived (Fastify's route, or the path in front of it). */
export interface KeyauthExchange {
  version: KeyauthVersion;
  /** The form's fields (the body's over the query's), strings only. */
  fields: Record<string, string>;
  ipAddress: string;
  log: FastifyBaseLogger;
  headers: IncomingHttpHeaders;
  /** Where the client reached us (`https://host`), asked only when an answer holds a link. */
  origin: () => string;
}

/** An answer: always HTTP 200 (KeyAuth's C# client throws on any other status). */
export interface KeyauthHttpAnswer {
  headers: Record<string, string>;
  body: string;
}

/**
 * Answers KeyAuth requests: finds the application by the `ownerid` and `name` they send and
 * runs each request type with v1's verbs through v1's pipeline (its budgets, throttles,
 * blacklist, standing, HWID and device rules, activity rows and webhooks), in KeyAuth's shapes:
 * JSON as PHP writes it, the request's `ownerid` echoed, `code` 68 and a `nonce` on success,
 * signed as each version's clients check: 1.2 an HMAC-SHA256 of the body in `signature` (the
 * application's KeyAuth secret for init, then `{enckey}-{secret}`), 1.3 Ed25519 over
 * `timestamp + body` with the application's own key. Refusals, throttles and malformed input
 * are answers too; only a failure of ours throws (keyauthErrorAnswer).
 */
export function createKeyauthAnswerer(deps: KeyauthApiDependencies) {
  const { config, clock, pipeline, activity, storage } = deps;
  const { db } = deps.database;
  const directory = createKeyauthDirectory({
    db,
    clock,
    serverSecret: config.serverSecret,
    applicationEvents: deps.applicationEvents,
    ttlMs: config.clientApi.applicationCacheTtlMs,
  });
  const sessions = createKeyauthSessionStore(db, config.serverSecret, {
    rememberMs: config.clientApi.applicationCacheTtlMs,
  });
  const appInfo = createAppInfoCache();

  /** Signs the exact bytes as the version's clients check them. */
  const signed = (
    version: KeyauthVersion,
    signer: { application: ClientApplication; hmacKey: string } | null,
    body: string,
    headers: Record<string, string> = {},
  ): KeyauthHttpAnswer => {
    headers['content-type'] = 'application/json; charset=utf-8';
    if (signer && version === '1.2') {
      headers.signature = createHmac('sha256', signer.hmacKey).update(body).digest('hex');
    }
    if (signer && version === '1.3') {
      const timestamp = String(Math.floor(clock.now().getTime() / 1000));
      headers['x-signature-ed25519'] = signer.application.sign(timestamp + body).toString('hex');
      headers['x-signature-timestamp'] = timestamp;
    }
    return { headers, body };
  };

  const finish = (answer: KeyauthAnswer, ownerId: string) =>
    phpJsonEncode(
      answer.success
        ? {
            ...answer,
            code: KEYAUTH_SUCCESS_CODE,
            // 32 random hex characters, as KeyAuth's nonce; randomUUID draws from a cached pool.
            nonce: randomUUID().replaceAll('-', ''),
            ownerid: ownerId,
          }
        : { ...answer, ownerid: ownerId },
    );

  const answer = async (exchange: KeyauthExchange): Promise<KeyauthHttpAnswer> => {
    const { version, fields, ipAddress } = exchange;
    const ownerId = fields.ownerid ?? '';
    const name = fields.name ?? '';
    // KeyAuth's own refusals of a request that names no application, unsigned as KeyAuth's are.
    const unnamed = !ownerId
      ? 'No OwnerID specified. Copy the snippet from your application\u2019s page.'
      : !name
        ? 'No app name specified. Copy the snippet from your application\u2019s page.'
        : !KEYAUTH_OWNER_ID_PATTERN.test(ownerId) && ownerId.length !== keyauthLimits.ownerIdLength
          ? 'OwnerID should be 10 characters long.'
          : null;
    if (unnamed) {
      pipeline.admitUnknown(ipAddress);
      return signed(version, null, phpJsonEncode({ success: false, message: unnamed }));
    }
    // Valid Unicode without NUL before anything reads the fields (PostgreSQL refuses NUL).
    const unclean = findUncleanText(fields);
    if (unclean) {
      pipeline.admitUnknown(ipAddress);
      const message = uncleanTextMessage(unclean, 'text must be valid Unicode without NUL');
      return signed(version, null, phpJsonEncode({ success: false, message }));
    }
    const listing = await directory.find(ownerId, name);
    const application = listing ? await pipeline.loadApplication(listing.apiKey) : null;
    if (!listing || !application) {
      pipeline.admitUnknown(ipAddress);
      return { headers: { 'content-type': 'text/plain; charset=utf-8' }, body: KEYAUTH_INVALID };
    }
    const type = fields.type ?? '';
    let session: FoundKeyauthSession | null = null;
    const signer = () => ({
      application,
      hmacKey:
        type !== 'init' && session?.enckey ? `${session.enckey}-${listing.secret}` : listing.secret,
    });
    try {
      await new Promise<void>((resolve, reject) =>
        pipeline.admitKnown(application, ipAddress, (error) => (error ? reject(error) : resolve())),
      );
      activity.countApiRequest(application.id, clock.now());
      const origin = config.publicOrigin ?? exchange.origin();
      const caller = {
        application,
        ipAddress,
        log: exchange.log,
        request: {
          clientApp: application,
          clientIp: ipAddress,
          log: exchange.log,
          headers: exchange.headers,
          get protocol() {
            return exchange.origin().split(':')[0]!;
          },
          get host() {
            return exchange.origin().split('//')[1]!;
          },
        },
      };
      if (type === 'init') {
        const initialized = await init({ fields, caller, listing, origin });
        return signed(version, signer(), finish(initialized, ownerId));
      }
      const sessionId = fields.sessionid ?? '';
      // check, the call programs repeat, reads a validated session's binding from memory.
      const found =
        type === 'check'
          ? await sessions.findRemembered(application.id, sessionId, clock.now())
          : {
              session: await sessions.find(application.id, sessionId, clock.now()),
              isRemembered: false,
            };
      session = found.session;
      const keyauthRequest: KeyauthRequest = {
        fields,
        caller,
        services: pipeline.services,
        session,
        isSessionRemembered: found.isRemembered,
        sessionId,
        sessions,
        storage,
        appInfo,
        sessionHours: listing.sessionHours,
        origin,
      };
      const answered = await answerKeyauthRequest(type, keyauthRequest);
      return signed(version, signer(), finish(answered, ownerId));
    } catch (error) {
      if (error instanceof ClientApiError) {
        // Throttles and malformed input: KeyAuth's clients read the message of a 200.
        return signed(
          version,
          signer(),
          finish({ success: false, message: error.message }, ownerId),
          error.retryAfterSeconds === null
            ? {}
            : { 'retry-after': String(error.retryAfterSeconds) },
        );
      }
      throw error;
    }
  };

  /**
   * init: the application must be active and (when the program sends `ver`) at its version,
   * else KeyAuth's `invalidver` with the update channel's download URL, which KeyAuth's clients
   * open. Opens a session for the requests that follow.
   */
  async function init(input: {
    fields: Record<string, string>;
    caller: KeyauthRequest['caller'];
    listing: KeyauthListing;
    origin: string;
  }): Promise<KeyauthAnswer> {
    const { fields, caller, listing, origin } = input;
    const { application } = caller;
    const ctx = pipeline.services.contextOf(caller);
    if (!application.isActive) return { success: false, message: appDisabled().message };
    const version = fields.ver?.trim() ?? '';
    if (version && version !== application.version) {
      let download = '';
      if (application.update) {
        const issued = await issueFileUrl({
          ctx: { ...ctx, serverSecret: config.serverSecret, downloadOrigin: origin },
          input: { file_id: application.update.file_id, session_token: null },
        });
        download = issued.url ?? '';
      }
      return { success: false, message: keyauthMessages.invalidVersion, download };
    }
    const sessionId = await sessions.open({
      applicationId: application.id,
      enckey: fields.enckey?.slice(0, 256) || null,
      now: clock.now(),
      hours: listing.sessionHours,
    });
    return {
      success: true,
      message: keyauthMessages.initialized,
      sessionid: sessionId,
      appinfo: await readKeyauthAppInfo({ ...ctx, origin }, appInfo),
      newSession: true,
    };
  }

  return answer;
}

/** What a failure of ours answers: 503 while the database is away, else 500 (logged). */
export function keyauthErrorAnswer(
  error: unknown,
  log: FastifyBaseLogger,
): { status: number; headers: Record<string, string>; body: string } {
  const statusCode = (error as { statusCode?: number }).statusCode;
  const isUnavailable = isDatabaseUnavailable(error);
  const status = isUnavailable ? 503 : statusCode && statusCode < 500 ? statusCode : 500;
  if (status >= 500) log.error({ err: error }, 'KeyAuth-compatible request failed');
  const message =
    error instanceof ClientApiError
      ? error.message
      : status === 413
        ? 'Request too large'
        : status < 500
          ? 'Malformed request'
          : 'Server error: please try again shortly.';
  return {
    status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      ...(isUnavailable ? { 'retry-after': '5' } : {}),
    },
    body: phpJsonEncode({ success: false, message }),
  };
}
