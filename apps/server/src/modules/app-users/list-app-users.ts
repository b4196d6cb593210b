import { and, desc, eq, ilike, inArray, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import {
  SEARCH_COUNT_LIMIT,
  type Page,
  type PageRequest,
  type Subscription,
} from '@latchkey/contracts';
import { appUsers, plans, type AppUser } from '../../db/schema/index.ts';
import { fewMatchesPage } from '../../db/few-matches-page.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { containsPattern } from '../../lib/contains-pattern.ts';
import { loadOwnedApplication } from '../../ownership/load-owned-application.ts';
import { readSubscriptionsOfUsers } from '../subscriptions/index.ts';
import { countAppUsers } from './count-app-users.ts';

const newestFirst = [desc(appUsers.createdAt), desc(appUsers.id)];

/**
 * One page of the end users of one of the owner's applications, newest first, optionally
 * only those whose username or e-mail contains the search (case-insensitively), each with the
 * subscriptions they hold (one more statement for the whole page) and the devices they may
 * bind. The page's ids are found first and only their rows are read: a deep page skips index
 * entries, not table rows.
 */
export async function listAppUsers({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: { applicationId: number } & PageRequest;
}): Promise<Page<ListedAppUser>> {
  const { application, page } = await listAppUserRows({ ctx, input });
  const [held, planDeviceLimits] = await Promise.all([
    readSubscriptionsOfUsers(
      ctx.db,
      page.rows.map((user) => user.id),
      ctx.clock.now(),
    ),
    readPlanDeviceLimits(ctx, application.id),
  ]);
  return {
    ...page,
    rows: page.rows.map((user) => {
      const subscriptions = held.get(user.id) ?? [];
      let deviceLimit = application.maxDevices;
      for (const subscription of subscriptions) {
        const planLimit = planDeviceLimits.get(subscription.planId) ?? 0;
        if (subscription.isActive && planLimit > deviceLimit) deviceLimit = planLimit;
      }
      return { ...user, subscriptions, deviceLimit };
    }),
  };
}

/** The application's plans that raise the device limit, by plan id: few, if any. */
async function readPlanDeviceLimits(
  ctx: OwnerContext,
  applicationId: number,
): Promise<Map<string, number>> {
  const rows = await ctx.db
    .select({ id: plans.id, maxDevices: plans.maxDevices })
    .from(plans)
    .where(and(eq(plans.applicationId, applicationId), sql`${plans.maxDevices} is not null`));
  return new Map(rows.map((row) => [row.id, row.maxDevices ?? 0]));
}

/** A user of the list, with what they hold: the plans, entitlements and devices a row shows. */
export type ListedAppUser = AppUser & { subscriptions: Subscription[]; deviceLimit: number };

async function listAppUserRows({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: { applicationId: number } & PageRequest;
}): Promise<{ application: { id: number; maxDevices: number }; page: Page<AppUser> }> {
  const application = await loadOwnedApplication({ ctx, input });
  const inApplication = eq(appUsers.applicationId, application.id);
  if (input.search) {
    // How many match decides how to find the page: a search matching few users reads them
    // all from the trigram indexes, counted and cut in one statement; one matching more than
    // SEARCH_COUNT_LIMIT finds a page soonest by walking the users newest first.
    const where = and(inApplication, appUserSearchWhere(input.search))!;
    const few = await fewMatchesPage<string>(
      ctx.db,
      (limit) =>
        ctx.db
          .select({ id: appUsers.id, createdAt: appUsers.createdAt })
          .from(appUsers)
          .where(where)
          .limit(limit)
          .as('matches'),
      input,
    );
    return {
      application,
      page: few
        ? {
            rows: await readUsers(ctx, inApplication, few.ids),
            totalCount: few.matched,
            isTotalCapped: false,
          }
        : {
            rows: await readUsers(ctx, inApplication, newestPageIds(ctx, input, where)),
            totalCount: SEARCH_COUNT_LIMIT,
            isTotalCapped: true,
          },
    };
  }
  // Without a search: the page's ids from the (application_id, created_at, id) index alone,
  // read in the same statement as their rows, and the running total beside it.
  const [rows, totalCount] = await Promise.all([
    readUsers(ctx, inApplication, newestPageIds(ctx, input, inApplication)),
    countAppUsers(ctx, { applicationId: application.id }),
  ]);
  return { application, page: { rows, totalCount } };
}

function newestPageIds(ctx: OwnerContext, input: PageRequest, where: SQL) {
  return ctx.db
    .select({ id: appUsers.id })
    .from(appUsers)
    .where(where)
    .orderBy(...newestFirst)
    .limit(input.pageSize)
    .offset((input.page - 1) * input.pageSize);
}

function readUsers(ctx: OwnerContext, inApplication: SQL, ids: string[] | SQLWrapper) {
  if (Array.isArray(ids) && ids.length === 0) return Promise.resolve([]);
  return ctx.db
    .select()
    .from(appUsers)
    .where(and(inApplication, inArray(appUsers.id, ids)))
    .orderBy(...newestFirst);
}

/** The list's search: username or e-mail contains it, case-insensitively (bulk actions too). */
export function appUserSearchWhere(search: string): SQL {
  const pattern = containsPattern(search);
  return or(ilike(appUsers.username, pattern), ilike(appUsers.email, pattern))!;
}
