import { eq } from 'drizzle-orm';
import { AUDIT_REDACTED, type OwnerWriteAction } from '@latchkey/contracts';
import type { Database } from '../../db/client.ts';
import { appUsers } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { recordOwnerWrite } from '../../audit/record-owner-write.ts';

/**
 * The audit entry of a variable's write, with ctx.db (the write's transaction). A value may be
 * a secret the vendor hands to its programs (a licence server's key, a feature's token), so the
 * trail says that it changed, never what it became.
 */
export async function recordVariableWrite({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: {
    action: Extract<OwnerWriteAction, `variable_${string}` | `user_variable_${string}`>;
    applicationId: number;
    /**
     * The application's variable (by its name), or for an end user's variable the end user
     * (by username; the change names the variable).
     */
    target: { kind: 'variable' | 'end_user'; id: string; label: string | null };
    change?: { value?: string | undefined } & Record<string, unknown>;
  };
}): Promise<void> {
  const { change } = input;
  await recordOwnerWrite({
    ctx,
    input: {
      action: input.action,
      application: { id: input.applicationId },
      target: input.target,
      change:
        change === undefined
          ? null
          : { ...change, ...(change.value === undefined ? {} : { value: AUDIT_REDACTED }) },
    },
  });
}

/** The end user a user variable belongs to, as the trail names them (read in the write's transaction). */
export async function endUserTarget(
  tx: Database,
  userId: string,
): Promise<{ kind: 'end_user'; id: string; label: string | null }> {
  const [user] = await tx
    .select({ username: appUsers.username })
    .from(appUsers)
    .where(eq(appUsers.id, userId));
  return { kind: 'end_user', id: userId, label: user?.username ?? null };
}
