import { createHash } from 'node:crypto';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appFileSchema } from '@latchkey/contracts';
import { appFileChunks, appFiles } from '../../db/schema/index.ts';
import { createApplicationViaApi } from '../../../test/factories.ts';
import {
  createTestApp,
  signInOwner,
  type SignedInOwner,
  type TestApp,
} from '../../../test/test-app.ts';

const MIB = 1024 * 1024;
const isPostgres = Boolean(process.env.TEST_DATABASE_URL);
/**
 * 1 GB on PostgreSQL, where the bytes leave the process and memory can be measured. In-memory
 * PGlite keeps the whole database in this process's WebAssembly heap, so there the process
 * grows by the file's size whatever the upload does (and a gigabyte would take minutes):
 * a smaller file proves the same streaming path stores every byte, not the memory bound.
 */
const FILE_BYTES = isPostgres ? 1024 * MIB : 16 * MIB;

/** `total` bytes made as they are sent, from one reused buffer, with their SHA-256. */
function generatedBody(total: number) {
  const hash = createHash('sha256');
  const piece = Buffer.alloc(MIB);
  async function* pieces() {
    for (let sent = 0, index = 0; sent < total; index += 1) {
      const length = Math.min(MIB, total - sent);
      piece.writeUInt32BE(index, 0);
      piece.writeUInt32BE(Math.imul(index, 2_654_435_761) >>> 0, length - 4);
      const bytes = piece.subarray(0, length);
      hash.update(bytes);
      sent += length;
      yield bytes;
    }
  }
  return { pieces, digest: () => hash.digest('hex') };
}

describe('uploads stream to storage in bounded memory', () => {
  let testApp: TestApp;
  let owner: SignedInOwner;
  let port: number;

  beforeAll(async () => {
    testApp = await createTestApp({ env: { MAX_UPLOAD_MB: '2048' } });
    await testApp.app.listen({ host: '127.0.0.1', port: 0 });
    port = (testApp.app.server.address() as AddressInfo).port;
    owner = await signInOwner(testApp.app);
    if (isPostgres) {
      // A gigabyte of new rows wakes autovacuum, whose worker the test role may not terminate
      // when the teardown drops this throwaway database (test-database.ts retries for 5 s).
      await testApp.database.db.execute(
        sql`alter table app_file_chunks set (autovacuum_enabled = false, toast.autovacuum_enabled = false)`,
      );
    }
  });
  afterAll(async () => {
    // A failed case may leave a request half sent: close would wait for it.
    testApp.app.server.closeAllConnections();
    await testApp.close();
  });

  const post = (path: string, contentLength: number) =>
    request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path,
      headers: {
        ...owner.headers,
        origin: `http://127.0.0.1:${port}`,
        'content-type': 'application/octet-stream',
        'content-length': String(contentLength),
      },
    });
  const filesOf = (applicationId: number) =>
    testApp.database.db
      .select({ id: appFiles.id })
      .from(appFiles)
      .where(eq(appFiles.applicationId, applicationId));

  it(`stores a ${FILE_BYTES / MIB} MiB upload with its size and SHA-256${isPostgres ? ', memory growing by far less than the file' : ''}`, async () => {
    const application = await createApplicationViaApi(testApp.app, owner);
    const body = generatedBody(FILE_BYTES);
    global.gc?.();
    const before = process.memoryUsage();
    let peak = { rss: before.rss, arrayBuffers: before.arrayBuffers };
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      peak = {
        rss: Math.max(peak.rss, now.rss),
        arrayBuffers: Math.max(peak.arrayBuffers, now.arrayBuffers),
      };
    }, 50);
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const outgoing = post(
        `/api/applications/${application.id}/files?name=big.bin&version=1`,
        FILE_BYTES,
      );
      outgoing.on('response', (response) => {
        let text = '';
        response.on('data', (data: Buffer) => (text += data.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      });
      outgoing.on('error', reject);
      void (async () => {
        for await (const bytes of body.pieces()) {
          // Backpressure: wait whenever the socket's buffer is full, as a real client does.
          if (!outgoing.write(bytes)) {
            await new Promise((drained) => outgoing.once('drain', drained));
          }
        }
        outgoing.end();
      })().catch(reject);
    });
    clearInterval(sampler);
    expect(answer.status, answer.text).toBe(201);
    const file = appFileSchema.parse(JSON.parse(answer.text));
    expect(file.size).toBe(FILE_BYTES);
    expect(file.sha256).toBe(body.digest());
    const [chunks] = await testApp.database.db
      .select({ value: count() })
      .from(appFileChunks)
      .where(eq(appFileChunks.fileId, file.id));
    expect(chunks?.value).toBe(FILE_BYTES / MIB);
    if (isPostgres) {
      // A buffered upload would grow by the file's size (1 GiB); streamed, by a few chunks.
      expect(peak.rss - before.rss).toBeLessThan(200 * MIB);
      expect(peak.arrayBuffers - before.arrayBuffers).toBeLessThan(64 * MIB);
    }
  }, 300_000);

  it('an upload aborted midway leaves no record and no chunk', async () => {
    const application = await createApplicationViaApi(testApp.app, owner);
    const outgoing = post(
      `/api/applications/${application.id}/files?name=aborted.bin&version=1`,
      8 * MIB,
    );
    outgoing.on('error', () => {});
    outgoing.write(Buffer.alloc(3 * MIB, 7));
    // Midway means stored in part: wait until the record and a chunk are in the database.
    const deadline = Date.now() + 10_000;
    let isMidway = false;
    while (!isMidway && Date.now() < deadline) {
      const [chunks] = await testApp.database.db
        .select({ value: count() })
        .from(appFileChunks)
        .innerJoin(appFiles, eq(appFiles.id, appFileChunks.fileId))
        .where(eq(appFiles.applicationId, application.id));
      isMidway = (chunks?.value ?? 0) > 0;
      if (!isMidway) await sleep(20);
    }
    expect(isMidway).toBe(true);
    outgoing.destroy();
    while ((await filesOf(application.id)).length > 0 && Date.now() < deadline + 10_000) {
      await sleep(50);
    }
    expect(await filesOf(application.id)).toEqual([]);
  });
});
