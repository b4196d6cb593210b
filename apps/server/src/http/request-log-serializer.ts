import type { FastifyRequest } from 'fastify';

const REDACTED = '[redacted]';
const DOWNLOAD_TOKEN_IN_PATH = /^(\/api\/v1\/downloads\/)[^/?#]+/;
/**
 * Query parameters whose names say they carry a secret: a token, a key, a password, a
 * signature, a one-time code, a session id. Matched on the name alone, so a route added later
 * (a mail link's `?token=`, a KeyAuth-style `?key=&pass=&sessionid=`) is covered by itself.
 */
const SECRET_PARAMETER_NAME =
  /token|key|secret|pass|pwd|signature|^sig$|code|auth|credential|session_?id|^sid$/i;
/** A licence list's (and its export's) search may be a whole licence key: found by its digest. */
const LICENSE_LIST_PATH = /\/licenses(?:\/export\.csv)?\/?$/;

/**
 * A request's URL as logs may hold it: a download URL's token cut from the path, and the value
 * of every query parameter that may carry a bearer secret replaced; the other parameters stay,
 * so a log line still says what was asked.
 */
export function loggableUrl(url: string): string {
  const queryStart = url.indexOf('?');
  const path = queryStart < 0 ? url : url.slice(0, queryStart);
  const loggedPath = path.replace(DOWNLOAD_TOKEN_IN_PATH, `$1${REDACTED}`);
  if (queryStart < 0) return loggedPath;
  const isLicenseList = LICENSE_LIST_PATH.test(path);
  const parameters = url
    .slice(queryStart + 1)
    .split('&')
    .map((parameter) => {
      const separator = parameter.indexOf('=');
      if (separator < 0) return parameter;
      const rawName = parameter.slice(0, separator);
      const name = decodedName(rawName);
      const isSecret =
        SECRET_PARAMETER_NAME.test(name) || (isLicenseList && name.toLowerCase() === 'search');
      return isSecret ? `${rawName}=${REDACTED}` : parameter;
    });
  return `${loggedPath}?${parameters.join('&')}`;
}

/** The name as the query parser reads it, so `?%74oken=` is the `token` it stands for. */
function decodedName(rawName: string): string {
  const name = rawName.replaceAll('+', ' ');
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/**
 * The request as Fastify logs it ("incoming request", errors), with the fields of its default
 * serializer, but bearer secrets cut from the URL (guide: bearer secrets are never logged).
 * Headers are not logged at all.
 */
export function serializeRequestForLog(request: FastifyRequest) {
  return {
    method: request.method,
    url: loggableUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
