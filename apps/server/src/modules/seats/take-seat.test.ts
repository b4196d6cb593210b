import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { seatLeases } from '../../db/schema/index.ts';
import { createManualClock } from '../../lib/clock.ts';
import { createAppUserViaApi, createApplicationViaApi } from '../../../test/factories.ts';
import { signInOwnerForSuite, startTwoInstancesForSuite } from '../../../test/suite-test-app.ts';
import { takeSeat } from './take-seat.ts';

/** Seats of a floating plan, leased by logins on two instances sharing one database. */
describe('taking a floating seat', () => {
  const start = new Date('2026-06-01T12:00:00Z');
  const clock = createManualClock(start);
  const { first, second } = startTwoInstancesForSuite({ clock });
  const owner = signInOwnerForSuite(first);

  const take = (
    instance: typeof first,
    ids: { applicationId: number; appUserId: string },
    n: number,
  ) =>
    takeSeat(instance.database.db, {
      ...ids,
      seats: 3,
      leaseMinutes: 10,
      tokenHash: `token-${n}`,
      hwid: `MACHINE-${n}`,
      now: clock.now(),
    });

  it('gives N seats to N+1 logins at once, and the next when a lease lapses', async () => {
    const application = await createApplicationViaApi(first.app, owner);
    const user = await createAppUserViaApi(first.app, owner, application.id);
    const ids = { applicationId: application.id, appUserId: user.id };
    const outcomes = await Promise.all(
      Array.from({ length: 4 }, (_, n) => take(n % 2 === 0 ? first : second, ids, n)),
    );
    expect(outcomes.filter((outcome) => outcome.kind === 'taken')).toHaveLength(3);
    const full = outcomes.find((outcome) => outcome.kind === 'full');
    expect(full).toEqual({ kind: 'full', nextFreeAt: new Date(start.getTime() + 10 * 60_000) });

    // Ten minutes on, every lease has lapsed: seats are free again without a sweep.
    clock.set(new Date(start.getTime() + 10 * 60_000));
    expect(await take(second, ids, 9)).toMatchObject({ kind: 'taken' });
    const rows = await first.database.db
      .select({ id: seatLeases.id })
      .from(seatLeases)
      .where(eq(seatLeases.appUserId, user.id));
    expect(rows).toHaveLength(4);
  });

  it('answers gone for a holder of another application', async () => {
    clock.set(start);
    const application = await createApplicationViaApi(first.app, owner);
    const other = await createApplicationViaApi(first.app, owner);
    const user = await createAppUserViaApi(first.app, owner, application.id);
    expect(await take(first, { applicationId: other.id, appUserId: user.id }, 1)).toEqual({
      kind: 'gone',
    });
  });
});
