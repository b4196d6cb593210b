import { and, eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LICENSE_KEY_MASK, licenseListSchema } from '@latchkey/contracts';
import { licenseKeys } from '../../db/schema/index.ts';
import { createManualClock } from '../../lib/clock.ts';
import { generateLicenseKey } from '../../lib/license-key-generator.ts';
import {
  createApplicationViaApi,
  createPlanViaApi,
  generateLicensesViaApi,
} from '../../../test/factories.ts';
import { ownerRequests } from '../../../test/owner-requests.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';
import {
  backfillLicenseKeyPrefixes,
  LICENSE_KEY_PREFIX_BACKFILL_LOCK_KEY,
} from './backfill-license-key-prefixes.ts';
import { licenseKeyPrefixMatch } from './license-filter.ts';
import {
  licenseKeyDigest,
  licenseKeyDisplay,
  licenseKeySuffix,
  sealLicenseKey,
} from './license-key-secrets.ts';

describe('licence keys found by their first characters', () => {
  const clock = createManualClock(new Date('2026-05-01T09:00:00Z'));
  const testApp = startTestAppForSuite({ clock });
  const owner = signInOwnerForSuite(testApp);
  const request = ownerRequests(testApp, owner);

  const newApplicationWithPlan = async () => {
    const application = await createApplicationViaApi(testApp.app, owner);
    const plan = await createPlanViaApi(testApp.app, owner, application.id, { durationDays: 30 });
    return { applicationId: application.id, planId: plan.id };
  };

  const search = async (applicationId: number, text: string) => {
    const query = `?search=${encodeURIComponent(text)}`;
    const response = await request('GET', `/api/applications/${applicationId}/licenses${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return licenseListSchema.parse(response.json());
  };
  const idsFound = async (applicationId: number, text: string) =>
    (await search(applicationId, text)).map((key) => key.id).sort();

  /** The CSV export filters with the per-row condition a walk of the keys uses. */
  const exported = async (applicationId: number, text: string) => {
    const response = await request(
      'GET',
      `/api/applications/${applicationId}/licenses/export.csv?search=${encodeURIComponent(text)}`,
    );
    expect(response.statusCode, response.body).toBe(200);
    return response.body;
  };

  it('finds a key by its first characters, typed with or without dashes, in any case', async () => {
    const { applicationId, planId } = await newApplicationWithPlan();
    const keys = await generateLicensesViaApi(testApp.app, owner, applicationId, {
      planId,
      count: 3,
    });
    const { id, key } = keys[0]!;
    for (const typed of [
      key.slice(0, 4),
      key.slice(0, 5).toLowerCase(),
      // More than is kept: the kept five start what was typed.
      key.slice(0, 8),
      key.slice(0, 11).replace('-', ''),
    ]) {
      expect(await idsFound(applicationId, typed), typed).toEqual([id]);
      expect(await exported(applicationId, typed), typed).toContain(key);
    }
    // The list shows what is kept: the first group and the last four.
    const [listed] = await search(applicationId, key.slice(0, 5));
    expect(listed!.key).toBe(`${key.slice(0, 5)}-•••••-•••••-•••••-•${key.slice(-4)}`);
    // The whole key is still found by its digest, and the last four as before.
    expect(await idsFound(applicationId, key)).toEqual([id]);
    expect(await idsFound(applicationId, key.slice(-4))).toEqual([id]);
  });

  it('does not search by fewer than four characters, nor by a key of another application', async () => {
    const { applicationId, planId } = await newApplicationWithPlan();
    const [{ id, key }] = (await generateLicensesViaApi(testApp.app, owner, applicationId, {
      planId,
    })) as [{ id: string; key: string }];
    expect(await idsFound(applicationId, key.slice(0, 4))).toEqual([id]);
    expect(await idsFound(applicationId, key.slice(0, 3))).toEqual([]);
    expect(await exported(applicationId, key.slice(0, 3))).not.toContain(key);

    const other = await newApplicationWithPlan();
    await generateLicensesViaApi(testApp.app, owner, other.applicationId, {
      planId: other.planId,
      count: 3,
    });
    expect(await idsFound(other.applicationId, key.slice(0, 5))).toEqual([]);
    expect(await exported(other.applicationId, key.slice(0, 5))).not.toContain(key);
  });

  it('keeps no prefix of a key too short to spare one, and so does not find it by one', async () => {
    const { applicationId, planId } = await newApplicationWithPlan();
    const [{ id, key }] = (await generateLicensesViaApi(testApp.app, owner, applicationId, {
      planId,
      mask: 'XXXX-XXXX-XXXX-XXXX',
    })) as [{ id: string; key: string }];
    const [row] = await testApp.database.db
      .select({ keyPrefix: licenseKeys.keyPrefix, display: licenseKeys.display })
      .from(licenseKeys)
      .where(eq(licenseKeys.id, id));
    expect(row).toEqual({ keyPrefix: null, display: `••••-••••-••••-${key.slice(-4)}` });
    expect(await idsFound(applicationId, key.slice(0, 4))).toEqual([]);
    expect(await idsFound(applicationId, key)).toEqual([id]);
  });

  it('backfills the keys of an older installation, batch by batch, and then finds them', async () => {
    const { applicationId, planId } = await newApplicationWithPlan();
    const { serverSecret } = testApp.config;
    // Rows as they were before prefixes were kept, as the migration leaves them: no prefix,
    // pending. One generation of 40 keys (written at one time, with microseconds), and a lone key.
    const insertOldKeys = (keys: string[], createdAt: string) =>
      testApp.database.db
        .insert(licenseKeys)
        .values(
          keys.map((key) => ({
            applicationId,
            planId,
            keyDigest: licenseKeyDigest(key, serverSecret),
            keySealed: sealLicenseKey(key, serverSecret),
            display: licenseKeyDisplay(key),
            keySuffix: licenseKeySuffix(key),
            keyPrefix: null,
            isKeyPrefixPending: true,
            createdAt: sql`${createdAt}::timestamptz`,
          })),
        )
        .returning({ id: licenseKeys.id });
    const generation = Array.from({ length: 40 }, () =>
      generateLicenseKey(DEFAULT_LICENSE_KEY_MASK, 'upper'),
    );
    const generationIds = (await insertOldKeys(generation, '2026-04-01T10:00:00.123456Z')).map(
      (row) => row.id,
    );
    const lone = generateLicenseKey(DEFAULT_LICENSE_KEY_MASK, 'upper');
    const [{ id: loneId }] = (await insertOldKeys([lone], '2026-04-02T10:00:00Z')) as [
      { id: string },
    ];
    // A key minted today is not pending and is left alone.
    const [fresh] = await generateLicensesViaApi(testApp.app, owner, applicationId, { planId });
    const freshBefore = await testApp.database.db
      .select()
      .from(licenseKeys)
      .where(eq(licenseKeys.id, fresh!.id));

    const target = generation[7]!;
    expect(await idsFound(applicationId, target.slice(0, 5))).toEqual([]);

    const ctx = {
      db: testApp.database.db,
      database: testApp.database,
      clock,
      log: testApp.app.log,
      serverSecret,
    };
    const result = await backfillLicenseKeyPrefixes({ ctx, input: { batchSize: 20, pauseMs: 0 } });
    // Two batches of the generation, one of the lone key.
    expect(result).toEqual({ keysExamined: 41, keysPrefixed: 40, statements: 3 });

    expect(await idsFound(applicationId, target.slice(0, 5))).toEqual([generationIds[7]]);
    expect(await exported(applicationId, target.slice(0, 5))).toContain(target);
    const [listed] = await search(applicationId, target.slice(0, 5));
    expect(listed!.key).toBe(`${target.slice(0, 5)}-•••••-•••••-•••••-•${target.slice(-4)}`);
    // A lone key proves nothing about its format: it keeps no prefix, and is pending no more.
    expect(await idsFound(applicationId, lone.slice(0, 5))).toEqual([]);
    expect(await idsFound(applicationId, lone)).toEqual([loneId]);
    const pending = await testApp.database.db
      .select({ id: licenseKeys.id })
      .from(licenseKeys)
      .where(
        and(
          eq(licenseKeys.isKeyPrefixPending, true),
          inArray(licenseKeys.id, [...generationIds, loneId]),
        ),
      );
    expect(pending).toEqual([]);
    expect(
      await testApp.database.db.select().from(licenseKeys).where(eq(licenseKeys.id, fresh!.id)),
    ).toEqual(freshBefore);

    // Done: a second run finds nothing to do.
    const again = await backfillLicenseKeyPrefixes({ ctx, input: { batchSize: 20, pauseMs: 0 } });
    expect(again).toEqual({ keysExamined: 0, keysPrefixed: 0, statements: 0 });
  });

  it('runs on one instance at a time', async () => {
    const ctx = {
      db: testApp.database.db,
      database: testApp.database,
      clock,
      log: testApp.app.log,
      serverSecret: testApp.config.serverSecret,
    };
    // Another instance holding the backfill's lock: this one leaves the work to it.
    let whileHeld: Awaited<ReturnType<typeof backfillLicenseKeyPrefixes>> | undefined;
    const isHeld = await testApp.database.runExclusively(
      LICENSE_KEY_PREFIX_BACKFILL_LOCK_KEY,
      async () => {
        whileHeld = await backfillLicenseKeyPrefixes({
          ctx,
          input: { batchSize: 20, pauseMs: 0 },
        });
      },
    );
    expect([isHeld, whileHeld]).toEqual([true, null]);
  });

  it('looks a prefix up in the (application, prefix) index', async () => {
    const { applicationId } = await newApplicationWithPlan();
    const plans = await testApp.database.db.transaction(async (tx) => {
      // The test tables are tiny: a sequential scan would win on cost, so it is ruled out.
      await tx.execute(sql`set local enable_seqscan = off`);
      const explain = (prefix: string) =>
        tx.execute(
          sql`explain select id from license_keys where application_id = ${applicationId} and ${licenseKeyPrefixMatch(prefix)}`,
        );
      return [await explain('abcd'), await explain('abcdefghij')];
    });
    for (const plan of plans) {
      expect(JSON.stringify(plan)).toContain('license_keys_application_prefix_idx');
    }
  });
});
