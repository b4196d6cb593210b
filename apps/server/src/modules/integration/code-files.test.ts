import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  CODE_FILE_BODY_LIMIT_BYTES,
  CODE_FILE_HISTORY_LIMIT,
  CODE_FILE_MAX_BYTES,
  codeFileListSchema,
  codeFileNames,
  codeFileSchema,
  codeFileVersionListSchema,
  errorBodySchema,
  type CodeFile,
  type CodeFileName,
} from '@latchkey/contracts';
import { codeFiles, codeFileVersions, ownerAccounts } from '../../db/schema/index.ts';
import { createManualClock } from '../../lib/clock.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';
import { signInOwner, type SignedInOwner } from '../../../test/test-app.ts';
import { codeFileSeeds } from './code-file-seeds.ts';

describe('owner API: the code editor documents', () => {
  const clock = createManualClock(new Date('2026-05-01T09:00:00Z'));
  const testApp = startTestAppForSuite({ clock });
  /** The site's first account: the owner, who holds edit_code by role. */
  const owner = signInOwnerForSuite(testApp);
  /** A vendor with edit_code: what separates them from the owner's documents is the data. */
  const vendor = signInOwnerForSuite(testApp);
  /** A vendor without edit_code: reads, never writes. */
  const reader = signInOwnerForSuite(testApp);

  beforeAll(async () => {
    await testApp.database.db
      .update(ownerAccounts)
      .set({ permissions: ['manage_applications', 'edit_code'] })
      .where(eq(ownerAccounts.id, vendor.accountId));
    await testApp.database.db
      .update(ownerAccounts)
      .set({ permissions: ['manage_applications', 'delete_applications'] })
      .where(eq(ownerAccounts.id, reader.accountId));
  });

  const request = (
    method: 'GET' | 'PUT' | 'POST',
    url: string,
    who: SignedInOwner,
    payload?: unknown,
  ) =>
    testApp.app.inject({
      method,
      url,
      headers: who.headers,
      ...(payload === undefined ? {} : { payload: payload as string }),
    });

  const readFile = async (name: CodeFileName, who: SignedInOwner): Promise<CodeFile> => {
    const response = await request('GET', `/api/code-files/${name}`, who);
    expect(response.statusCode, response.body).toBe(200);
    return codeFileSchema.parse(response.json());
  };

  const save = async (
    name: CodeFileName,
    who: SignedInOwner,
    body: { content: string; baseVersion?: number },
  ) => request('PUT', `/api/code-files/${name}`, who, body);

  const readVersions = async (name: CodeFileName, who: SignedInOwner) => {
    const response = await request('GET', `/api/code-files/${name}/versions`, who);
    expect(response.statusCode, response.body).toBe(200);
    return codeFileVersionListSchema.parse(response.json());
  };

  it('seeds the three documents on first read, each at version 1 with its seed text', async () => {
    const response = await request('GET', '/api/code-files', owner);
    expect(response.statusCode, response.body).toBe(200);
    const files = codeFileListSchema.parse(response.json());
    expect(files.map((file) => file.name)).toEqual([...codeFileNames]);
    for (const file of files) {
      expect(file).toEqual({
        id: file.name,
        name: file.name,
        language: 'typescript',
        lastModified: '2026-05-01T09:00:00.000Z',
        canEdit: true,
        version: 1,
      });
      // The list stays light: the text comes with the file.
      expect(file).not.toHaveProperty('content');
    }
    const authentication = await readFile('authentication.ts', owner);
    expect(authentication.content).toBe(codeFileSeeds['authentication.ts']);
    expect(authentication.content).toContain('/api/v1/login');
    expect((await readFile('permissions.ts', owner)).content).toContain('edit_code');
    expect((await readFile('api-routes.ts', owner)).content).toContain('GET /api/code-files');

    const { versions, limit } = await readVersions('permissions.ts', owner);
    expect(limit).toBe(CODE_FILE_HISTORY_LIMIT);
    expect(versions).toEqual([
      expect.objectContaining({
        version: 1,
        origin: 'seed',
        savedBy: null,
        restoredFrom: null,
        isCurrent: true,
        sizeBytes: Buffer.byteLength(codeFileSeeds['permissions.ts']),
      }),
    ]);
  });

  it('seeds once when first reads race', async () => {
    const fresh = await signInOwner(testApp.app);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => request('GET', '/api/code-files', fresh)),
    );
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    const rows = await testApp.database.db
      .select()
      .from(codeFileVersions)
      .where(eq(codeFileVersions.ownerAccountId, fresh.accountId));
    expect(rows.map((row) => `${row.name}@${row.version}`).sort()).toEqual(
      codeFileNames.map((name) => `${name}@1`).sort(),
    );
  });

  it('answers 404 for any name but the three', async () => {
    for (const name of ['secrets.ts', 'AUTHENTICATION.TS', '..%2Fpackage.json', 'app.ts']) {
      for (const [method, url, payload] of [
        ['GET', `/api/code-files/${name}`],
        ['PUT', `/api/code-files/${name}`, { content: 'planted' }],
        ['GET', `/api/code-files/${name}/versions`],
        ['POST', `/api/code-files/${name}/versions/00000000-0000-4000-8000-000000000000/restore`],
      ] as const) {
        const response = await request(method, url, owner, payload);
        expect(response.statusCode, `${method} ${url}`).toBe(404);
        expect(response.json()).toEqual({ message: 'File not found', code: 'NOT_FOUND' });
      }
    }
  });

  it('saves a new version, keeping the previous one in the history', async () => {
    clock.advance(60_000);
    const saved = await save('authentication.ts', owner, {
      content: '// our login flow\n',
      baseVersion: 1,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(codeFileSchema.parse(saved.json())).toMatchObject({
      name: 'authentication.ts',
      content: '// our login flow\n',
      version: 2,
      lastModified: '2026-05-01T09:01:00.000Z',
    });
    expect((await readFile('authentication.ts', owner)).content).toBe('// our login flow\n');

    const { versions } = await readVersions('authentication.ts', owner);
    expect(versions.map((entry) => [entry.version, entry.origin, entry.isCurrent])).toEqual([
      [2, 'save', true],
      [1, 'seed', false],
    ]);
    expect(versions[0]).toMatchObject({
      savedBy: owner.account.email,
      sizeBytes: 18,
      createdAt: '2026-05-01T09:01:00.000Z',
    });
    // The other documents did not move.
    expect((await readFile('permissions.ts', owner)).version).toBe(1);
  });

  it('refuses a save made from an outdated copy (409), and writes nothing', async () => {
    const before = await readFile('authentication.ts', owner);
    const stale = await save('authentication.ts', owner, { content: 'stale', baseVersion: 1 });
    expect(stale.statusCode).toBe(409);
    expect(errorBodySchema.parse(stale.json())).toMatchObject({ code: 'CONFLICT' });
    expect(stale.json().message).toContain('changed elsewhere');
    expect(await readFile('authentication.ts', owner)).toEqual(before);
  });

  it('restores an earlier version as a new version, which can itself be undone', async () => {
    const { versions } = await readVersions('authentication.ts', owner);
    const seed = versions.find((entry) => entry.version === 1)!;
    clock.advance(60_000);
    const restored = await request(
      'POST',
      `/api/code-files/authentication.ts/versions/${seed.id}/restore`,
      owner,
    );
    expect(restored.statusCode, restored.body).toBe(200);
    const file = codeFileSchema.parse(restored.json());
    expect(file).toMatchObject({ version: 3, lastModified: '2026-05-01T09:02:00.000Z' });
    expect(file.content).toBe(codeFileSeeds['authentication.ts']);

    const history = (await readVersions('authentication.ts', owner)).versions;
    expect(history.map((entry) => [entry.version, entry.origin, entry.restoredFrom])).toEqual([
      [3, 'restore', 1],
      [2, 'save', null],
      [1, 'seed', null],
    ]);
    const undo = await request(
      'POST',
      `/api/code-files/authentication.ts/versions/${history[1]!.id}/restore`,
      owner,
    );
    expect(codeFileSchema.parse(undo.json())).toMatchObject({
      version: 4,
      content: '// our login flow\n',
    });

    // A version id belongs to its document: another document's is not found.
    const crossed = await request(
      'POST',
      `/api/code-files/permissions.ts/versions/${seed.id}/restore`,
      owner,
    );
    expect(crossed.statusCode).toBe(404);
    expect(crossed.json()).toEqual({ message: 'Version not found', code: 'NOT_FOUND' });
  });

  it(`keeps the newest ${CODE_FILE_HISTORY_LIMIT} versions of a document`, async () => {
    const saves = CODE_FILE_HISTORY_LIMIT + 5;
    for (let index = 1; index <= saves; index += 1) {
      const response = await save('api-routes.ts', owner, { content: `// revision ${index}\n` });
      expect(response.statusCode, response.body).toBe(200);
    }
    const { versions } = await readVersions('api-routes.ts', owner);
    const newest = saves + 1;
    expect(versions).toHaveLength(CODE_FILE_HISTORY_LIMIT);
    expect(versions[0]).toMatchObject({ version: newest, isCurrent: true });
    expect(versions.at(-1)!.version).toBe(newest - CODE_FILE_HISTORY_LIMIT + 1);
    // Pruned in the table, not only cut from the answer.
    const stored = await testApp.database.db
      .select({ name: codeFileVersions.name })
      .from(codeFileVersions)
      .where(eq(codeFileVersions.ownerAccountId, owner.accountId));
    expect(stored.filter((row) => row.name === 'api-routes.ts')).toHaveLength(
      CODE_FILE_HISTORY_LIMIT,
    );
  });

  it('turns concurrent saves into consecutive versions, losing none', async () => {
    const before = await readFile('permissions.ts', vendor);
    const contents = Array.from({ length: 8 }, (_, index) => `// concurrent save ${index}\n`);
    const answers = await Promise.all(
      contents.map((content) => save('permissions.ts', vendor, { content })),
    );
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    const numbers = answers.map((answer) => codeFileSchema.parse(answer.json()).version);
    expect([...numbers].sort((a, b) => a - b)).toEqual(
      contents.map((_, index) => before.version + 1 + index),
    );

    const rows = await testApp.database.db
      .select()
      .from(codeFileVersions)
      .where(eq(codeFileVersions.ownerAccountId, vendor.accountId));
    const saved = rows.filter((row) => row.name === 'permissions.ts' && row.origin === 'save');
    expect(saved.map((row) => row.content).sort()).toEqual([...contents].sort());
    // The document is the text of its newest version.
    const newest = saved.reduce((a, b) => (a.version > b.version ? a : b));
    expect((await readFile('permissions.ts', vendor)).content).toBe(newest.content);
  });

  it('accepts a document of exactly 200 KB of UTF-8 and refuses one byte more (400)', async () => {
    const exact = await save('authentication.ts', vendor, {
      content: 'x'.repeat(CODE_FILE_MAX_BYTES),
    });
    expect(exact.statusCode, exact.body).toBe(200);
    // Two bytes each in UTF-8: the limit is on bytes, not characters.
    const wide = 'é'.repeat(CODE_FILE_MAX_BYTES / 2 + 1);
    for (const content of ['x'.repeat(CODE_FILE_MAX_BYTES + 1), wide]) {
      const over = await save('authentication.ts', vendor, { content });
      expect(over.statusCode).toBe(400);
      expect(over.json()).toEqual({
        message: 'content: a file may be at most 200 KB (204800 bytes of UTF-8)',
        code: 'BAD_REQUEST',
        fields: [
          { field: 'content', message: 'a file may be at most 200 KB (204800 bytes of UTF-8)' },
        ],
      });
    }
    // Larger than the server-wide body limit, still within this route's: a full 200 KB of
    // escaped characters is a valid request.
    const escaped = await save('authentication.ts', vendor, {
      content: '"\n'.repeat(CODE_FILE_MAX_BYTES / 2),
    });
    expect(escaped.statusCode, escaped.body).toBe(200);
    const huge = await testApp.app.inject({
      method: 'PUT',
      url: '/api/code-files/authentication.ts',
      headers: { ...vendor.headers, 'content-type': 'application/json' },
      payload: JSON.stringify({ content: 'x'.repeat(CODE_FILE_BODY_LIMIT_BYTES) }),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });

  it("never shows or changes another account's documents", async () => {
    const ownerFile = await readFile('authentication.ts', owner);
    const vendorFile = await readFile('authentication.ts', vendor);
    expect(vendorFile.content).not.toBe(ownerFile.content);
    const marker = '// the vendor was here\n';
    expect((await save('api-routes.ts', vendor, { content: marker })).statusCode).toBe(200);
    expect((await readFile('api-routes.ts', owner)).content).not.toContain(marker);

    const ownerHistory = (await readVersions('authentication.ts', owner)).versions;
    for (const version of ownerHistory) {
      const attempt = await request(
        'POST',
        `/api/code-files/authentication.ts/versions/${version.id}/restore`,
        vendor,
      );
      expect(attempt.statusCode).toBe(404);
      expect(attempt.json()).toEqual({ message: 'Version not found', code: 'NOT_FOUND' });
    }
    const vendorHistory = (await readVersions('authentication.ts', vendor)).versions;
    expect(vendorHistory.map((entry) => entry.id)).not.toEqual(
      expect.arrayContaining([ownerHistory[0]!.id]),
    );
    expect(await readFile('authentication.ts', owner)).toEqual(ownerFile);
  });

  it('lets an account without edit_code read its documents, and refuses its writes (403)', async () => {
    const file = await readFile('permissions.ts', reader);
    expect(file.canEdit).toBe(false);
    const list = codeFileListSchema.parse((await request('GET', '/api/code-files', reader)).json());
    expect(list.every((entry) => !entry.canEdit)).toBe(true);

    const write = await save('permissions.ts', reader, { content: 'not allowed' });
    expect(write.statusCode).toBe(403);
    expect(write.json()).toEqual({
      message: 'You need the "Edit Code" permission to do this.',
      code: 'FORBIDDEN',
    });
    const [seed] = (await readVersions('permissions.ts', reader)).versions;
    const restore = await request(
      'POST',
      `/api/code-files/permissions.ts/versions/${seed!.id}/restore`,
      reader,
    );
    expect(restore.statusCode).toBe(403);
    expect(await readFile('permissions.ts', reader)).toEqual(file);
  });

  it("deletes an account's documents and history with the account, and nobody else's", async () => {
    const countRows = async (accountId: string) => ({
      files: (
        await testApp.database.db
          .select()
          .from(codeFiles)
          .where(eq(codeFiles.ownerAccountId, accountId))
      ).length,
      versions: (
        await testApp.database.db
          .select()
          .from(codeFileVersions)
          .where(eq(codeFileVersions.ownerAccountId, accountId))
      ).length,
    });
    const vendorBefore = await countRows(vendor.accountId);
    expect(vendorBefore.files).toBe(3);
    expect(vendorBefore.versions).toBeGreaterThan(3);
    const ownerBefore = await countRows(owner.accountId);

    const deleted = await testApp.app.inject({
      method: 'DELETE',
      url: `/api/admin/users/${vendor.accountId}`,
      headers: owner.headers,
    });
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    expect(await countRows(vendor.accountId)).toEqual({ files: 0, versions: 0 });
    expect(await countRows(owner.accountId)).toEqual(ownerBefore);
  });
});
