import { and, count, eq, type SQL } from 'drizzle-orm';
import { variableLimits } from '@latchkey/contracts';
import type { Database } from '../../db/client.ts';
import { appUsers, appUserVariables, type AppUserVariable } from '../../db/schema/index.ts';

export type UserVariableWrite =
  | { outcome: 'written'; variable: AppUserVariable }
  | { outcome: 'user-not-found' | 'read-only' | 'limit-reached' };

/**
 * The one write rule of an end user's variables, for the owner (PUT) and for the program
 * (user-var/set): creates or replaces the named variable, unless the user already holds the
 * most allowed and this is a new name. The program may not change a read-only one; the owner
 * may, and says whether it stays read-only (`readOnly`; undefined keeps it writable).
 *
 * The user's row is locked first (FOR NO KEY UPDATE, in one short transaction), so two
 * concurrent writes of new names cannot both pass the count at 99. `userWhere` finds the one
 * user the caller may write: the owner's scoping, or the session's own user.
 */
export async function writeUserVariable(
  db: Database,
  input: {
    userWhere: SQL | undefined;
    name: string;
    value: string;
    readOnly?: boolean;
    isOwnerWrite: boolean;
    now: Date;
  },
): Promise<UserVariableWrite> {
  return db.transaction(async (tx) => {
    const [user] = await tx
      .select({ id: appUsers.id, applicationId: appUsers.applicationId })
      .from(appUsers)
      .where(input.userWhere)
      .for('no key update');
    if (!user) return { outcome: 'user-not-found' };
    const [existing] = await tx
      .select({ isReadOnly: appUserVariables.isReadOnly })
      .from(appUserVariables)
      .where(and(eq(appUserVariables.appUserId, user.id), eq(appUserVariables.name, input.name)));
    if (existing?.isReadOnly && !input.isOwnerWrite) return { outcome: 'read-only' };
    if (!existing) {
      const [held] = await tx
        .select({ count: count() })
        .from(appUserVariables)
        .where(eq(appUserVariables.appUserId, user.id));
      if ((held?.count ?? 0) >= variableLimits.userVariablesPerUser) {
        return { outcome: 'limit-reached' };
      }
    }
    const isReadOnly = input.readOnly ?? false;
    const [variable] = await tx
      .insert(appUserVariables)
      .values({
        appUserId: user.id,
        applicationId: user.applicationId,
        name: input.name,
        value: input.value,
        isReadOnly,
        createdAt: input.now,
        updatedAt: input.now,
      })
      .onConflictDoUpdate({
        target: [appUserVariables.appUserId, appUserVariables.name],
        set: { value: input.value, isReadOnly, updatedAt: input.now },
      })
      .returning();
    if (!variable) throw new Error('upsert returned no row');
    return { outcome: 'written', variable };
  });
}
