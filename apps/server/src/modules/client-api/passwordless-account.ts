import { randomBytes } from 'node:crypto';
import type { Database } from '../../db/client.ts';
import { appUsers } from '../../db/schema/index.ts';
import type { ActivityRecord } from '../../events/activity-events.ts';
import { hashPassword } from '../../lib/password-hashing.ts';

/**
 * The hash of a random password nobody knows, for an account that signs in by its licence key
 * or its machine: a password login never works for it. Hashed before the caller's transaction,
 * so the hash's tens of milliseconds hold no lock.
 */
export function unknownPasswordHash(): Promise<string> {
  return hashPassword(randomBytes(32).toString('base64url'));
}

/**
 * Inserts an account the server creates for an end user (a key's holder, a machine's trial)
 * inside the caller's transaction, and returns its `user_register` event for the caller to
 * write with the rest. A taken name surfaces as the username index's unique violation.
 */
export async function insertPasswordlessAccount(
  tx: Database,
  input: {
    applicationId: number;
    username: string;
    passwordHash: string;
    expiresAt: Date | null;
    /** Why the server made it: the event's `action` (`license_login`, `portal`, `trial`). */
    action: string;
    ipAddress: string;
    now: Date;
  },
): Promise<{ userId: string; registered: ActivityRecord }> {
  const { now } = input;
  const [user] = await tx
    .insert(appUsers)
    .values({
      applicationId: input.applicationId,
      username: input.username,
      passwordHash: input.passwordHash,
      expiresAt: input.expiresAt,
      createdAt: now,
      updatedAt: now,
    })
    .returning({ id: appUsers.id });
  if (!user) throw new Error('the account insert returned no row');
  return {
    userId: user.id,
    registered: {
      applicationId: input.applicationId,
      appUserId: user.id,
      username: input.username,
      event: 'user_register',
      success: true,
      ipAddress: input.ipAddress,
      errorMessage: null,
      metadata: { action: input.action, code: 'OK' },
      createdAt: now,
    },
  };
}
