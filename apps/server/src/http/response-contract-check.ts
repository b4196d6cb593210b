import type { FastifyReply, FastifyRequest, onSendHookHandler, RouteOptions } from 'fastify';
import { documentedResponses } from './documented-responses.ts';
import type { RouteContract } from './route-contract.ts';

export interface ContractViolation {
  route: string;
  status: number;
  problem: string;
}

/**
 * An onRoute hook for tests: every answer of a documented route is checked against what the
 * OpenAPI document says of that route and status (body by the same zod schema, undocumented
 * fields, headers, media type). A status the route does not document is a violation too.
 * The check is added as the route's own, last onSend hook, so it sees the bytes and headers
 * that leave (the client API's signature included). Off in production: it costs a parse.
 */
export function checkResponsesAgainstContracts(
  onViolation: (violation: ContractViolation) => void,
  contracts: Readonly<Record<string, RouteContract>>,
): (route: RouteOptions) => void {
  return (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const method = methods.find((candidate) => candidate !== 'HEAD');
    if (!method) return;
    const key = `${method} ${route.url}`;
    const contract = contracts[key];
    // Undocumented routes are route-contracts.test.ts's to report, with what to add.
    if (!contract) return;
    const responses = documentedResponses(key, contract);
    const check: onSendHookHandler = (request, reply, payload, done) => {
      if (request.method !== 'HEAD') {
        const problem = problemOf(responses, request, reply, payload);
        if (problem) onViolation({ route: key, status: reply.statusCode, problem });
      }
      done(null, payload);
    };
    const existing = route.onSend ? [route.onSend].flat() : [];
    route.onSend = [...existing, check];
  };
}

function problemOf(
  responses: ReturnType<typeof documentedResponses>,
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): string | null {
  const documented = responses[reply.statusCode];
  if (!documented) {
    return `status ${reply.statusCode} is not documented (documented: ${Object.keys(responses).join(', ')}); body: ${String(payload).slice(0, 300)}`;
  }
  const contentType = String(reply.getHeader('content-type') ?? '');
  if (documented.headers) {
    const headers = Object.fromEntries(
      Object.entries(reply.getHeaders()).map(([name, value]) => [name, String(value)]),
    );
    const result = documented.headers.safeParse(headers);
    if (!result.success) return `headers: ${result.error.message}`;
  }
  if (documented.mediaType) {
    return contentType.startsWith(documented.mediaType)
      ? null
      : `content-type ${contentType}, documented ${documented.mediaType}`;
  }
  if (!documented.schema) return null;
  if (documented.plainTexts && contentType.startsWith('text/plain')) {
    const text = Buffer.isBuffer(payload) ? payload.toString('utf8') : String(payload);
    return documented.plainTexts.includes(text)
      ? null
      : `undocumented text body: ${text.slice(0, 300)}`;
  }
  const jsonMediaType = documented.jsonMediaType ?? 'application/json';
  if (!contentType.startsWith(jsonMediaType)) {
    return `content-type ${contentType}, documented ${jsonMediaType}`;
  }
  const text = Buffer.isBuffer(payload) ? payload.toString('utf8') : payload;
  if (typeof text !== 'string') return `a ${typeof payload} body, documented JSON`;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `body is not JSON: ${text.slice(0, 300)}`;
  }
  const result = documented.schema.safeParse(body);
  if (!result.success) {
    return `${request.method} ${request.url}: body does not match: ${result.error.message}`;
  }
  const extra = undocumentedFields(body, result.data, '');
  return extra.length > 0 ? `undocumented fields: ${extra.join(', ')}` : null;
}

/**
 * zod strips fields an object schema does not name, but the document says
 * additionalProperties: false: whatever the parse dropped was sent without being documented.
 */
function undocumentedFields(sent: unknown, parsed: unknown, path: string): string[] {
  if (Array.isArray(sent) && Array.isArray(parsed)) {
    return sent.flatMap((item, index) =>
      undocumentedFields(item, parsed[index], `${path}[${index}]`),
    );
  }
  if (!isPlainObject(sent) || !isPlainObject(parsed)) return [];
  return Object.keys(sent).flatMap((name) =>
    Object.hasOwn(parsed, name)
      ? undocumentedFields(sent[name], parsed[name], path ? `${path}.${name}` : name)
      : [path ? `${path}.${name}` : name],
  );
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
