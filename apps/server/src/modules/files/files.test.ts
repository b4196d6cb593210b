import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  APP_FILE_RELEASE_REQUIRES_SESSION,
  appFileListSchema,
  appFileSchema,
  applicationSchema,
  clientAuthResponseSchema,
  clientFileResponseSchema,
  errorBodySchema,
  type AppFile,
  type Application,
} from '@latchkey/contracts';
import { appFileChunks, appFiles } from '../../db/schema/index.ts';
import { createManualClock } from '../../lib/clock.ts';
import {
  callClientApi,
  createAppUserViaApi,
  createApplicationViaApi,
} from '../../../test/factories.ts';
import { signInOwner, type TestApp } from '../../../test/test-app.ts';
import { sweepExpiredRows } from '../retention/sweep-expired-rows.ts';
import {
  signInOwnerForSuite,
  startTestAppForSuite,
  startTestAppWithSecondConnection,
} from '../../../test/suite-test-app.ts';
import { clientOutcome, startClientSession } from '../../../test/client-calls.ts';

const PASSWORD = 'correct horse battery staple';
const sha256Of = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('files and the update channel', () => {
  const clock = createManualClock(new Date('2026-06-01T12:00:00Z'));
  // MAX_UPLOAD_MB=4: the limit is tested with a small body.
  const { testApp, otherConnection } = startTestAppWithSecondConnection({
    clock,
    env: { MAX_UPLOAD_MB: '4' },
  });
  // A second instance on the same database: its cached applications must drop a release too.
  const otherInstance = startTestAppForSuite(() => ({
    clock,
    database: otherConnection,
    env: { SERVER_SECRET: testApp.config.serverSecret },
  }));
  const owner = signInOwnerForSuite(testApp);

  const db = () => testApp.database.db;

  const upload = (
    applicationId: number,
    bytes: Buffer,
    query: Record<string, string> = { name: 'setup.exe', version: '2.0.0' },
    headers: Record<string, string> = owner.headers,
  ) =>
    testApp.app.inject({
      method: 'POST',
      url: `/api/applications/${applicationId}/files?${new URLSearchParams(query)}`,
      headers: { ...headers, 'content-type': 'application/octet-stream' },
      payload: bytes,
    });
  const uploaded = async (
    applicationId: number,
    bytes: Buffer,
    query?: Record<string, string>,
  ): Promise<AppFile> => {
    const response = await upload(applicationId, bytes, query);
    expect(response.statusCode, response.body).toBe(201);
    return appFileSchema.parse(response.json());
  };
  const setRelease = (application: Application, fileId: string | null) =>
    testApp.app.inject({
      method: 'PUT',
      url: `/api/applications/${application.id}`,
      headers: owner.headers,
      payload: { currentReleaseFileId: fileId },
    });
  const listFiles = async (applicationId: number) => {
    const response = await testApp.app.inject({
      url: `/api/applications/${applicationId}/files`,
      headers: owner.headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    return appFileListSchema.parse(response.json());
  };
  const rowsOf = (fileId: string) =>
    db().select({ id: appFiles.id }).from(appFiles).where(eq(appFiles.id, fileId));

  /** Logs a new user in and starts a session with login's token. */
  const startSession = async (application: Application) => {
    const user = await createAppUserViaApi(testApp.app, owner, application.id, {
      password: PASSWORD,
    });
    const token = await startClientSession(testApp.app, application, user, PASSWORD);
    return { user, token };
  };
  const askForUrl = async (application: Application, body: Record<string, unknown>) => {
    const response = await callClientApi(testApp.app, 'file', {
      apiKey: application.apiKey,
      body,
    });
    return clientOutcome(clientFileResponseSchema, response);
  };
  const download = (url: string, headers: Record<string, string> = {}) => {
    const { pathname } = new URL(url);
    return testApp.app.inject({ url: pathname, headers });
  };

  it('stores an upload in 1 MiB chunks, answers its record and lists it', async () => {
    const application = await createApplicationViaApi(testApp.app, owner);
    const bytes = randomBytes(1024 * 1024 + 10);
    const file = await uploaded(application.id, bytes, {
      name: 'Setup Ünïcode.exe',
      version: '2.0.0',
      platform: 'windows-x64',
      requiresSession: 'false',
    });
    expect(file).toMatchObject({
      name: 'Setup Ünïcode.exe',
      version: '2.0.0',
      platform: 'windows-x64',
      size: bytes.length,
      sha256: sha256Of(bytes),
      requiresSession: false,
      downloadCount: 0,
    });
    const chunks = await db()
      .select({ index: appFileChunks.chunkIndex, data: appFileChunks.data })
      .from(appFileChunks)
      .where(eq(appFileChunks.fileId, file.id))
      .orderBy(appFileChunks.chunkIndex);
    expect(chunks.map((chunk) => [chunk.index, chunk.data.length])).toEqual([
      [0, 1024 * 1024],
      [1, 10],
    ]);
    expect(Buffer.concat(chunks.map((chunk) => chunk.data)).equals(bytes)).toBe(true);
    expect(await listFiles(application.id)).toEqual([file]);
  });

  it('refuses a body over MAX_UPLOAD_MB with 413 and keeps nothing, with or without a length', async () => {
    const application = await createApplicationViaApi(testApp.app, owner);
    const chunkCount = async () => (await db().select().from(appFileChunks)).length;
    const chunksBefore = await chunkCount();
    const tooLarge = randomBytes(4 * 1024 * 1024 + 1);
    const declared = await upload(application.id, tooLarge);
    expect(declared.statusCode).toBe(413);
    expect(declared.json()).toEqual({
      message: expect.stringContaining('upload limit of 4 MB'),
      code: 'PAYLOAD_TOO_LARGE',
    });
    // Chunked: no Content-Length, so the limit is met while streaming, after chunks are stored.
    // Over a real socket: the answer comes while the body is still being sent.
    await testApp.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = testApp.app.server.address() as AddressInfo;
    const streamed = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const outgoing = request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: `/api/applications/${application.id}/files?name=big.bin&version=1`,
        headers: {
          ...owner.headers,
          origin: `http://127.0.0.1:${port}`,
          'content-type': 'application/octet-stream',
          'transfer-encoding': 'chunked',
        },
      });
      outgoing.on('response', (response) => {
        let body = '';
        response.on('data', (data: Buffer) => (body += data.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      });
      // The server may close the connection before the whole body is written: expected.
      outgoing.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
      });
      for (let offset = 0; offset < tooLarge.length; offset += 256 * 1024) {
        outgoing.write(tooLarge.subarray(offset, offset + 256 * 1024));
      }
      outgoing.end();
    });
    expect(streamed.status, streamed.body).toBe(413);
    const left = await db()
      .select({ id: appFiles.id })
      .from(appFiles)
      .where(eq(appFiles.applicationId, application.id));
    expect(left).toEqual([]);
    expect(await chunkCount()).toBe(chunksBefore);
  });

  it('refuses an upload that is not raw bytes, and a missing name or version', async () => {
    const application = await createApplicationViaApi(testApp.app, owner);
    const json = await testApp.app.inject({
      method: 'POST',
      url: `/api/applications/${application.id}/files?name=a&version=1`,
      headers: owner.headers,
      payload: { bytes: 'nope' },
    });
    expect(json.statusCode).toBe(415);
    expect(json.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
    const unnamed = await upload(application.id, Buffer.from('x'), { version: '1' });
    expect(unnamed.statusCode).toBe(400);
    expect(unnamed.json()).toEqual({
      message: 'name: Please enter a file name',
      code: 'BAD_REQUEST',
      fields: [{ field: 'name', message: 'Please enter a file name' }],
    });
    expect(await listFiles(application.id)).toEqual([]);
  });

  it("keeps owners apart: another owner's application and files are not found", async () => {
    const application = await createApplicationViaApi(testApp.app, owner);
    const file = await uploaded(application.id, Buffer.from('victim bytes'));
    const intruder = await signInOwner(testApp.app);
    const planted = await upload(application.id, Buffer.from('x'), undefined, intruder.headers);
    expect(planted.statusCode).toBe(404);
    expect(planted.json()).toEqual({ message: 'Application not found', code: 'NOT_FOUND' });
    const intruderApplication = await createApplicationViaApi(testApp.app, intruder);
    const deleted = await testApp.app.inject({
      method: 'DELETE',
      url: `/api/applications/${intruderApplication.id}/files/${file.id}`,
      headers: intruder.headers,
    });
    expect(deleted.statusCode).toBe(404);
    expect(deleted.json()).toEqual({ message: 'File not found', code: 'NOT_FOUND' });
    const released = await testApp.app.inject({
      method: 'PUT',
      url: `/api/applications/${intruderApplication.id}`,
      headers: intruder.headers,
      payload: { currentReleaseFileId: file.id },
    });
    expect(released.statusCode).toBe(404);
    expect(released.json()).toEqual({ message: 'File not found', code: 'NOT_FOUND' });
    expect(await rowsOf(file.id)).toHaveLength(1);
    // And the client API: another application's file is FILE_NOT_FOUND, like an unknown one.
    const otherApp = await createApplicationViaApi(testApp.app, owner);
    for (const fileId of [file.id, randomUUID(), 'not-a-uuid']) {
      const answer = await askForUrl(otherApp, { file_id: fileId });
      expect(answer).toEqual({
        success: false,
        code: 'FILE_NOT_FOUND',
        message: 'No such file for this application',
      });
    }
  });

  it('issues a download URL only for a live session, unless the file needs none; counts each URL', async () => {
    const application = await createApplicationViaApi(testApp.app, owner);
    const bytes = Buffer.from('installer bytes');
    const gated = await uploaded(application.id, bytes);
    expect(gated.requiresSession).toBe(true);
    for (const session_token of [undefined, 'sess_unknown', `sess_${'a'.repeat(32)}_1`]) {
      expect(await askForUrl(application, { file_id: gated.id, session_token })).toMatchObject({
        success: false,
        code: 'SESSION_INVALID',
      });
    }
    const { token } = await startSession(application);
    const answer = await askForUrl(application, { file_id: gated.id, session_token: token });
    expect(answer).toMatchObject({
      success: true,
      code: 'OK',
      size: bytes.length,
      sha256: sha256Of(bytes),
      expires_at: new Date(clock.now().getTime() + 300_000).toISOString(),
    });
    expect(answer.url).toMatch(
      // Bound to the session's user (22 characters) with a 128-bit MAC: see download-token.ts.
      new RegExp(
        `^http://localhost:80/api/v1/downloads/${gated.id}\\.\\d+\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{22}$`,
      ),
    );
    const ended = await callClientApi(testApp.app, 'session/track', {
      apiKey: application.apiKey,
      body: { action: 'end', session_token: token },
    });
    expect(ended.json()).toMatchObject({ code: 'OK' });
    expect(await askForUrl(application, { file_id: gated.id, session_token: token })).toMatchObject(
      { code: 'SESSION_INVALID' },
    );

    const open = await uploaded(application.id, bytes, {
      name: 'open.zip',
      version: '1',
      requiresSession: 'false',
    });
    expect(await askForUrl(application, { file_id: open.id })).toMatchObject({ code: 'OK' });
    expect(await askForUrl(application, { file_id: open.id })).toMatchObject({ code: 'OK' });
    const counts = Object.fromEntries((await listFiles(application.id)).map((f) => [f.id, f]));
    expect(counts[gated.id]?.downloadCount).toBe(1);
    expect(counts[open.id]?.downloadCount).toBe(2);
  });

  it('serves the bytes with Range (a-b, a-, -n), 416 past the end, many times, and HEAD', async () => {
    const application = await createApplicationViaApi(testApp.app, owner);
    // Three chunks and a bit: ranges that cross chunk boundaries.
    const bytes = randomBytes(3 * 1024 * 1024 + 100);
    const file = await uploaded(application.id, bytes, {
      name: 'app "v2".bin',
      version: '2',
      requiresSession: 'false',
    });
    const { url } = await askForUrl(application, { file_id: file.id });
    const whole = await download(url!);
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload.equals(bytes)).toBe(true);
    expect(whole.headers).toMatchObject({
      'content-type': 'application/octet-stream',
      'content-length': String(bytes.length),
      'accept-ranges': 'bytes',
      etag: `"${file.sha256}"`,
      'content-disposition': `attachment; filename="app _v2_.bin"; filename*=UTF-8''app%20%22v2%22.bin`,
    });
    const mib = 1024 * 1024;
    const cases: [string, number, number][] = [
      [`bytes=${mib - 5}-${2 * mib + 4}`, mib - 5, 2 * mib + 4],
      [`bytes=${3 * mib}-`, 3 * mib, bytes.length - 1],
      ['bytes=-150', bytes.length - 150, bytes.length - 1],
      ['bytes=0-0', 0, 0],
      [`bytes=10-${bytes.length + 1000}`, 10, bytes.length - 1],
    ];
    for (const [range, start, end] of cases) {
      const part = await download(url!, { range });
      expect(part.statusCode, range).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes ${start}-${end}/${bytes.length}`);
      expect(part.headers['content-length']).toBe(String(end - start + 1));
      expect(part.rawPayload.equals(bytes.subarray(start, end + 1)), range).toBe(true);
    }
    const past = await download(url!, { range: `bytes=${bytes.length}-` });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${bytes.length}`);
    expect(past.json()).toMatchObject({ code: 'RANGE_NOT_SATISFIABLE' });
    const head = await testApp.app.inject({ method: 'HEAD', url: new URL(url!).pathname });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(bytes.length));
    expect(head.rawPayload.length).toBe(0);
    // Fetches of one URL do not count: one URL issued is one download.
    expect((await listFiles(application.id))[0]?.downloadCount).toBe(1);
  });

  it('refuses an expired URL and any change to any part of the token, with 403 and no bytes', async () => {
    const application = await createApplicationViaApi(testApp.app, owner);
    const file = await uploaded(application.id, Buffer.from('secret build'), {
      name: 'a.bin',
      version: '1',
      requiresSession: 'false',
    });
    const other = await uploaded(application.id, Buffer.from('other build'), {
      name: 'b.bin',
      version: '1',
      requiresSession: 'false',
    });
    const { url } = await askForUrl(application, { file_id: file.id });
    const { pathname } = new URL(url!);
    const [fileId, expires, mac] = pathname.split('/').at(-1)!.split('.') as [
      string,
      string,
      string,
    ];
    const flip = (text: string, at = text.length - 1) =>
      text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);
    const forged = [
      `${other.id}.${expires}.${mac}`,
      `${fileId}.${Number(expires) + 3600}.${mac}`,
      `${fileId}.${expires}.${flip(mac)}`,
      `${fileId}.${expires}.${flip(mac, 0)}`,
      `${fileId}.${expires}`,
      `${fileId}..${mac}`,
      'nothing-like-a-token',
    ];
    for (const token of forged) {
      const response = await testApp.app.inject({ url: `/api/v1/downloads/${token}` });
      expect(response.statusCode, token).toBe(403);
      expect(response.json()).toEqual({
        message: 'This download link is not valid or has expired',
        code: 'FORBIDDEN',
      });
    }
    expect((await download(url!)).statusCode).toBe(200);
    clock.advance(299_000);
    expect((await download(url!)).statusCode).toBe(200);
    clock.advance(1_000);
    const expired = await download(url!);
    expect(expired.statusCode).toBe(403);
    expect(expired.body).not.toContain('secret build');
  });

  it('throttles refused download tokens per address, and a valid one from elsewhere still works', async () => {
    const application = await createApplicationViaApi(testApp.app, owner);
    const file = await uploaded(application.id, Buffer.from('throttled build'), {
      name: 'c.bin',
      version: '1',
      requiresSession: 'false',
    });
    const { url } = await askForUrl(application, { file_id: file.id });
    const { pathname } = new URL(url!);
    // Another character of the MAC (never the one it has: 1 run in 64 would guess the real
    // token), a different one each time: one link tried again is stopped sooner.
    const wrong = (attempt: number) => {
      const at = pathname.length - attempt;
      return `${pathname.slice(0, at)}${pathname[at] === 'A' ? 'B' : 'A'}${pathname.slice(at + 1)}`;
    };
    const guess = (remoteAddress: string, path: string) =>
      testApp.app.inject({ url: path, remoteAddress });
    // The licence limits apply: 20 refused tokens from one address in the window.
    for (let attempt = 1; attempt <= 20; attempt += 1) {
      expect((await guess('203.0.113.9', wrong(attempt))).statusCode).toBe(403);
    }
    const throttled = await guess('203.0.113.9', wrong(21));
    expect(throttled.statusCode).toBe(429);
    expect(throttled.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    // Even a valid link waits from that address; from another it downloads.
    expect((await guess('203.0.113.9', pathname)).statusCode).toBe(429);
    expect((await guess('203.0.113.10', pathname)).body).toBe('throttled build');
  });

  it('sets, refuses and clears the current release; VERSION_MISMATCH offers it on every instance', async () => {
    const application = await createApplicationViaApi(testApp.app, owner);
    const user = await createAppUserViaApi(testApp.app, owner, application.id, {
      password: PASSWORD,
    });
    const oldLogin = (app: TestApp) =>
      callClientApi(app.app, 'login', {
        apiKey: application.apiKey,
        body: { username: user.username, password: PASSWORD, version: '0.9.0' },
      });
    // Without a release the answer is exactly as before: no update field.
    const before = await oldLogin(otherInstance);
    expect(before.json()).toEqual({
      success: false,
      code: 'VERSION_MISMATCH',
      message: application.versionMismatchMessage,
    });

    const bytes = Buffer.from('version 2 installer');
    // A file that requires a session is refused: an old version cannot log in to fetch it.
    const gated = await uploaded(application.id, bytes);
    expect(gated.requiresSession).toBe(true);
    const refused = await setRelease(application, gated.id);
    expect(refused.statusCode).toBe(400);
    expect(errorBodySchema.parse(refused.json())).toEqual({
      message: APP_FILE_RELEASE_REQUIRES_SESSION,
      code: 'BAD_REQUEST',
      fields: [{ field: 'currentReleaseFileId', message: APP_FILE_RELEASE_REQUIRES_SESSION }],
    });
    expect(refused.json().message).toMatch(/older version cannot sign in/);
    const unchanged = await testApp.app.inject({
      url: '/api/applications',
      headers: owner.headers,
    });
    expect(
      (unchanged.json() as Application[]).find((a) => a.id === application.id)
        ?.currentReleaseFileId,
    ).toBeNull();
    expect((await oldLogin(otherInstance)).json()).not.toHaveProperty('update');

    const file = await uploaded(application.id, bytes, {
      name: 'setup.exe',
      version: '2.0.0',
      requiresSession: 'false',
    });
    const unknown = await setRelease(application, randomUUID());
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'File not found', code: 'NOT_FOUND' });
    const malformed = await setRelease(application, 'file-1' as string);
    expect(malformed.statusCode).toBe(400);

    const set = await setRelease(application, file.id);
    expect(set.statusCode, set.body).toBe(200);
    expect(applicationSchema.parse(set.json()).currentReleaseFileId).toBe(file.id);
    const offered = await oldLogin(otherInstance);
    expect(clientAuthResponseSchema.parse(offered.json())).toEqual({
      success: false,
      code: 'VERSION_MISMATCH',
      message: application.versionMismatchMessage,
      update: { version: '2.0.0', file_id: file.id, size: bytes.length, sha256: sha256Of(bytes) },
    });
    // A login of the right version is unchanged.
    const current = await callClientApi(testApp.app, 'login', {
      apiKey: application.apiKey,
      body: { username: user.username, password: PASSWORD, version: application.version },
    });
    expect(current.json()).not.toHaveProperty('update');

    const cleared = await setRelease(application, null);
    expect(applicationSchema.parse(cleared.json()).currentReleaseFileId).toBeNull();
    expect((await oldLogin(otherInstance)).json()).not.toHaveProperty('update');

    // Deleting the release clears it, and no instance offers it any more.
    expect((await setRelease(application, file.id)).statusCode).toBe(200);
    expect((await oldLogin(otherInstance)).json()).toHaveProperty('update');
    const deleted = await testApp.app.inject({
      method: 'DELETE',
      url: `/api/applications/${application.id}/files/${file.id}`,
      headers: owner.headers,
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await rowsOf(file.id)).toEqual([]);
    expect(
      await db().select().from(appFileChunks).where(eq(appFileChunks.fileId, file.id)),
    ).toEqual([]);
    const reread = await testApp.app.inject({
      url: '/api/applications',
      headers: owner.headers,
    });
    const after = (reread.json() as Application[]).find((a) => a.id === application.id);
    expect(after?.currentReleaseFileId).toBeNull();
    expect((await oldLogin(otherInstance)).json()).not.toHaveProperty('update');
    expect((await oldLogin(testApp)).json()).not.toHaveProperty('update');
  });

  it('the retention sweep deletes uploads left incomplete for over an hour, and nothing else', async () => {
    const application = await createApplicationViaApi(testApp.app, owner);
    const complete = await uploaded(application.id, Buffer.from('done'));
    const insertIncomplete = async (createdAt: Date) => {
      const [row] = await db()
        .insert(appFiles)
        .values({
          applicationId: application.id,
          name: 'crashed.bin',
          version: '1',
          chunkSizeBytes: 1024 * 1024,
          createdAt,
        })
        .returning({ id: appFiles.id });
      await db()
        .insert(appFileChunks)
        .values({ fileId: row!.id, chunkIndex: 0, data: Buffer.from('partial') });
      return row!.id;
    };
    const abandoned = await insertIncomplete(new Date(clock.now().getTime() - 61 * 60_000));
    const inProgress = await insertIncomplete(new Date(clock.now().getTime() - 59 * 60_000));
    // Incomplete uploads are not listed.
    expect((await listFiles(application.id)).map((f) => f.id)).toEqual([complete.id]);
    const result = await sweepExpiredRows({
      ctx: { db: db(), log: testApp.app.log, clock, database: testApp.database },
      input: {
        sessionMs: 365 * 86_400_000,
        activityLogMs: 365 * 86_400_000,
        batchSize: 100,
        pauseMs: 0,
      },
    });
    expect(result?.incompleteUploadsDeleted).toBe(1);
    expect(await rowsOf(abandoned)).toEqual([]);
    expect(
      await db().select().from(appFileChunks).where(eq(appFileChunks.fileId, abandoned)),
    ).toEqual([]);
    expect(await rowsOf(inProgress)).toHaveLength(1);
    expect(await rowsOf(complete.id)).toHaveLength(1);
  });
});
