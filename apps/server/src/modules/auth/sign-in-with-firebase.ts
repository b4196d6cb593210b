import { eq, sql } from 'drizzle-orm';
import type { FirebaseLoginRequest, Permission } from '@latchkey/contracts';
import { ownerAccounts, ownerSessions, type OwnerAccount } from '../../db/schema/index.ts';
import type { Context } from '../../http/request-context.ts';
import type { IdentityVerifier, VerifiedIdentity } from '../../identity/identity-verifier.ts';
import { createRandomToken, hashToken } from '../../lib/tokens.ts';
import { lockOwnerRoles } from '../admin/index.ts';

export type SignInResult =
  | { success: true; account: OwnerAccount; sessionToken: string; sessionExpiresAt: Date }
  | { success: false; message: string };

/**
 * Exchanges a Firebase ID token for a server-side console session. The token, not the
 * body's uid or e-mail, is the only thing trusted: those fields are informational. The
 * token's uid names the account; its e-mail is only kept up to date.
 */
export async function signInWithFirebase({
  ctx,
  input,
}: {
  ctx: Context & {
    identity: IdentityVerifier;
    sessionLifetimeMs: number;
    /** What a new account other than the first may do (DEFAULT_ACCOUNT_PERMISSIONS). */
    defaultAccountPermissions: Permission[];
  };
  input: FirebaseLoginRequest & { userAgent: string | null };
}): Promise<SignInResult> {
  let identity: VerifiedIdentity;
  try {
    identity = await ctx.identity.verifyIdToken(input.firebase_token);
  } catch (error) {
    ctx.log.info({ reason: (error as Error).message }, 'firebase token rejected');
    return { success: false, message: 'Invalid or expired sign-in token' };
  }
  if (identity.signInProvider !== 'google.com') {
    return { success: false, message: 'Please sign in with a Google account' };
  }
  if (!identity.email) {
    return { success: false, message: 'Your Google account has no e-mail address' };
  }

  const account = await findOrCreateOwnerAccount(ctx, identity, identity.email);
  if (!account.isActive) {
    return { success: false, message: 'This account has been deactivated' };
  }

  const now = ctx.clock.now();
  const sessionToken = createRandomToken();
  const sessionExpiresAt = new Date(now.getTime() + ctx.sessionLifetimeMs);
  await ctx.db.insert(ownerSessions).values({
    accountId: account.id,
    tokenHash: hashToken(sessionToken),
    createdAt: now,
    expiresAt: sessionExpiresAt,
    userAgent: input.userAgent?.slice(0, 512) ?? null,
  });
  // Expired sessions of this account are swept here, where the account is already at hand.
  await ctx.db
    .delete(ownerSessions)
    .where(sql`${ownerSessions.accountId} = ${account.id} and ${ownerSessions.expiresAt} < ${now}`);
  return { success: true, account, sessionToken, sessionExpiresAt };
}

async function findOrCreateOwnerAccount(
  ctx: Context & { defaultAccountPermissions: Permission[] },
  identity: VerifiedIdentity,
  email: string,
): Promise<OwnerAccount> {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const [byUid] = await tx
      .update(ownerAccounts)
      .set({ email, lastSignInAt: now })
      .where(eq(ownerAccounts.firebaseUid, identity.uid))
      .returning();
    if (byUid) return byUid;

    // Keyed by the provider's uid alone: an e-mail match never links two identities, or
    // whoever next holds an address (or any provider that vouches for it) would take over
    // the account and its data.

    await lockOwnerRoles(tx);
    const [{ count } = { count: 0 }] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(ownerAccounts);
    const { firstName, lastName } = splitName(identity.name);
    const [created] = await tx
      .insert(ownerAccounts)
      .values({
        firebaseUid: identity.uid,
        email,
        firstName,
        lastName,
        role: count === 0 ? 'owner' : 'user',
        // The owner holds every permission by role; a list would only go stale.
        permissions: count === 0 ? [] : ctx.defaultAccountPermissions,
        lastSignInAt: now,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!created) throw new Error('insert returned no row');
    ctx.log.info({ accountId: created.id, role: created.role }, 'owner account created');
    return created;
  });
}

function splitName(name: string | null): { firstName: string | null; lastName: string | null } {
  const parts = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return { firstName: null, lastName: null };
  return { firstName: parts[0] ?? null, lastName: parts.slice(1).join(' ') || null };
}
