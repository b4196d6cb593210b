import {
  DEFAULT_APPLICATION_VERSION,
  defaultApplicationMessages,
  type CreateApplicationInput,
} from '@latchkey/contracts';
import { applications, type Application } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { createApiKey } from '../../lib/api-keys.ts';
import { isUniqueViolation, redactDatabaseError } from '../../lib/database-errors.ts';
import { generateSigningKeyPair } from '../../lib/signing-keys.ts';
import { recordOwnerWrite } from '../../audit/record-owner-write.ts';

const API_KEY_ATTEMPTS = 3;

/**
 * A new application with its own API key and Ed25519 signing key. A 256-bit key colliding
 * is astronomically unlikely; the unique constraint decides anyway and a collision retries.
 * Each attempt is one transaction with its audit entry.
 */
export async function createApplication({
  ctx,
  input,
}: {
  ctx: OwnerContext & { serverSecret: string };
  input: CreateApplicationInput;
}): Promise<Application> {
  const now = ctx.clock.now();
  const signingKey = generateSigningKeyPair(ctx.serverSecret);
  for (let attempt = 1; ; attempt += 1) {
    try {
      const application = await ctx.db.transaction(async (tx) => {
        const [created] = await tx
          .insert(applications)
          .values({
            ownerAccountId: ctx.account.id,
            name: input.name,
            description: input.description,
            apiKey: createApiKey(),
            isActive: true,
            version: DEFAULT_APPLICATION_VERSION,
            hwidLockEnabled: false,
            ...defaultApplicationMessages,
            ...signingKey,
            createdAt: now,
            updatedAt: now,
          })
          .returning();
        if (!created) throw new Error('insert returned no row');
        await recordOwnerWrite({
          ctx: { ...ctx, db: tx },
          input: {
            action: 'application_created',
            application: { id: created.id, name: created.name },
            target: { kind: 'application', id: created.id, label: created.name },
            change: input,
          },
        });
        return created;
      });
      ctx.log.info({ applicationId: application.id }, 'application created');
      return application;
    } catch (error) {
      if (isUniqueViolation(error, 'applications_api_key_unique') && attempt < API_KEY_ATTEMPTS) {
        ctx.log.warn({ attempt }, 'API key collision, retrying with a new key');
        continue;
      }
      throw redactDatabaseError(error);
    }
  }
}
