import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { appUsers } from '../../db/schema/index.ts';
import { hashPassword, needsRehash } from '../../lib/password-hashing.ts';

/**
 * After a successful login with a hash of another kind or weaker settings (a bcrypt hash
 * imported from KeyAuth), stores an argon2id hash of the password just proven.
 * Compare-and-set on the old hash: a password changed meanwhile is never overwritten. Once per
 * user: their next login finds the current kind and skips this.
 */
export async function upgradePasswordHash(
  db: Database,
  user: { id: string; passwordHash: string },
  password: string,
): Promise<boolean> {
  if (!needsRehash(user.passwordHash)) return false;
  const upgraded = await db
    .update(appUsers)
    .set({ passwordHash: await hashPassword(password) })
    .where(and(eq(appUsers.id, user.id), eq(appUsers.passwordHash, user.passwordHash)))
    .returning({ id: appUsers.id });
  return upgraded.length > 0;
}
