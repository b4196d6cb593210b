import { beforeAll, describe, expect, it } from 'vitest';
import { applicationSchema } from '@latchkey/contracts';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../db/rows-of.ts';
import { insertApplication } from '../../../test/factories.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';

/**
 * A 256-bit key never collides by chance, so the test makes it collide for real: a trigger
 * swaps a new row's key for one already taken, and the unique constraint refuses it as it
 * would a true collision. Each insert draws a number from a sequence, which a rolled-back
 * transaction does not undo, so the sequence counts the attempts, and the trigger collides
 * until the attempt numbered in `forced_collisions`.
 */
describe('createApplication when an API key collides', () => {
  let takenKey: string;

  const testApp = startTestAppForSuite();
  const owner = signInOwnerForSuite(testApp);

  beforeAll(async () => {
    takenKey = (await insertApplication(testApp.database.db, owner.accountId)).apiKey;
    await testApp.database.db.execute(sql`create sequence key_attempts`);
    await testApp.database.db.execute(
      sql`create table forced_collisions (until_attempt bigint not null)`,
    );
    await testApp.database.db.execute(sql`insert into forced_collisions values (0)`);
    await testApp.database.db.execute(
      sql.raw(`create function force_key_collision() returns trigger language plpgsql as $$
        begin
          if nextval('key_attempts') <= (select until_attempt from forced_collisions) then
            new.api_key := '${takenKey}';
          end if;
          return new;
        end $$`),
    );
    await testApp.database.db.execute(
      sql`create trigger force_key_collision before insert on applications
          for each row execute function force_key_collision()`,
    );
  });

  /** The next `collisions` inserts take the taken key; answers the call and the attempts. */
  async function createWithCollisions(collisions: number) {
    const before = await attemptsSoFar();
    await testApp.database.db.execute(
      sql`update forced_collisions set until_attempt = ${before + collisions}`,
    );
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/applications',
      headers: owner.headers,
      payload: { name: 'Collider' },
    });
    return { response, attempts: (await attemptsSoFar()) - before };
  }

  async function attemptsSoFar(): Promise<number> {
    const { last_value, is_called } = rowsOf<{ last_value: string; is_called: boolean }>(
      await testApp.database.db.execute(sql`select last_value, is_called from key_attempts`),
    )[0]!;
    return is_called ? Number(last_value) : 0;
  }

  it('retries with a fresh key', async () => {
    const { response, attempts } = await createWithCollisions(1);
    expect(response.statusCode).toBe(201);
    const application = applicationSchema.parse(response.json());
    expect(application.apiKey).not.toBe(takenKey);
    expect(attempts).toBe(2);
  });

  it('gives up after three collisions with a plain 500', async () => {
    const { response, attempts } = await createWithCollisions(3);
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ message: 'Internal server error', code: 'INTERNAL' });
    expect(attempts).toBe(3);
  });
});
