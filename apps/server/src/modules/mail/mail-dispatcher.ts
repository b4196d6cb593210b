import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { PASSWORD_RESET_LINK_MINUTES, type MailKind } from '@latchkey/contracts';
import type { Database } from '../../db/client.ts';
import { rowsOf } from '../../db/rows-of.ts';
import { startOutboxWorker, type OutboxWorker } from '../../lib/outbox-worker.ts';
import { templateFor } from './mail-templates.ts';
import { expiryReminderIsStale } from './queue-expiry-reminders.ts';
import { reminderStopLinks } from './reminder-stop-links.ts';
import { sealMailContent } from './mail-content.ts';
import { unsealMailSecrets } from './mail-secrets.ts';
import type { MailSendOutcome, MailTransport, OutgoingMail } from './mail-transport.ts';
import { foldLineBreaks, renderMail, type RenderedMail } from './render-mail.ts';

export interface MailDispatcherOptions {
  db: Database;
  log: FastifyBaseLogger;
  transport: MailTransport;
  /** The envelope and From address. */
  from: string;
  serverSecret: string;
  /** Where links in mail point: PUBLIC_ORIGIN, or the server's own address in development. */
  linkOrigin: string;
  pollIntervalMs: number;
  /** Delay before each retry; a message has `retryDelaysMs.length + 1` attempts. */
  retryDelaysMs: number[];
  /** How long a claim lasts; a dead instance's messages are claimed again after it. */
  leaseMs?: number;
  concurrency?: number;
}

/**
 * Under a minute, so a message claimed by an instance that died is claimed again within one;
 * longer than an SMTP exchange may take (mail-transport.ts bounds each step).
 */
const DEFAULT_LEASE_MS = 50_000;
const DEFAULT_CONCURRENCY = 4;
const MAX_ERROR_LENGTH = 300;

/** One address and nothing else: a stored list or a display name cannot fan a mail out. */
const SINGLE_ADDRESS = /^[^\s@<>,;:"()[\]\\]+@[^\s@<>,;:"()[\]\\]+$/;

interface ClaimedMessage {
  id: string;
  applicationId: number;
  appUserId: string | null;
  attempts: number;
  kind: MailKind;
  recipient: string;
  values: Record<string, string>;
  secretsSealed: string | null;
  applicationName: string;
  senderName: string | null;
  replyTo: string | null;
  portalPublicId: string;
  username: string | null;
}

/**
 * Sends the mail outbox (mail_messages) on the shared outbox loop (lib/outbox-worker.ts), as
 * the webhook dispatcher sends its own: each round claims due messages in one statement
 * (`FOR UPDATE SKIP LOCKED`, the attempt counted, a lease taken), renders and sends each
 * outside any transaction, then records the outcome only if that claim is still the current
 * one. Several instances never send one attempt twice; only a crash between the mail
 * server's acceptance and the row's update sends a second copy, with the same Message-ID.
 */
export function createMailDispatcher(options: MailDispatcherOptions): OutboxWorker {
  const { db, transport, serverSecret } = options;
  const leaseSeconds = (options.leaseMs ?? DEFAULT_LEASE_MS) / 1000;
  const messageIdDomain = options.from.slice(options.from.lastIndexOf('@') + 1);

  async function claimDue(limit: number): Promise<ClaimedMessage[]> {
    const result = await db.execute(sql`
      with due as (
        select id from mail_messages
        where status in ('queued', 'retrying', 'sending') and next_attempt_at <= now()
        order by next_attempt_at
        limit ${limit}
        for update skip locked
      )
      update mail_messages m
      set attempts = m.attempts + 1, status = 'sending',
          next_attempt_at = now() + make_interval(secs => ${leaseSeconds}), updated_at = now()
      from due, applications a
      where m.id = due.id and a.id = m.application_id
      returning m.id, m.application_id as "applicationId", m.app_user_id as "appUserId",
                m.attempts, m.kind, m.recipient, m.values,
                m.secrets_sealed as "secretsSealed", a.name as "applicationName",
                a.mail_sender_name as "senderName", a.mail_reply_to as "replyTo",
                a.portal_public_id as "portalPublicId",
                (select u.username from app_users u where u.id = m.app_user_id) as username`);
    return rowsOf<ClaimedMessage>(result);
  }

  async function deliver(message: ClaimedMessage, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return release(message);
    // A reminder of a period renewed (or stopped) since it was queued has nothing to say.
    const isReminder = message.kind === 'expiry_reminder' && message.appUserId !== null;
    if (isReminder && (await expiryReminderIsStale(db, message))) return drop(message);
    let rendered: RenderedMail;
    try {
      const template = await templateFor(db, message.applicationId, message.kind);
      rendered = renderMail(template, valuesOf(message));
    } catch (error) {
      return record(message, null, {
        kind: 'failed',
        error: `Not sent: ${(error as Error).message}`,
        isPermanent: true,
      });
    }
    if (!SINGLE_ADDRESS.test(message.recipient)) {
      return record(message, rendered, {
        kind: 'failed',
        error: 'Not sent: the recipient is not one valid e-mail address',
        isPermanent: true,
      });
    }
    const mail: OutgoingMail = {
      from: {
        name: foldLineBreaks(message.senderName ?? message.applicationName),
        address: options.from,
      },
      replyTo: message.replyTo === null ? null : foldLineBreaks(message.replyTo),
      to: message.recipient,
      ...rendered,
      messageId: `<${message.id}@${messageIdDomain}>`,
      headers: isReminder ? oneClickStopHeaders(message) : {},
    };
    await record(message, rendered, await transport.send(mail));
  }

  /** The values the template shows, the secret ones unsealed for this attempt only. */
  function valuesOf(message: ClaimedMessage): Record<string, string> {
    const { token, ...secrets } =
      message.secretsSealed === null ? {} : unsealMailSecrets(message.secretsSealed, serverSecret);
    const values: Record<string, string> = {
      ...message.values,
      ...secrets,
      app_name: message.applicationName,
      username: message.username ?? '',
    };
    // A test mail carries its sample link among its values; a real one, its token.
    if (message.kind === 'password_reset' && !values.link) {
      if (!token) throw new Error('the link was already delivered and is not kept');
      values.link = `${options.linkOrigin}/portal/${message.portalPublicId}/reset?token=${token}`;
      values.link_minutes = String(PASSWORD_RESET_LINK_MINUTES);
    }
    if (message.kind === 'email_verification' && !values.link) {
      if (!token) throw new Error('the link was already delivered and is not kept');
      values.link = `${options.linkOrigin}/portal/${message.portalPublicId}/verify?token=${token}`;
    }
    if (message.kind === 'expiry_reminder' && message.appUserId && !values.unsubscribe_link) {
      values.unsubscribe_link = stopLinksOf(message, message.appUserId).page;
    }
    if (message.kind === 'license_key' && !values.key) {
      throw new Error('the key was already delivered and is not kept');
    }
    return values;
  }

  async function record(
    message: ClaimedMessage,
    rendered: RenderedMail | null,
    outcome: MailSendOutcome,
  ): Promise<void> {
    const subject = rendered?.subject ?? null;
    if (outcome.kind === 'sent') {
      // The local mailbox keeps what was "sent" (sealed), for the console to open; an SMTP
      // server has it now, so the secrets and the rendered text are not kept here.
      const content =
        transport.kind === 'mailbox' && rendered ? sealMailContent(rendered, serverSecret) : null;
      await db.execute(sql`
        update mail_messages
        set status = 'sent', sent_at = now(), subject = ${subject}, content_sealed = ${content},
            secrets_sealed = null, last_error = null, updated_at = now()
        where id = ${message.id} and attempts = ${message.attempts} and status = 'sending'`);
      return;
    }
    const delayMs = outcome.isPermanent ? undefined : options.retryDelaysMs[message.attempts - 1];
    const error = shorten(outcome.error);
    if (delayMs === undefined) {
      await db.execute(sql`
        update mail_messages
        set status = 'failed', subject = coalesce(${subject}, subject), last_error = ${error},
            updated_at = now()
        where id = ${message.id} and attempts = ${message.attempts} and status = 'sending'`);
      options.log.warn({ mailId: message.id, error }, 'mail failed for good');
      return;
    }
    await db.execute(sql`
      update mail_messages
      set status = 'retrying', subject = coalesce(${subject}, subject), last_error = ${error},
          next_attempt_at = now() + make_interval(secs => ${delayMs / 1000}), updated_at = now()
      where id = ${message.id} and attempts = ${message.attempts} and status = 'sending'`);
  }

  function stopLinksOf(message: ClaimedMessage, appUserId: string) {
    return reminderStopLinks({
      origin: options.linkOrigin,
      portalPublicId: message.portalPublicId,
      appUserId,
      serverSecret,
    });
  }

  /** RFC 8058: a mail program may offer "unsubscribe", posting to this address itself. */
  function oneClickStopHeaders(message: ClaimedMessage): Record<string, string> {
    return {
      'List-Unsubscribe': `<${stopLinksOf(message, message.appUserId!).oneClick}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    };
  }

  /** A message that is no longer to be sent leaves the outbox, as a sent one leaves its secrets. */
  async function drop(message: ClaimedMessage): Promise<void> {
    await db.execute(sql`
      delete from mail_messages
      where id = ${message.id} and attempts = ${message.attempts} and status = 'sending'`);
  }

  /** A claim taken as the worker stopped did not count: due again now, here or elsewhere. */
  async function release(message: ClaimedMessage): Promise<void> {
    await db.execute(sql`
      update mail_messages
      set attempts = attempts - 1, next_attempt_at = now(),
          status = case when attempts = 1 then 'queued' else 'retrying' end, updated_at = now()
      where id = ${message.id} and attempts = ${message.attempts} and status = 'sending'`);
  }

  const worker = startOutboxWorker({
    name: 'mail',
    log: options.log,
    pollIntervalMs: options.pollIntervalMs,
    concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
    claim: claimDue,
    deliver,
    idOf: (message) => message.id,
  });
  return {
    wake: worker.wake,
    async stop() {
      await worker.stop();
      transport.close();
    },
  };
}

function shorten(text: string): string {
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH - 1)}…` : text;
}
