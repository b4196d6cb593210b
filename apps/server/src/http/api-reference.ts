import fastifyApiReference from '@scalar/fastify-api-reference';
import type { FastifyInstance, onSendHookHandler } from 'fastify';
import type { RouteContract } from './route-contract.ts';
import { createOpenApiDocument } from './openapi-document.ts';
import { inlineScriptHashes } from './security-headers.ts';

export const OPENAPI_DOCUMENT_PATH = '/api/openapi.json';
export const API_REFERENCE_PATH = '/api/reference';

/**
 * The OpenAPI document and its rendered reference (Scalar), both public: they describe the
 * public client API and the shapes of the owner API, and hold no secret or per-deployment
 * data. Registered in the browser scope, so helmet's headers apply. The document is generated
 * once, here, at start-up.
 */
export async function registerApiReference(
  app: FastifyInstance,
  routeContracts: Readonly<Record<string, RouteContract>>,
): Promise<void> {
  const documentText = JSON.stringify(createOpenApiDocument(routeContracts));
  app.get(OPENAPI_DOCUMENT_PATH, async (_request, reply) =>
    reply.type('application/json; charset=utf-8').send(documentText),
  );

  await app.register(async (reference) => {
    reference.addHook('onSend', allowOwnInlineScripts);
    reference.addHook('onSend', switchOffScalarsEvalProbe);
    // Scalar's bundle is served by the plugin from the installed package (no CDN); the page
    // loads the document from our own route. No Scalar fonts, telemetry, AI agent or toolbar
    // (they call Scalar's hosted services).
    await reference.register(fastifyApiReference, {
      routePrefix: API_REFERENCE_PATH,
      logLevel: 'warn',
      configuration: {
        url: OPENAPI_DOCUMENT_PATH,
        pageTitle: 'Latchkey API reference',
        withDefaultFonts: false,
        telemetry: false,
        hideClientButton: true,
        showDeveloperTools: 'never',
        agent: { disabled: true },
        documentDownloadType: 'json',
      },
    });
  });
}

/**
 * Scalar's page starts with one inline script (its configuration). The site-wide policy
 * allows no inline script, so this page alone adds the hash of exactly the scripts it
 * serves: nothing else is loosened, for this page or any other.
 */
const allowOwnInlineScripts: onSendHookHandler = (_request, reply, payload, done) => {
  const policy = reply.getHeader('content-security-policy');
  const contentType = String(reply.getHeader('content-type') ?? '');
  if (
    typeof policy === 'string' &&
    typeof payload === 'string' &&
    contentType.startsWith('text/html')
  ) {
    reply.header('content-security-policy', withScriptSources(policy, inlineScriptHashes(payload)));
  }
  done(null, payload);
};

/**
 * Scalar's bundle carries its own copy of zod, which probes `new Function("")` to decide
 * whether to compile its parsers. The policy refuses eval, so the probe fails quietly, but the
 * browser still reports a CSP violation on the page. The bundle does not expose zod's
 * `config()`; every copy of zod keeps its settings in one shared global object, created on
 * first use, so setting `jitless` there before the bundle runs skips the probe.
 */
export const SCALAR_JITLESS_PREFIX = '(globalThis.__zod_globalConfig ??= {}).jitless = true;\n';

const switchOffScalarsEvalProbe: onSendHookHandler = (request, reply, payload, done) => {
  const contentType = String(reply.getHeader('content-type') ?? '');
  if (
    typeof payload === 'string' &&
    contentType.startsWith('application/javascript') &&
    request.routeOptions.url?.endsWith('/js/scalar.js')
  ) {
    done(null, SCALAR_JITLESS_PREFIX + payload);
    return;
  }
  done(null, payload);
};

/** The policy with sources added to its script-src directive. */
export function withScriptSources(policy: string, sources: string[]): string {
  if (sources.length === 0) return policy;
  return policy
    .split(';')
    .map((directive) => {
      const trimmed = directive.trim();
      return trimmed.startsWith('script-src ') ? `${trimmed} ${sources.join(' ')}` : trimmed;
    })
    .join(';');
}
