import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebhookEvent, WebhookFormat } from '@latchkey/contracts';
import type { Database } from '../src/db/client.ts';
import { webhooks } from '../src/db/schema/index.ts';
import { encryptWebhookSecret } from '../src/lib/webhook-secret-crypto.ts';

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** What the receiver answered. */
  status: number;
  receivedAt: number;
}

export interface ReceiverAnswer {
  status: number;
  headers?: Record<string, string>;
  /** Never answer (a hung endpoint); the request is recorded with this status. */
  isHung?: boolean;
  /** Answer only after this long (a slow endpoint: the attempt stays in flight meanwhile). */
  delayMs?: number;
}

/**
 * A real HTTP endpoint on 127.0.0.1 that records every request and answers what the test
 * says (200 unless told otherwise), so deliveries cross a real socket.
 */
export async function startWebhookReceiver() {
  const received: ReceivedWebhook[] = [];
  let answer: (request: { path: string; body: string }) => ReceiverAnswer = () => ({
    status: 200,
  });
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = request.url ?? '/';
      const reply = answer({ path, body });
      received.push({
        path,
        headers: request.headers,
        body,
        status: reply.status,
        receivedAt: Date.now(),
      });
      if (reply.isHung) return;
      const respond = () => {
        response.writeHead(reply.status, reply.headers ?? {});
        response.end(reply.status < 300 ? 'ok' : 'no');
      };
      if (reply.delayMs) setTimeout(respond, reply.delayMs);
      else respond();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    received,
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    answerWith(next: (request: { path: string; body: string }) => ReceiverAnswer) {
      answer = next;
    },
    /** The requests to one path. */
    to: (path: string) => received.filter((request) => request.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;

/** A `whsec_` secret as the owner API generates them. */
export const newWebhookSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

/** A webhook row written directly (the owner API is another module's). */
export async function insertTestWebhook(
  db: Database,
  serverSecret: string,
  input: {
    ownerAccountId: string;
    url: string;
    events: WebhookEvent[];
    applicationId?: number | null;
    format?: WebhookFormat;
    isActive?: boolean;
    secret?: string;
  },
) {
  const secret = input.secret ?? newWebhookSecret();
  const [row] = await db
    .insert(webhooks)
    .values({
      ownerAccountId: input.ownerAccountId,
      applicationId: input.applicationId ?? null,
      url: input.url,
      events: input.events,
      format: input.format ?? 'json',
      isActive: input.isActive ?? true,
      secretEncrypted: encryptWebhookSecret(secret, serverSecret),
      secretHint: secret.slice(-4),
    })
    .returning();
  return { ...row!, secret };
}
