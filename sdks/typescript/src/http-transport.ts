import {
  request as httpRequest,
  type ClientRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type RequestOptions,
} from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import { connect as tlsConnect } from 'node:tls';
import { TransportError } from './client-errors.js';

export interface HttpExchange {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface HttpRequestOptions {
  url: URL;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: Buffer;
  /** The whole exchange, answer included, must end within this. */
  timeoutMs: number;
  /** An HTTP proxy (`http://[user:password@]host:port`), or null to connect directly. */
  proxy: URL | null;
}

/**
 * Sends one request and answers the response head, its body still to read. Plain `node:http`
 * rather than `fetch`: Node's `fetch` reaches a proxy only through a dispatcher of the undici
 * package, a dependency this library does not take. Through a proxy, an `http:` URL goes in
 * absolute form and an `https:` URL through a `CONNECT` tunnel, TLS end to end.
 */
export function openHttpRequest(
  options: HttpRequestOptions,
  onRequest: (request: ClientRequest) => void,
): Promise<IncomingMessage> {
  const { url, proxy } = options;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return Promise.reject(new TransportError('unreachable', `Unsupported URL: ${url.protocol}`));
  }
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.body) headers['content-length'] = String(options.body.length);
    let request: ClientRequest;
    if (proxy && url.protocol === 'http:') {
      request = httpRequest({
        host: proxy.hostname,
        port: proxy.port || 80,
        method: options.method,
        path: url.href,
        headers: { ...headers, host: url.host, ...proxyAuthorization(proxy) },
      });
    } else {
      const requestOptions: RequestOptions = { method: options.method, headers };
      if (proxy) requestOptions.createConnection = tunnelThrough(proxy, url);
      request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, requestOptions);
    }
    onRequest(request);
    request.once('response', resolve);
    request.on('error', (error) => reject(asTransportError(error)));
    request.end(options.body);
  });
}

/** One whole exchange: the answer's body read into memory, at most `maxBodyBytes`. */
export async function sendHttpRequest(
  options: HttpRequestOptions & { maxBodyBytes: number },
): Promise<HttpExchange> {
  let current: ClientRequest | null = null;
  let isTimedOut = false;
  const timer = setTimeout(() => {
    isTimedOut = true;
    current?.destroy(new Error('timed out'));
  }, options.timeoutMs);
  try {
    const response = await openHttpRequest(options, (request) => {
      current = request;
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > options.maxBodyBytes) {
        response.destroy();
        throw new TransportError('malformed', 'The answer is larger than any the server sends');
      }
      chunks.push(chunk);
    }
    return {
      status: response.statusCode ?? 0,
      headers: response.headers,
      body: Buffer.concat(chunks),
    };
  } catch (error) {
    if (isTimedOut) throw new TransportError('timeout', `No answer within ${options.timeoutMs} ms`);
    throw asTransportError(error);
  } finally {
    clearTimeout(timer);
  }
}

function asTransportError(error: unknown): TransportError {
  if (error instanceof TransportError) return error;
  const { code, message } = error as { code?: string; message?: string };
  return new TransportError('unreachable', code ? `${code}: ${message}` : String(message ?? error));
}

function proxyAuthorization(proxy: URL): Record<string, string> {
  if (!proxy.username) return {};
  const credentials = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
  return { 'proxy-authorization': `Basic ${Buffer.from(credentials).toString('base64')}` };
}

/** A `createConnection` that opens a CONNECT tunnel through the proxy and speaks TLS inside it. */
function tunnelThrough(proxy: URL, target: URL): NonNullable<RequestOptions['createConnection']> {
  return (_options, done) => {
    const authority = `${target.hostname}:${target.port || 443}`;
    const connect = httpRequest({
      host: proxy.hostname,
      port: proxy.port || 80,
      method: 'CONNECT',
      path: authority,
      headers: { host: authority, ...proxyAuthorization(proxy) },
    });
    connect.once('connect', (answer: IncomingMessage, socket: Socket) => {
      if (answer.statusCode !== 200) {
        socket.destroy();
        const refusal = `The proxy refused the tunnel: HTTP ${answer.statusCode}`;
        done(new TransportError('unreachable', refusal), socket);
        return;
      }
      done(null, tlsConnect({ socket, servername: target.hostname }));
    });
    connect.once('error', (error) => done(error, connect.socket ?? new PassThrough()));
    connect.end();
    // The connection comes through `done` once the tunnel stands.
    return undefined;
  };
}
