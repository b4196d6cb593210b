import { request as httpRequest } from 'node:http';

/** The bytes the server sends for `url` to a client that accepts only gzip. */
export function fetchGzipSize(
  url: string,
): Promise<{ bytes: number; encoding: string | undefined }> {
  return new Promise((resolve, reject) => {
    // node:http rather than Playwright's request context, which would decompress the body.
    const outgoing = httpRequest(url, { headers: { 'accept-encoding': 'gzip' } }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => (bytes += chunk.length));
      response.on('end', () => resolve({ bytes, encoding: response.headers['content-encoding'] }));
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}
