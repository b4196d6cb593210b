import { createTransport } from 'nodemailer';
import type { MailSettings } from '../../config.ts';

/** One message as it leaves: every header value already checked for line breaks. */
export interface OutgoingMail {
  from: { name: string; address: string };
  replyTo: string | null;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** `<id@domain>`: the same on every attempt, so a second copy is recognisably the same. */
  messageId: string;
  headers: Record<string, string>;
}

/** What became of one attempt: accepted, or refused for now (retry) or for good. */
export type MailSendOutcome =
  { kind: 'sent' } | { kind: 'failed'; error: string; isPermanent: boolean };

export interface MailTransport {
  /** `mailbox`: nothing leaves; the worker keeps the rendered message for the console. */
  kind: 'smtp' | 'mailbox';
  send(mail: OutgoingMail): Promise<MailSendOutcome>;
  close(): void;
}

/**
 * An SMTP server that never answers must not hold a message past its claim's lease (the
 * worker's 50 s): connecting, the greeting and each later exchange are bounded.
 */
const SMTP_TIMEOUTS_MS = {
  connectionTimeout: 10_000,
  greetingTimeout: 10_000,
  socketTimeout: 20_000,
};

export function createMailTransport(
  transport: NonNullable<MailSettings['transport']>,
): MailTransport {
  if (transport.kind === 'mailbox') {
    return { kind: 'mailbox', send: () => Promise.resolve({ kind: 'sent' }), close: () => {} };
  }
  // Nodemailer reads the credentials, the port and smtps:// (TLS at once) from the URL, and
  // upgrades a plain connection with STARTTLS whenever the server offers it.
  const smtp = createTransport({ url: transport.url, ...SMTP_TIMEOUTS_MS });
  return {
    kind: 'smtp',
    send: async (mail) => {
      try {
        await smtp.sendMail({
          from: mail.from,
          to: mail.to,
          ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          messageId: mail.messageId,
          headers: mail.headers,
        });
        return { kind: 'sent' };
      } catch (error) {
        return failureOf(error as SmtpError);
      }
    },
    close: () => smtp.close(),
  };
}

interface SmtpError extends Error {
  code?: string;
  responseCode?: number;
  response?: string;
}

/** Nodemailer's codes of a message that no retry can deliver. */
const PERMANENT_CODES = new Set(['EENVELOPE', 'EMESSAGE', 'ECONFIG']);

/**
 * A 5xx reply is the server's final word (an unknown recipient, refused credentials); a 4xx
 * reply, a timeout, a refused or dropped connection are worth trying again.
 */
export function failureOf(error: SmtpError): MailSendOutcome {
  if (typeof error.responseCode === 'number') {
    return {
      kind: 'failed',
      error: error.response ?? `${error.responseCode} ${error.message}`,
      isPermanent: error.responseCode >= 500,
    };
  }
  return {
    kind: 'failed',
    error: error.code ? `${error.code}: ${error.message}` : error.message,
    isPermanent: error.code !== undefined && PERMANENT_CODES.has(error.code),
  };
}
