/**
 * SMTP_URL, checked at start-up: `smtp://user:pass@host:587` (STARTTLS when the server offers
 * it) or `smtps://…:465` (TLS from the first byte). A malformed one fails the start with the
 * reason, rather than every mail failing later with a connection error nobody reads.
 */
export function smtpUrlProblem(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'SMTP_URL is not a URL: write it as smtp://user:password@mail.example.com:587';
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    return `SMTP_URL must start with smtp:// or smtps:// (got ${url.protocol}//)`;
  }
  if (!url.hostname) return 'SMTP_URL names no host: smtp://user:password@mail.example.com:587';
  if (url.pathname !== '' && url.pathname !== '/') {
    return 'SMTP_URL must not have a path: only smtp://user:password@host:port';
  }
  return null;
}

/** Where mail goes, for the start-up line and the console: never the credentials. */
export function describeSmtpUrl(text: string): string {
  const url = new URL(text);
  return `${url.protocol}//${url.hostname}${url.port ? `:${url.port}` : ''}`;
}
