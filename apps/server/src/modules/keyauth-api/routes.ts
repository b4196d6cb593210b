import { createHmac, randomBytes } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { KEYAUTH_OWNER_ID_PATTERN, keyauthLimits } from '@latchkey/contracts';
import type { AppDependencies } from '../../http/app-dependencies.ts';
import { findUncleanText, uncleanTextMessage } from '../../http/find-unclean-text.ts';
import { clientIpOf } from '../../lib/client-ip.ts';
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
const VERSIONS = ['1.2', '1.3'] as const;
type KeyauthVersion = (typeof VERSIONS)[number];
/** Form fields are short; a `setvar` value is the longest (16 KB, form-encoded up to ×3). */
const BODY_LIMIT_BYTES = 64 * 1024;

export interface KeyauthApiDependencies extends Pick<
  AppDependencies,
  'config' | 'database' | 'clock' | 'applicationEvents'
> {
  pipeline: ClientCallPipeline;
  activity: ActivityRecorder;
  storage: FileStorage;
}

/**
 * The KeyAuth-compatible client API, /api/1.2/ and /api/1.3/ (docs/keyauth-migration.md):
 * programs built on KeyAuth's own client libraries reach an application that has compatibility
 * on, found by the `ownerid` and `name` they send, and every request type runs v1's verbs
 * through v1's pipeline (its budgets, throttles, blacklist, standing, HWID and device rules,
 * activity rows and webhooks), answered in KeyAuth's shapes: JSON as PHP writes it, the request's
 * `ownerid` echoed, `code` 68 and a `nonce` on success, signed as each version's clients check:
 * 1.2 an HMAC-SHA256 of the body in `signature` (the application's KeyAuth secret for init, then
 * `{enckey}-{secret}`), 1.3 Ed25519 over `timestamp + body` with the application's own key.
 * Outcomes, refusals and limits are HTTP 200: KeyAuth's C# client throws on any other status.
 */
export async function registerKeyauthApi(
  app: FastifyInstance,
  deps: KeyauthApiDependencies,
): Promise<void> {
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

  /** Signs the exact bytes as the version's clients check them, then sends them. */
  const send = (
    reply: FastifyReply,
    version: KeyauthVersion,
    signer: { application: ClientApplication; hmacKey: string } | null,
    body: string,
  ) => {
    reply.header('content-type', 'application/json; charset=utf-8');
    if (signer && version === '1.2') {
      reply.header('signature', createHmac('sha256', signer.hmacKey).update(body).digest('hex'));
    }
    if (signer && version === '1.3') {
      const timestamp = String(Math.floor(clock.now().getTime() / 1000));
      reply.header(
        'x-signature-ed25519',
        signer.application.sign(timestamp + body).toString('hex'),
      );
      reply.header('x-signature-timestamp', timestamp);
    }
    return reply.send(body);
  };

  const finish = (answer: KeyauthAnswer, ownerId: string) =>
    phpJsonEncode(
      answer.success
        ? {
            ...answer,
            code: KEYAUTH_SUCCESS_CODE,
            nonce: randomBytes(16).toString('hex'),
            ownerid: ownerId,
          }
        : { ...answer, ownerid: ownerId },
    );

  const handle = async (request: FastifyRequest, reply: FastifyReply, version: KeyauthVersion) => {
    reply.header('x-request-id', request.id);
    reply.header('cache-control', 'no-store');
    const fields = fieldsOf(request);
    const ownerId = fields.ownerid ?? '';
    const name = fields.name ?? '';
    const ipAddress = clientIpOf(request);
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
      return send(reply, version, null, phpJsonEncode({ success: false, message: unnamed }));
    }
    // Valid Unicode without NUL before anything reads the fields (PostgreSQL refuses NUL).
    const unclean = findUncleanText(fields);
    if (unclean) {
      pipeline.admitUnknown(ipAddress);
      const message = uncleanTextMessage(unclean, 'text must be valid Unicode without NUL');
      return send(reply, version, null, phpJsonEncode({ success: false, message }));
    }
    const listing = await directory.find(ownerId, name);
    const application = listing ? await pipeline.loadApplication(listing.apiKey) : null;
    if (!listing || !application) {
      pipeline.admitUnknown(ipAddress);
      return reply.type('text/plain; charset=utf-8').send(KEYAUTH_INVALID);
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
      const origin = config.publicOrigin ?? `${request.protocol}://${request.host}`;
      const caller = {
        application,
        ipAddress,
        log: request.log,
        request: requestView(request, application, ipAddress),
      };
      if (type === 'init') {
        const answer = await init({ fields, caller, listing, origin });
        return send(reply, version, signer(), finish(answer, ownerId));
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
      const answer = await answerKeyauthRequest(type, keyauthRequest);
      return send(reply, version, signer(), finish(answer, ownerId));
    } catch (error) {
      if (error instanceof ClientApiError) {
        // Throttles and malformed input: KeyAuth's clients read the message of a 200.
        if (error.retryAfterSeconds !== null) {
          reply.header('retry-after', String(error.retryAfterSeconds));
        }
        return send(
          reply,
          version,
          signer(),
          finish({ success: false, message: error.message }, ownerId),
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

  for (const version of VERSIONS) {
    await app.register(
      async (scope) => {
        scope.removeAllContentTypeParsers();
        // KeyAuth's clients post form fields; PHP reads any body as such, so anything else too.
        scope.addContentTypeParser(
          '*',
          { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES },
          (_request, body, done) =>
            done(null, Object.fromEntries(new URLSearchParams(body as string))),
        );
        scope.setErrorHandler((error: FastifyError, request, reply) => {
          const isUnavailable = isDatabaseUnavailable(error);
          const status = isUnavailable
            ? 503
            : error.statusCode && error.statusCode < 500
              ? error.statusCode
              : 500;
          if (status >= 500) request.log.error({ err: error }, 'KeyAuth-compatible request failed');
          if (isUnavailable) reply.header('retry-after', '5');
          const message =
            error instanceof ClientApiError
              ? error.message
              : status === 413
                ? 'Request too large'
                : status < 500
                  ? 'Malformed request'
                  : 'Server error: please try again shortly.';
          return reply
            .status(status)
            .type('application/json; charset=utf-8')
            .send(phpJsonEncode({ success: false, message }));
        });
        for (const method of ['GET', 'POST'] as const) {
          scope.route({
            method,
            url: '/',
            handler: (request, reply) => handle(request, reply, version),
          });
        }
      },
      { prefix: `/api/${version}` },
    );
  }
}

/** KeyAuth reads `$_POST[x] ?? $_GET[x]`: the body's fields, then the query's. Strings only. */
function fieldsOf(request: FastifyRequest): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const source of [request.query, request.body]) {
    if (!source || typeof source !== 'object') continue;
    for (const [key, value] of Object.entries(source as Record<string, unknown>)) {
      if (typeof value === 'string') fields[key] = value;
    }
  }
  return fields;
}

/** What v1's verbs read of a request (client-caller.ts), for a KeyAuth one. */
function requestView(request: FastifyRequest, application: ClientApplication, ipAddress: string) {
  return {
    clientApp: application,
    clientIp: ipAddress,
    log: request.log,
    headers: request.headers,
    protocol: request.protocol,
    host: request.host,
  };
}
