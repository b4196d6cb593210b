import { readFileSync } from 'node:fs';
import { clientCallCatalogue } from '@latchkey/contracts';
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
 * The client calls are listed for people in three places: the contract page
 * (docs/client-api.md, prose written by hand), and the console's /docs reference and the code
 * editor's seeded api-routes.ts, both made from the contracts' catalogue. This keeps the
 * catalogue and the prose to the calls the server has, all of them.
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

  it('the contracts’ catalogue, which the console’s /docs reference lists, has each call', () => {
    const catalogued = Object.values(clientCallCatalogue);
    expect(catalogued.map(({ method, path }) => `${method} ${path}`).sort()).toEqual(clientCalls);
    for (const entry of catalogued) {
      const contract = routeContracts[`${entry.method} ${entry.path}`];
      expect(contract?.body ?? null, entry.path).toBe(entry.request);
      expect(contract?.responses[200]?.schema, entry.path).toBe(entry.response);
    }
  });

  it('the code editor’s seeded api-routes.ts names each call', () => {
    const listed = [...apiRoutesDocument.matchAll(/^ {2}'((?:GET|POST) \/api\/v1\/[^']+)':/gm)].map(
      ([, route]) => route!,
    );
    expect(listed.sort()).toEqual(clientCalls);
  });
});
