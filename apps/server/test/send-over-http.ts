import { request as httpRequest } from 'node:http';

/** A request sent as it is: exactly these headers (and the body's length), no client defaults. */
export interface RawHttpRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  payload?: string | Buffer | undefined;
}

export interface RawHttpAnswer {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * One request over a real socket to 127.0.0.1:`port`, on a connection of its own. Tests of the
 * client API's lean path need it: `inject` goes straight to Fastify and never meets that path,
 * and `fetch` adds headers of its own (a text/plain content type for a string body).
 */
export function sendOverHttp(port: number, request: RawHttpRequest): Promise<RawHttpAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: request.method,
        path: request.path,
        agent: false,
        headers: {
          ...request.headers,
          ...(request.payload === undefined
            ? {}
            : { 'content-length': String(Buffer.byteLength(request.payload)) }),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            statusCode: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(request.payload);
  });
}
