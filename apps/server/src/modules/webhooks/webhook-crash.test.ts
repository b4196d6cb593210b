import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/client.ts';
import {
  activityCounts,
  activityLogs,
  ownerAccounts,
  webhookDeliveries,
} from '../../db/schema/index.ts';
import { foldCounterDeltas } from '../activity/index.ts';
import { generateSigningKeyPair } from '../../lib/signing-keys.ts';
import { insertAppUserWithPassword, insertApplication } from '../../../test/factories.ts';
import { findFreePortBlock } from '../../../test/free-port-block.ts';
import { startRealServer } from '../../../test/real-server.ts';
import { insertTestWebhook, startWebhookReceiver } from '../../../test/webhook-test-receiver.ts';
import { crashTestDatabase, exited } from '../../../test/crash-test-database.ts';

const PASSWORD = 'correct horse battery';
const LOGINS = 16;
const FAILED_LOGINS = 6;

/**
 * Acknowledged means written, end to end: events acknowledged to clients, `kill -9` of the server before
 * they are delivered, a restart, and every event delivered exactly once per webhook. The
 * server is the real process (main.ts) on a real database (PGlite in DATA_DIR, or PostgreSQL
 * with TEST_DATABASE_URL). It uses a non-demo Firebase project so that it starts no Auth
 * emulator of its own (the suite's holds the port; no owner signs in here).
 */
describe('webhook deliveries survive kill -9', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'latchkey-crash-'));
  const serverSecret = randomBytes(32).toString('base64url');
  const children: ChildProcess[] = [];
  let postgresCleanup: (() => Promise<void>) | null = null;

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await postgresCleanup?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function startServer(port: number, env: Record<string, string>): Promise<ChildProcess> {
    const child = await startRealServer({
      port,
      dataDir,
      serverSecret,
      firebaseProjectId: 'latchkey-crash-test',
      timeoutMs: 30_000,
      env: {
        WEBHOOK_POLL_INTERVAL_MS: '100',
        WEBHOOK_RETRY_DELAYS_SECONDS: '2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2',
        ...env,
      },
    });
    children.push(child);
    return child;
  }

  it('delivers every acknowledged event exactly once per webhook after a kill -9 and a restart', async () => {
    const receiver = await startWebhookReceiver();
    try {
      receiver.answerWith(() => ({ status: 500 }));
      const { target, env, cleanup } = await crashTestDatabase(dataDir, 'latchkey_crash');
      postgresCleanup = cleanup;

      // Seeded directly, before the server opens the database (PGlite allows one process).
      const seeding = await openDatabase(target);
      const [owner] = await seeding.db
        .insert(ownerAccounts)
        .values({ firebaseUid: 'crash-owner', email: 'crash@example.com' })
        .returning();
      const application = await insertApplication(seeding.db, owner!.id, {
        ...generateSigningKeyPair(serverSecret),
      });
      const user = await insertAppUserWithPassword(seeding.db, application.id, PASSWORD);
      const everything = await insertTestWebhook(seeding.db, serverSecret, {
        ownerAccountId: owner!.id,
        url: receiver.url('/everything'),
        events: ['user_login', 'login_failed'],
      });
      const loginsOnly = await insertTestWebhook(seeding.db, serverSecret, {
        ownerAccountId: owner!.id,
        applicationId: application.id,
        url: receiver.url('/logins'),
        events: ['user_login'],
      });
      await seeding.close();

      const port = await findFreePortBlock();
      const first = await startServer(port, env);
      const logIn = async (password: string) => {
        const response = await fetch(`http://127.0.0.1:${port}/api/v1/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': application.apiKey },
          body: JSON.stringify({ username: user.username, password, version: '1.0.0' }),
        });
        expect(response.status).toBe(200);
        return (await response.json()) as { success: boolean };
      };
      // Concurrent, so several share one group commit.
      const answers = await Promise.all([
        ...Array.from({ length: LOGINS }, () => logIn(PASSWORD)),
        ...Array.from({ length: FAILED_LOGINS }, () => logIn('wrong password')),
      ]);
      expect(answers.filter((answer) => answer.success)).toHaveLength(LOGINS);

      // The dispatcher is running and the endpoints refuse: nothing has been delivered. The
      // kill comes between two rounds of retries: a send it interrupted would stay claimed
      // until its lease (60 s) ends, which webhook-dispatcher.test.ts covers.
      const queued = LOGINS + FAILED_LOGINS + LOGINS;
      const isQuiet = () =>
        receiver.received.length >= queued &&
        Date.now() - receiver.received.at(-1)!.receivedAt >= 300;
      const deadline = Date.now() + 15_000;
      while (!isQuiet() && Date.now() < deadline) await sleep(20);
      expect(receiver.received.length).toBeGreaterThanOrEqual(queued);
      first.kill('SIGKILL');
      await exited(first);
      expect(receiver.received.every((request) => request.status === 500)).toBe(true);

      receiver.answerWith(() => ({ status: 200 }));
      const expected = { everything: LOGINS + FAILED_LOGINS, logins: LOGINS };
      const delivered = (path: string) =>
        receiver.to(path).filter((request) => request.status === 200);
      const second = await startServer(port, env);
      const restartDeadline = Date.now() + 75_000;
      while (
        (delivered('/everything').length < expected.everything ||
          delivered('/logins').length < expected.logins) &&
        Date.now() < restartDeadline
      ) {
        await sleep(100);
      }
      // Anything sent twice would arrive about now.
      await sleep(500);
      second.kill('SIGTERM');
      await exited(second);

      const reading = await openDatabase(target);
      try {
        const logs = await reading.db
          .select()
          .from(activityLogs)
          .where(eq(activityLogs.applicationId, application.id));
        expect(logs).toHaveLength(LOGINS + FAILED_LOGINS);
        // The counters' deltas were written with the rows: once folded, the counters count
        // every row, whether the first server folded them before it was killed or not.
        await foldCounterDeltas(reading.db);
        const [counts] = await reading.db
          .select()
          .from(activityCounts)
          .where(eq(activityCounts.applicationId, application.id));
        expect(counts).toMatchObject({
          loginAttempts: LOGINS + FAILED_LOGINS,
          loginSuccesses: LOGINS,
        });
        for (const [hook, path, count] of [
          [everything, '/everything', expected.everything],
          [loginsOnly, '/logins', expected.logins],
        ] as const) {
          const deliveries = await reading.db
            .select()
            .from(webhookDeliveries)
            .where(eq(webhookDeliveries.webhookId, hook.id));
          expect(deliveries).toHaveLength(count);
          expect(deliveries.every((delivery) => delivery.status === 'succeeded')).toBe(true);
          const ids = delivered(path).map((request) => String(request.headers['webhook-id']));
          // Each event once: no id missing, none accepted twice.
          expect(ids.toSorted()).toEqual(deliveries.map((delivery) => delivery.id).toSorted());
        }
      } finally {
        await reading.close();
      }
    } finally {
      await receiver.close();
    }
  }, 120_000);
});
