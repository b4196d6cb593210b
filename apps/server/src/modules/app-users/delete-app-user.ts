import { appUsers } from '../../db/schema/index.ts';
import { recordOwnerWrite } from '../../audit/record-owner-write.ts';
import {
  announceEndUserChange,
  appUserNotFound,
  ownedAppUserWhere,
  type AppUserIds,
  type EndUserChangeContext,
} from '../../ownership/owned-app-user.ts';

/**
 * Deletes an end user, with its audit entry in the same transaction; their client sessions
 * cascade, their activity logs keep the username.
 */
export async function deleteAppUser({
  ctx,
  input,
}: {
  ctx: EndUserChangeContext;
  input: AppUserIds;
}): Promise<void> {
  const deleted = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .delete(appUsers)
      .where(ownedAppUserWhere(ctx, input))
      .returning({ id: appUsers.id, username: appUsers.username });
    if (!row) return undefined;
    await recordOwnerWrite({
      ctx: { ...ctx, db: tx },
      input: {
        action: 'end_user_deleted',
        application: { id: input.applicationId },
        target: { kind: 'end_user', id: row.id, label: row.username },
      },
    });
    return row;
  });
  if (!deleted) throw await appUserNotFound(ctx, input);
  await announceEndUserChange(ctx, input);
}
