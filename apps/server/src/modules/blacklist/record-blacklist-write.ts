import type { BlacklistEntry } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { recordOwnerWrite } from '../../audit/record-owner-write.ts';

/** The audit entry of a blacklist entry added or removed, with ctx.db (the write's transaction). */
export async function recordBlacklistWrite({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: {
    action: 'blacklist_entry_created' | 'blacklist_entry_deleted';
    entry: Pick<BlacklistEntry, 'id' | 'applicationId' | 'type' | 'value' | 'reason'>;
  };
}): Promise<void> {
  const { entry } = input;
  await recordOwnerWrite({
    ctx,
    input: {
      action: input.action,
      application: entry.applicationId === null ? null : { id: entry.applicationId },
      target: { kind: 'blacklist_entry', id: entry.id, label: `${entry.type} ${entry.value}` },
      change:
        input.action === 'blacklist_entry_created'
          ? { type: entry.type, value: entry.value, reason: entry.reason }
          : null,
    },
  });
}
