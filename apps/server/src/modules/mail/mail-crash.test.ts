import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { FORGOT_PASSWORD_ANSWER } from '@latchkey/contracts';
import { openDatabase } from '../../db/client.ts';
import { mailMessages, ownerAccounts } from '../../db/schema/index.ts';
import { generateSigningKeyPair } from '../../lib/signing-keys.ts';
import { insertAppUser, insertApplication } from '../../../test/factories.ts';
import { findFreePortBlock } from '../../../test/free-port-block.ts';
import { startRealServer } from '../../../test/real-server.ts';
import { startSmtpReceiver } from '../../../test/smtp-test-receiver.ts';
import { crashTestDatabase, exited } from '../../../test/crash-test-database.ts';

/**
 * Acknowledged means written, for mail: a reset asked for and answered, `kill -9` of the
 * server before the mail is delivered, a restart, and the mail delivered exactly once. The
 * real process (main.ts) on a real database (PGlite in DATA_DIR, or PostgreSQL with
 * TEST_DATABASE_URL), against a real SMTP server. A non-demo Firebase project, so the server
 * starts no Auth emulator of its own.
 */
describe('mail survives kill -9', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'latchkey-mail-crash-'));
  const serverSecret = randomBytes(32).toString('base64url');
  const children: ChildProcess[] = [];
  let postgresCleanup: (() => Promise<void>) | null = null;

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await postgresCleanup?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('delivers a mail asked for before a kill -9, once, after the restart', async () => {
    const receiver = await startSmtpReceiver();
    try {
      // The mail server refuses for now until the first server is gone.
      receiver.answerWith(() => ({ accept: false, code: 451, message: 'Try again later' }));
      const { target, env, cleanup } = await crashTestDatabase(dataDir, 'latchkey_mail_crash');
      postgresCleanup = cleanup;

      // Seeded directly, before the server opens the database (PGlite allows one process).
      const seeding = await openDatabase(target);
      const [owner] = await seeding.db
        .insert(ownerAccounts)
        .values({ firebaseUid: 'mail-crash-owner', email: 'crash@example.com' })
        .returning();
      const application = await insertApplication(seeding.db, owner!.id, {
        ...generateSigningKeyPair(serverSecret),
      });
      const user = await insertAppUser(seeding.db, application.id, {
        email: 'buyer@example.com',
      });
      await seeding.close();

      const port = await findFreePortBlock();
      const start = async () => {
        const child = await startRealServer({
          port,
          dataDir,
          serverSecret,
          firebaseProjectId: 'latchkey-mail-crash-test',
          timeoutMs: 30_000,
          env: {
            SMTP_URL: receiver.url,
            MAIL_FROM: 'no-reply@latchkey.example.com',
            MAIL_POLL_INTERVAL_MS: '100',
            MAIL_RETRY_DELAYS_SECONDS:
              '1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1',
            ...env,
          },
        });
        children.push(child);
        return child;
      };

      const first = await start();
      const response = await fetch(`http://127.0.0.1:${port}/api/v1/password/forgot`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': application.apiKey },
        body: JSON.stringify({ username: user.username }),
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ message: FORGOT_PASSWORD_ANSWER });
      // The worker has offered it at least once (and been refused): it was written and claimed.
      const deadline = Date.now() + 15_000;
      while (receiver.attempts === 0 && Date.now() < deadline) await sleep(20);
      expect(receiver.attempts).toBeGreaterThan(0);
      first.kill('SIGKILL');
      await exited(first);
      expect(receiver.received).toHaveLength(0);

      receiver.answerWith(() => ({ accept: true }));
      const second = await start();
      const [mail] = await receiver.waitForMessages(1, 75_000);
      expect(mail!.to).toEqual(['buyer@example.com']);
      // Anything sent twice would arrive about now.
      await sleep(500);
      second.kill('SIGTERM');
      await exited(second);
      expect(receiver.received).toHaveLength(1);

      const reading = await openDatabase(target);
      try {
        const messages = await reading.db
          .select()
          .from(mailMessages)
          .where(eq(mailMessages.applicationId, application.id));
        expect(messages).toHaveLength(1);
        expect(messages[0]).toMatchObject({ status: 'sent', secretsSealed: null });
        expect(mail!.parsed.messageId).toBe(`<${messages[0]!.id}@latchkey.example.com>`);
      } finally {
        await reading.close();
      }
    } finally {
      await receiver.close();
    }
  }, 120_000);
});
