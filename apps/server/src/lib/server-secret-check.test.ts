import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../config.ts';
import { ownerAccounts, serverSecretCheck } from '../db/schema/index.ts';
import { insertApplication } from '../../test/factories.ts';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.ts';
import {
  assertServerSecretMatchesDatabase,
  SERVER_SECRET_MISMATCH,
} from './server-secret-check.ts';
import { generateSigningKeyPair } from './signing-keys.ts';

const FIRST_SECRET = 'the first instance secret, long enough';
const OTHER_SECRET = 'another instance secret, long enough too';

describe('assertServerSecretMatchesDatabase', () => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    await database.close();
  });

  it('records the first secret, accepts it again, and refuses another with a ConfigError', async () => {
    await assertServerSecretMatchesDatabase(database.db, FIRST_SECRET);
    await assertServerSecretMatchesDatabase(database.db, FIRST_SECRET);
    const refusal = assertServerSecretMatchesDatabase(database.db, OTHER_SECRET);
    await expect(refusal).rejects.toThrow(ConfigError);
    await expect(refusal).rejects.toThrow(SERVER_SECRET_MISMATCH);
    const [recorded] = await database.db.select().from(serverSecretCheck);
    expect(recorded!.digest).not.toContain(FIRST_SECRET);
  });

  it('checks a database from before the check against the keys it already holds', async () => {
    const [owner] = await database.db
      .insert(ownerAccounts)
      .values({ firebaseUid: 'uid', email: 'owner@example.com' })
      .returning();
    await insertApplication(database.db, owner!.id, generateSigningKeyPair(FIRST_SECRET));

    await expect(assertServerSecretMatchesDatabase(database.db, OTHER_SECRET)).rejects.toThrow(
      SERVER_SECRET_MISMATCH,
    );
    expect(await database.db.select().from(serverSecretCheck)).toEqual([]);
    await assertServerSecretMatchesDatabase(database.db, FIRST_SECRET);
    await expect(assertServerSecretMatchesDatabase(database.db, OTHER_SECRET)).rejects.toThrow(
      SERVER_SECRET_MISMATCH,
    );
  });

  it('lets exactly one of two first instances with different secrets record theirs', async () => {
    const outcomes = await Promise.allSettled([
      assertServerSecretMatchesDatabase(database.db, FIRST_SECRET),
      assertServerSecretMatchesDatabase(database.db, OTHER_SECRET),
    ]);
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    expect(await database.db.select().from(serverSecretCheck)).toHaveLength(1);
  });
});
