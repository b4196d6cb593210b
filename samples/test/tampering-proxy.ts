import { createServer, request as forward } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback HTTP proxy in front of a live Latchkey that passes everything through, except
 * that while `tamper` is on it changes one byte of every response body (headers, signature
 * included, untouched): the man in the middle a client's signature check must catch. With
 * `tamperPathPrefix` set, only responses to paths starting with it are changed (a download,
 * say, whose SHA-256 a client must check, while the signed answers pass intact). The incoming
 * Host goes upstream unchanged, so the URLs the server builds from it (a download's) lead
 * through the proxy too.
 */
export async function startTamperingProxy(targetBaseUrl: string) {
  const target = new URL(targetBaseUrl);
  const state = {
    tamper: false,
    tamperedResponses: 0,
    tamperPathPrefix: null as string | null,
  };
  const server = createServer((incoming, outgoing) => {
    const upstream = forward(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const body = Buffer.concat(chunks);
          const isTargeted =
            state.tamperPathPrefix === null ||
            (incoming.url ?? '').startsWith(state.tamperPathPrefix);
          if (state.tamper && isTargeted && body.length > 0) {
            tamperOneByte(body);
            state.tamperedResponses += 1;
          }
          const headers = { ...answer.headers, 'content-length': String(body.length) };
          delete headers['transfer-encoding'];
          outgoing.writeHead(answer.statusCode ?? 502, headers);
          outgoing.end(body);
        });
      },
    );
    upstream.on('error', () => {
      outgoing.writeHead(502).end();
    });
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    state,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Changes one byte and keeps the JSON valid, so a client's refusal can only come from the
 * signature: the case of the first letter of the message (`"message":"User verified"` becomes
 * `"message":"user verified"`), else of the body's last letter or digit.
 */
export function tamperOneByte(body: Buffer): void {
  const messageStart = body.indexOf('"message":"');
  let index = messageStart >= 0 ? messageStart + '"message":"'.length : -1;
  if (index < 0 || !isLetter(body[index]!)) {
    index = body.length - 1;
    while (index >= 0 && !isLetter(body[index]!) && !isDigit(body[index]!)) index -= 1;
  }
  if (index < 0) {
    body[0] = body[0]! ^ 0x01;
    return;
  }
  const byte = body[index]!;
  body[index] = isDigit(byte) ? (byte === 0x39 ? 0x30 : byte + 1) : byte ^ 0x20;
}

const isLetter = (byte: number) => (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7a;
const isDigit = (byte: number) => byte >= 0x30 && byte <= 0x39;
