import { and, eq } from 'drizzle-orm';
import type { ClientAuthResponse, ClientRegisterInput } from '@latchkey/contracts';
import { appUsers } from '../../db/schema/index.ts';
import { isUniqueViolation, redactDatabaseError } from '../../lib/database-errors.ts';
import { hashPassword } from '../../lib/password-hashing.ts';
import { blockedEventOf } from './blocked-event.ts';
import type { ClientContext } from './client-context.ts';
import { appDisabled, clientMessages, refusal } from './client-outcomes.ts';

const USERNAME_INDEX = 'app_users_application_username_idx';

/**
 * POST /api/v1/register: a new end user of the API key's application. The blacklist (IP,
 * username, e-mail, HWID) is checked before anything is created or hashed; a HWID sent here
 * is stored, so under HWID lock this device is the bound one. No expiry unless the client
 * asks for one.
 */
export async function registerEndUser({
  ctx,
  input,
}: {
  ctx: ClientContext;
  input: ClientRegisterInput;
}): Promise<ClientAuthResponse> {
  const { application, activity } = ctx;
  if (!application.isActive) return appDisabled();
  const now = ctx.clock.now();

  const blockedBy = await ctx.blacklist.find({
    ownerAccountId: application.ownerAccountId,
    applicationId: application.id,
    ipAddress: ctx.ipAddress,
    username: input.username,
    email: input.email,
    hwid: input.hwid,
  });
  // Both answers that record an event wait for its commit: acknowledged means written.
  if (blockedBy) {
    await activity.recordActivity({
      applicationId: application.id,
      appUserId: null,
      username: input.username,
      event: blockedEventOf[blockedBy],
      success: false,
      ipAddress: ctx.ipAddress,
      errorMessage: clientMessages.blacklisted,
      metadata: {
        action: 'register',
        blockedBy,
        ...(input.hwid ? { hwid: input.hwid } : {}),
        code: 'BLACKLISTED',
      },
      createdAt: now,
    });
    return refusal('BLACKLISTED', clientMessages.blacklisted);
  }

  const usernameTaken = () => refusal('USERNAME_TAKEN', clientMessages.usernameTaken);
  const [existing] = await ctx.db
    .select({ id: appUsers.id })
    .from(appUsers)
    .where(and(eq(appUsers.applicationId, application.id), eq(appUsers.username, input.username)))
    .limit(1);
  if (existing) return usernameTaken();

  const passwordHash = await hashPassword(input.password);
  let created;
  try {
    [created] = await ctx.db
      .insert(appUsers)
      .values({
        applicationId: application.id,
        username: input.username,
        email: input.email,
        passwordHash,
        expiresAt: input.expiresAt,
        hwid: input.hwid,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
  } catch (error) {
    // Two registrations of one name racing: the unique index decides.
    if (isUniqueViolation(error, USERNAME_INDEX)) return usernameTaken();
    throw redactDatabaseError(error);
  }
  if (!created) throw new Error('insert returned no row');

  await activity.recordActivity({
    applicationId: application.id,
    appUserId: created.id,
    username: created.username,
    event: 'user_register',
    success: true,
    ipAddress: ctx.ipAddress,
    errorMessage: null,
    // Only what the client sent: an absent hwid is not recorded as null.
    metadata: { ...(input.hwid ? { hwid: input.hwid } : {}), code: 'OK' },
    createdAt: now,
  });
  return {
    success: true,
    message: clientMessages.registered,
    code: 'OK',
    user_id: created.id,
    username: created.username,
    email: created.email,
    expires_at: created.expiresAt?.toISOString() ?? null,
    hwid_locked: application.hwidLockEnabled && created.hwid !== null,
  };
}
