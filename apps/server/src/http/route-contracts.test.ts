import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

interface OpenApiOperation {
  parameters?: { in: string; name: string; required?: boolean }[];
  responses?: Record<string, unknown>;
  tags?: string[];
}
interface OpenApi {
  openapi: string;
  tags: { name: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
}

const httpMethods = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/** `/api/applications/{id}` -> `/api/applications/:id`, the URL as Fastify registers it. */
const fastifyUrlOf = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/** Every "$ref" in a JSON value, with where it was found. */
function refsIn(value: unknown, at = '#'): { ref: string; at: string }[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => refsIn(item, `${at}/${index}`));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) =>
    key === '$ref' && typeof item === 'string' ? [{ ref: item, at }] : refsIn(item, `${at}/${key}`),
  );
}

function resolvePointer(document: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  return ref
    .slice(2)
    .split('/')
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<unknown>(
      (node, part) =>
        typeof node === 'object' && node !== null && Object.hasOwn(node, part)
          ? (node as Record<string, unknown>)[part]
          : undefined,
      document,
    );
}

describe('the OpenAPI document', () => {
  let testApp: TestApp;
  let document: OpenApi;
  let documentText: string;
  const registered = new Set<string>();

  beforeAll(async () => {
    testApp = await createTestApp({
      onRoute: (route) => {
        const methods = Array.isArray(route.method) ? route.method : [route.method];
        for (const method of methods) {
          if (method !== 'HEAD') registered.add(`${method} ${route.url}`);
        }
      },
    });
    const response = await testApp.app.inject({ url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    documentText = response.body;
    document = response.json();
  });
  afterAll(() => testApp.close());

  it('documents every route the app registers, and no other', () => {
    const documented = new Set(
      Object.entries(document.paths).flatMap(([path, item]) =>
        Object.keys(item)
          .filter((method) => httpMethods.includes(method))
          .map((method) => `${method.toUpperCase()} ${fastifyUrlOf(path)}`),
      ),
    );
    // The console's static files and SPA fallback (registered only with SERVE_CONSOLE) are
    // the browser's, not the API's.
    const apiRoutes = [...registered].filter((key) => key.split(' ')[1]!.startsWith('/api'));
    expect(apiRoutes.length).toBeGreaterThan(40);
    const undocumented = apiRoutes.filter((key) => !documented.has(key)).sort();
    expect(
      undocumented,
      `Routes registered without a definition: ${undocumented.join(', ') || 'none'}. Register ` +
        "each from a definition in its module's routes.ts (routeDefiner in " +
        'apps/server/src/http/route-definition.ts: method, path, permission, caller, tag, ' +
        'summary, the zod schemas it parses, responses, errors and its handler), export the ' +
        "list from the module's index.ts and add it to apps/server/src/route-table.ts.",
    ).toEqual([]);
    const stale = [...documented].filter((key) => !registered.has(key)).sort();
    expect(stale, 'Defined but not registered: register them or remove their definitions').toEqual(
      [],
    );
  });

  it('is OpenAPI 3.1 whose every $ref resolves', () => {
    expect(document.openapi).toBe('3.1.0');
    const refs = refsIn(document);
    expect(refs.length).toBeGreaterThan(20);
    const broken = refs.filter(({ ref }) => resolvePointer(document, ref) === undefined);
    expect(broken).toEqual([]);
  });

  it('declares every path parameter, and every operation has a declared tag and answers', () => {
    const tagNames = new Set(document.tags.map((tag) => tag.name));
    for (const [path, item] of Object.entries(document.paths)) {
      const templated = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
      for (const [method, operation] of Object.entries(item)) {
        const where = `${method.toUpperCase()} ${path}`;
        const pathParameters = (operation.parameters ?? []).filter((p) => p.in === 'path');
        expect(pathParameters.map((p) => p.name).sort(), where).toEqual(templated);
        expect(
          pathParameters.every((p) => p.required === true),
          where,
        ).toBe(true);
        expect(Object.keys(operation.responses ?? {}).length, where).toBeGreaterThan(0);
        for (const status of Object.keys(operation.responses ?? {})) {
          expect(status, where).toMatch(/^[1-5]\d\d$/);
        }
        expect(
          operation.tags?.every((tag) => tagNames.has(tag)),
          where,
        ).toBe(true);
      }
    }
  });

  it('documents the error shapes and the client API signature', () => {
    const login = document.paths['/api/v1/login']!.post!;
    const answers = login.responses as Record<string, { headers?: Record<string, unknown> }>;
    for (const status of ['200', '400', '401', '413', '429']) {
      expect(Object.keys(answers[status]?.headers ?? {}), status).toEqual(
        expect.arrayContaining(['x-signature-ed25519', 'x-signature-timestamp']),
      );
    }
    expect(Object.keys(answers['429']!.headers!)).toContain('retry-after');
    expect(documentText).toContain('"#/components/schemas/Error"');
    expect(documentText).toContain('"#/components/schemas/ClientError"');
  });

  it('is public, and generated once: two fetches give the same bytes', async () => {
    const again = await testApp.app.inject({ url: '/api/openapi.json' });
    expect(again.statusCode).toBe(200);
    expect(again.body).toBe(documentText);
  });
});
