import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { routeContracts } from '../src/route-table.ts';
import { apiRoutesDocument } from '../src/modules/integration/code-file-seeds/api-routes-document.ts';

const repositoryFile = (path: string) =>
  readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');

/** The client calls as the server registers them (their contracts): `METHOD /path`. */
const clientCalls = Object.entries(routeContracts)
  .filter(([, contract]) => contract.caller === 'client')
  .map(([route]) => route)
  .sort();

/**
 * Three places list the client calls for people: the contract page (docs/client-api.md), the
 * console's /docs reference and the code editor's seeded api-routes.ts. Each is prose or UI
 * around the list, so none is generated; this keeps each one to the calls that exist, all of
 * them.
 */
describe('the lists of client calls', () => {
  it('are the calls the server has', () => {
    expect(clientCalls.length).toBeGreaterThanOrEqual(13);
  });

  it('docs/client-api.md has a section for each call, and none for a call that does not exist', () => {
    const documented = [
      ...repositoryFile('docs/client-api.md').matchAll(/^#{2,4} `(GET|POST) (\/api\/v1\/[^`]+)`/gm),
    ].map(([, method, path]) => `${method} ${path}`);
    expect([...new Set(documented)].sort()).toEqual(clientCalls);
  });

  it('the console’s /docs reference describes each call', () => {
    const source = repositoryFile('apps/console/src/components/docs/endpoint-reference.tsx');
    const listed = [...source.matchAll(/method: '(GET|POST)',\s*path: '(\/api\/v1\/[^']+)'/g)].map(
      ([, method, path]) => `${method} ${path}`,
    );
    expect(listed.sort()).toEqual(clientCalls);
  });

  it('the code editor’s seeded api-routes.ts names each call', () => {
    const listed = [...apiRoutesDocument.matchAll(/^ {2}'((?:GET|POST) \/api\/v1\/[^']+)':/gm)].map(
      ([, route]) => route!,
    );
    expect(listed.sort()).toEqual(clientCalls);
  });
});
