// A TLS terminator speaking HTTP/2, in front of the compiled server, as every deployment has
// one: the server speaks plain HTTP and docs/operations.md puts nginx, Caddy or a cloud load
// balancer in front of it, all of which offer HTTP/2 to browsers. What a browser's first visit
// costs depends on it: over HTTP/1.1 a page's scripts come six at a time, a round trip each;
// over HTTP/2 they share one connection.
//
// The certificate is a throwaway self-signed one for 127.0.0.1; the browser is told to trust
// its key (`--ignore-certificate-errors-spki-list`), so the page is a secure context with no
// certificate error, as behind a real certificate.
import { execFileSync } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import http2 from 'node:http2';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Hop-by-hop headers: meaningful for one connection only, and refused by HTTP/2.
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'http2-settings',
  'te',
]);

function forwardableHeaders(headers) {
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => !name.startsWith(':') && !HOP_BY_HOP.has(name)),
  );
}

/** A self-signed certificate for 127.0.0.1 and its key, made by the openssl command. */
function makeCertificate() {
  const dir = mkdtempSync(join(tmpdir(), 'latchkey-tls-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Listens on a free port of 127.0.0.1 with TLS and HTTP/2 (HTTP/1.1 for clients that do not
 * offer it), forwarding every request to `upstreamOrigin` over keep-alive HTTP/1.1 and
 * streaming both bodies (the console's event stream included). Returns its origin, the
 * SHA-256 of its certificate's public key (what Chromium's SPKI list takes) and `stop`.
 */
export async function startTlsTerminator(upstreamOrigin) {
  const { key, cert } = makeCertificate();
  const spki = new X509Certificate(cert).publicKey.export({ type: 'spki', format: 'der' });
  const spkiSha256 = createHash('sha256').update(spki).digest('base64');
  const upstream = new URL(upstreamOrigin);
  const agent = new http.Agent({ keepAlive: true });

  const server = http2.createSecureServer({ key, cert, allowHTTP1: true }, (request, response) => {
    const upstreamRequest = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: request.method,
        path: request.url,
        agent,
        headers: {
          ...forwardableHeaders(request.headers),
          host: request.headers[':authority'] ?? request.headers.host,
          'x-forwarded-proto': 'https',
        },
      },
      (upstreamResponse) => {
        response.writeHead(
          upstreamResponse.statusCode,
          forwardableHeaders(upstreamResponse.headers),
        );
        upstreamResponse.pipe(response);
      },
    );
    upstreamRequest.on('error', () => {
      if (!response.headersSent) response.writeHead(502);
      response.end();
    });
    // A client that goes away (a closed event stream) ends the upstream request too.
    response.on('close', () => upstreamRequest.destroy());
    request.pipe(upstreamRequest);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const sessions = new Set();
  server.on('session', (session) => {
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
  });
  return {
    origin: `https://127.0.0.1:${server.address().port}`,
    spkiSha256,
    stop: async () => {
      for (const session of sessions) session.destroy();
      await new Promise((resolve) => server.close(resolve));
      agent.destroy();
    },
  };
}
