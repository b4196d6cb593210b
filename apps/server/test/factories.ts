import { randomBytes } from 'node:crypto';
import type { Database } from '../src/db/client.ts';
import { applications, appUserSessions, appUsers } from '../src/db/schema/index.ts';

/**
 * Direct inserts for tests that need rows to exist but are not about how they are made.
 * Key material here is placeholder text: nothing in these tests signs or verifies.
 */
export async function insertApplication(
  db: Database,
  ownerAccountId: string,
  overrides: Partial<typeof applications.$inferInsert> = {},
) {
  const [row] = await db
    .insert(applications)
    .values({
      ownerAccountId,
      name: 'Test App',
      apiKey: `lk_test_${randomBytes(16).toString('hex')}`,
      loginSuccessMessage: 'Login successful!',
      loginFailedMessage: 'Invalid username or password',
      accountDisabledMessage: 'Your account has been disabled',
      accountExpiredMessage: 'Your account has expired',
      versionMismatchMessage: 'Please update the application',
      hwidMismatchMessage: 'HWID mismatch',
      signingPublicKey: '00'.repeat(32),
      signingPrivateKeyEncrypted: 'placeholder',
      ...overrides,
    })
    .returning();
  return row!;
}

export async function insertAppUser(
  db: Database,
  applicationId: number,
  overrides: Partial<typeof appUsers.$inferInsert> = {},
) {
  const [row] = await db
    .insert(appUsers)
    .values({
      applicationId,
      username: `user_${randomBytes(4).toString('hex')}`,
      passwordHash: 'not-a-real-hash',
      ...overrides,
    })
    .returning();
  return row!;
}

export async function insertAppUserSession(
  db: Database,
  input: { applicationId: number; appUserId: string; lastHeartbeatAt: Date; endedAt?: Date | null },
) {
  const [row] = await db
    .insert(appUserSessions)
    .values({ ...input, tokenHash: randomBytes(32).toString('hex') })
    .returning();
  return row!;
}
