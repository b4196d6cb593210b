import { randomBytes } from 'node:crypto';
import { and, eq, gt } from 'drizzle-orm';
import { PORTAL_SESSION_MINUTES } from '@latchkey/contracts';
import type { Database } from '../../db/client.ts';
import { appUsers, portalSessions } from '../../db/schema/index.ts';
import { keyedDigest } from '../../lib/keyed-digest.ts';

const digestOf = (token: string, serverSecret: string) =>
  keyedDigest(token, 'portal-session', serverSecret);

/** A new portal session for the user: the token for the cookie (only its digest is stored). */
export async function startPortalSession(
  db: Database,
  input: { applicationId: number; appUserId: string; now: Date; serverSecret: string },
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.insert(portalSessions).values({
    applicationId: input.applicationId,
    appUserId: input.appUserId,
    tokenDigest: digestOf(token, input.serverSecret),
    createdAt: input.now,
    expiresAt: new Date(input.now.getTime() + PORTAL_SESSION_MINUTES * 60_000),
  });
  return token;
}

/** The signed-in user behind a cookie's token, for this application only, while it lasts. */
export async function findPortalSession(
  db: Database,
  input: { applicationId: number; token: string; now: Date; serverSecret: string },
) {
  const [row] = await db
    .select({
      sessionId: portalSessions.id,
      user: {
        id: appUsers.id,
        username: appUsers.username,
        email: appUsers.email,
        passwordHash: appUsers.passwordHash,
        isActive: appUsers.isActive,
        isPaused: appUsers.isPaused,
        expiresAt: appUsers.expiresAt,
        lastSelfResetAt: appUsers.lastSelfResetAt,
      },
    })
    .from(portalSessions)
    .innerJoin(appUsers, eq(appUsers.id, portalSessions.appUserId))
    .where(
      and(
        eq(portalSessions.tokenDigest, digestOf(input.token, input.serverSecret)),
        eq(portalSessions.applicationId, input.applicationId),
        gt(portalSessions.expiresAt, input.now),
      ),
    );
  return row;
}
export type FoundPortalSession = NonNullable<Awaited<ReturnType<typeof findPortalSession>>>;

export async function endPortalSession(db: Database, sessionId: string): Promise<void> {
  await db.delete(portalSessions).where(eq(portalSessions.id, sessionId));
}
