import { randomBytes, sign, type KeyObject } from 'node:crypto';
import {
  createServer,
  request as forward,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type OutgoingHttpHeaders,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { tamperOneByte } from '../../samples/test/tampering-proxy.ts';

/**
 * What the man in the middle does to the requests of one conformance step (README.md in
 * sdks/conformance describes each). Every mode but `pass` is an attack or a failure a client
 * must survive; those that re-sign use the application's own private key, so the only thing
 * wrong with the answer is what the mode names.
 */
export const hostileModes = [
  'pass',
  'tamper-body',
  'tamper-signature',
  'strip-signature',
  'strip-nonce',
  'swap-nonce',
  'replay',
  'stale-timestamp',
  'future-timestamp',
  'rate-limit-once',
  'server-error-once',
  'lose-answer-once',
  'tamper-download',
  'hang',
] as const;
export type HostileMode = (typeof hostileModes)[number];

interface RecordedAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

const SIGNATURE = 'x-signature-ed25519';
const TIMESTAMP = 'x-signature-timestamp';
const NONCE = 'x-request-nonce';
const SKEW_SECONDS = 600;

/**
 * A loopback reverse proxy in front of a live Latchkey. It passes everything through and
 * records each answer by path (for `replay`), unless the step's mode says otherwise. The
 * incoming Host goes upstream unchanged, so the download URLs the server builds lead back here.
 */
export async function startHostileProxy(targetBaseUrl: string) {
  const target = new URL(targetBaseUrl);
  const state = {
    mode: 'pass' as HostileMode,
    /** The private key of the scenario's application, for the modes that re-sign. */
    signingKey: null as KeyObject | null,
    /** Requests received since the step began. */
    requestsSeen: 0,
    hasFailedOnce: false,
    recorded: new Map<string, RecordedAnswer>(),
  };

  const resign = (body: Buffer, nonce: string, timestamp: number): OutgoingHttpHeaders => {
    if (!state.signingKey) throw new Error('hostile proxy: no signing key for this scenario');
    const signed = Buffer.concat([Buffer.from(`${timestamp}.${nonce}.`), body]);
    return {
      [SIGNATURE]: sign(null, signed, state.signingKey).toString('hex'),
      [TIMESTAMP]: String(timestamp),
    };
  };

  const server = createServer((incoming, outgoing) => {
    state.requestsSeen += 1;
    const path = incoming.url ?? '/';
    const mode = state.mode;
    const nonce = typeof incoming.headers[NONCE] === 'string' ? incoming.headers[NONCE] : '';
    const send = (status: number, headers: OutgoingHttpHeaders, body: Buffer) => {
      const sent = { ...headers, 'content-length': String(body.length) };
      delete sent['transfer-encoding'];
      outgoing.writeHead(status, sent);
      outgoing.end(body);
    };

    if (mode === 'hang') {
      // Never answers: the connection stays open until the client gives up.
      incoming.resume();
      return;
    }
    if (mode === 'replay') {
      const recorded = state.recorded.get(path);
      incoming.resume();
      if (!recorded) send(502, {}, Buffer.from('nothing recorded to replay'));
      else send(recorded.status, recorded.headers, recorded.body);
      return;
    }
    /** A 429 or a 503 with `Retry-After: 1`, signed for this request as the server would. */
    const sendFailure = (isRateLimit: boolean) => {
      const body = Buffer.from(
        JSON.stringify({
          success: false,
          code: isRateLimit ? 'RATE_LIMITED' : 'INTERNAL_ERROR',
          message: isRateLimit ? 'Too many requests. Try again in 1 seconds.' : 'Internal error',
        }),
      );
      const timestamp = Math.floor(Date.now() / 1000);
      send(
        isRateLimit ? 429 : 503,
        {
          'content-type': 'application/json',
          'retry-after': '1',
          ...resign(body, nonce, timestamp),
        },
        body,
      );
    };
    if ((mode === 'rate-limit-once' || mode === 'server-error-once') && !state.hasFailedOnce) {
      state.hasFailedOnce = true;
      incoming.resume();
      sendFailure(mode === 'rate-limit-once');
      return;
    }
    // The server acts on the request, but its answer is lost on the way back: what a retry
    // must not count twice.
    const losesThisAnswer = mode === 'lose-answer-once' && !state.hasFailedOnce;
    if (losesThisAnswer) state.hasFailedOnce = true;

    const headers = { ...incoming.headers };
    if (mode === 'strip-nonce') delete headers[NONCE];
    if (mode === 'swap-nonce') headers[NONCE] = `swapped-${randomBytes(8).toString('hex')}`;
    const upstream = forward(
      { host: target.hostname, port: target.port, method: incoming.method, path, headers },
      (answer: IncomingMessage) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          if (losesThisAnswer) {
            sendFailure(false);
            return;
          }
          const body = Buffer.concat(chunks);
          const answerHeaders: OutgoingHttpHeaders = { ...answer.headers };
          const status = answer.statusCode ?? 502;
          if (mode === 'pass') {
            state.recorded.set(path, { status, headers: answer.headers, body: Buffer.from(body) });
          }
          const isDownload = path.startsWith('/api/v1/downloads/');
          if (mode === 'tamper-body' || (mode === 'tamper-download' && isDownload)) {
            tamperOneByte(body);
          }
          if (mode === 'tamper-signature') {
            const signature = String(answerHeaders[SIGNATURE]);
            const last = signature.at(-1) === '0' ? '1' : '0';
            answerHeaders[SIGNATURE] = `${signature.slice(0, -1)}${last}`;
          }
          if (mode === 'strip-signature') {
            delete answerHeaders[SIGNATURE];
            delete answerHeaders[TIMESTAMP];
          }
          if (mode === 'stale-timestamp' || mode === 'future-timestamp') {
            const skew = mode === 'stale-timestamp' ? -SKEW_SECONDS : SKEW_SECONDS;
            Object.assign(answerHeaders, resign(body, nonce, Math.floor(Date.now() / 1000) + skew));
          }
          send(status, answerHeaders, body);
        });
      },
    );
    upstream.on('error', () => {
      if (!outgoing.headersSent) outgoing.writeHead(502);
      outgoing.end();
    });
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    state,
    /** Sets the mode for one step and starts counting its requests afresh. */
    beginStep(mode: HostileMode) {
      state.mode = mode;
      state.requestsSeen = 0;
      state.hasFailedOnce = false;
    },
    /** A new scenario: its application's key, nothing recorded from the last one. */
    beginScenario(signingKey: KeyObject) {
      state.signingKey = signingKey;
      state.recorded.clear();
      this.beginStep('pass');
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A plain forward HTTP proxy (absolute-form requests only, as clients send for `http:` URLs),
 * counting what it carried: proof that a client configured with it really used it.
 */
export async function startForwardProxy() {
  let requestsCarried = 0;
  const server = createServer((incoming, outgoing) => {
    let destination: URL;
    try {
      destination = new URL(incoming.url ?? '');
    } catch {
      outgoing.writeHead(400).end('absolute-form requests only');
      return;
    }
    requestsCarried += 1;
    const upstream = forward(
      {
        host: destination.hostname,
        port: destination.port,
        method: incoming.method,
        path: `${destination.pathname}${destination.search}`,
        headers: incoming.headers,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    upstream.on('error', () => {
      if (!outgoing.headersSent) outgoing.writeHead(502);
      outgoing.end();
    });
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    takeCount() {
      const count = requestsCarried;
      requestsCarried = 0;
      return count;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
