import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import { ConfigError } from '../config.ts';
import type { Database } from '../db/client.ts';
import { applications, serverSecretCheck, webhooks } from '../db/schema/index.ts';
import { decryptSigningKey } from './signing-keys.ts';
import { decryptWebhookSecret } from './webhook-secret-crypto.ts';

const HKDF_INFO = 'latchkey server secret check v1';
const CHECKED_TEXT = 'latchkey: the server secret of this database';

export const SERVER_SECRET_MISMATCH =
  'SERVER_SECRET does not match the one this database was set up with, so this instance could not open the signing keys and webhook secrets stored in it. ' +
  'Every instance on one database needs the same SERVER_SECRET: set it to the value the other instances use ' +
  '(an instance started without SERVER_SECRET made its own, in DATA_DIR/server-secret).';

/** A keyed digest of a fixed text: equal for equal secrets, and says nothing of the secret. */
function digestOf(serverSecret: string): string {
  const key = Buffer.from(hkdfSync('sha256', serverSecret, Buffer.alloc(0), HKDF_INFO, 32));
  return createHmac('sha256', key).update(CHECKED_TEXT).digest('base64url');
}

/**
 * Refuses to start (a ConfigError naming SERVER_SECRET) when this instance's secret is not
 * the database's. Without it an instance with another secret started, then answered 500 to
 * every request that needed a sealed key. The first instance on a database records
 * the digest; two first instances racing with different secrets: one insert wins and the
 * other refuses. A database from before the check was added is first tried against what it
 * already holds (the newest signing key and webhook secret), so an upgrade cannot record a
 * wrong secret as the right one.
 */
export async function assertServerSecretMatchesDatabase(
  db: Database,
  serverSecret: string,
): Promise<void> {
  const digest = digestOf(serverSecret);
  let [recorded] = await db.select().from(serverSecretCheck).where(eq(serverSecretCheck.id, 1));
  if (!recorded) {
    if (!(await canOpenWhatIsSealed(db, serverSecret)))
      throw new ConfigError(SERVER_SECRET_MISMATCH);
    await db.insert(serverSecretCheck).values({ id: 1, digest }).onConflictDoNothing();
    [recorded] = await db.select().from(serverSecretCheck).where(eq(serverSecretCheck.id, 1));
  }
  const isSame =
    recorded !== undefined &&
    recorded.digest.length === digest.length &&
    timingSafeEqual(Buffer.from(recorded.digest), Buffer.from(digest));
  if (!isSame) throw new ConfigError(SERVER_SECRET_MISMATCH);
}

/**
 * Both decryptions say "cannot be decrypted" for a wrong secret (or tampering) and something
 * else for a blob that is malformed, which says nothing about the secret.
 */
const isWrongSecret = (error: unknown) =>
  error instanceof Error && /cannot be decrypted/.test(error.message);

async function canOpenWhatIsSealed(db: Database, serverSecret: string): Promise<boolean> {
  const [application] = await db
    .select({
      signingPublicKey: applications.signingPublicKey,
      signingPrivateKeyEncrypted: applications.signingPrivateKeyEncrypted,
    })
    .from(applications)
    .orderBy(desc(applications.id))
    .limit(1);
  const [webhook] = await db
    .select({ secretEncrypted: webhooks.secretEncrypted })
    .from(webhooks)
    .orderBy(desc(webhooks.id))
    .limit(1);
  const opens = (open: () => unknown) => {
    try {
      open();
      return true;
    } catch (error) {
      return !isWrongSecret(error);
    }
  };
  return (
    (!application || opens(() => decryptSigningKey(application, serverSecret))) &&
    (!webhook || opens(() => decryptWebhookSecret(webhook.secretEncrypted, serverSecret)))
  );
}
