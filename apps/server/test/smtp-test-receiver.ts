import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** The envelope's recipients (RCPT TO). */
  to: string[];
  /** The message as sent, byte for byte. */
  raw: string;
  /** Whether the connection had turned to TLS (STARTTLS) before the message. */
  isSecure: boolean;
  parsed: ParsedMail;
}

/** What the receiver answers a message: accept it, or refuse with an SMTP reply. */
export type SmtpAnswer = { accept: true } | { accept: false; code: number; message: string };

/**
 * A real SMTP server on 127.0.0.1 (the `smtp-server` package): it offers STARTTLS (its own
 * self-signed certificate, which the URL tells nodemailer to accept), requires
 * authentication, records every message it accepts (parsed with `mailparser`) and answers
 * what the test says: accept by default, or a 4xx / 5xx reply to the message's data.
 */
export async function startSmtpReceiver(options: { user?: string; pass?: string } = {}) {
  const user = options.user ?? 'latchkey';
  const pass = options.pass ?? 'smtp-test-password';
  const received: ReceivedMail[] = [];
  let attempts = 0;
  let answer: (attempt: number) => SmtpAnswer = () => ({ accept: true });
  const arrivals: (() => void)[] = [];

  const server = new SMTPServer({
    authMethods: ['PLAIN', 'LOGIN'],
    // Authentication travels only after STARTTLS: the server refuses it on a plain connection.
    allowInsecureAuth: false,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === user && auth.password === pass) return callback(null, { user });
      return callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        attempts += 1;
        const verdict = answer(attempts);
        if (!verdict.accept) {
          const refusal = new Error(verdict.message) as Error & { responseCode: number };
          refusal.responseCode = verdict.code;
          return callback(refusal);
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        void simpleParser(raw).then((parsed) => {
          received.push({
            to: session.envelope.rcptTo.map((recipient) => recipient.address),
            raw,
            isSecure: session.secure,
            parsed,
          });
          for (const arrived of arrivals.splice(0)) arrived();
          callback();
        }, callback);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  return {
    /** For SMTP_URL: credentials in the URL, STARTTLS with the receiver's own certificate. */
    url: `smtp://${user}:${pass}@127.0.0.1:${port}?tls.rejectUnauthorized=false`,
    port,
    received,
    /** How many messages were offered (accepted or refused). */
    get attempts() {
      return attempts;
    },
    answerWith(next: (attempt: number) => SmtpAnswer) {
      answer = next;
    },
    /** Resolves once `count` messages have been accepted in all, or fails after `timeoutMs`. */
    async waitForMessages(count: number, timeoutMs = 15_000): Promise<ReceivedMail[]> {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        const remaining = deadline - Date.now();
        if (remaining <= 0) {
          throw new Error(`expected ${count} messages, received ${received.length}`);
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, remaining);
          arrivals.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return received.slice(0, count);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type SmtpReceiver = Awaited<ReturnType<typeof startSmtpReceiver>>;
