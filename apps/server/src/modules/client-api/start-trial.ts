import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type {
  ActivityEvent,
  ClientApiCode,
  ClientAuthResponse,
  ClientTrialInput,
} from '@latchkey/contracts';
import { applications, machineTrials, plans, subscriptions } from '../../db/schema/index.ts';
import { isUniqueViolation, redactDatabaseError } from '../../lib/database-errors.ts';
import type { ActivityRecord } from '../../events/activity-events.ts';
import { writeActivityRows } from '../activity/index.ts';
import { syncTrialPlan } from '../trials/index.ts';
import { blockedEventOf } from './blocked-event.ts';
import { appDisabled, clientMessages, refusal } from './client-outcomes.ts';
import { completeLogin, type LoginContext } from './complete-login.ts';
import { loadIdentifiedUser } from './load-identified-user.ts';
import { insertPasswordlessAccount, unknownPasswordHash } from './passwordless-account.ts';
import type { LicenseClientContext } from './license-client-context.ts';

const DAY_MS = 86_400_000;

/** A trial account named by nobody: `trial-` and random hex, never derived from the HWID. */
const trialUsername = () => `trial-${randomBytes(6).toString('hex')}`;

type TrialContext = LicenseClientContext & LoginContext;

/**
 * POST /api/v1/trial: the machine's trial, once per machine (HWID) of the application. The
 * first call from a machine creates a trial account (named `username`, else `trial-<random>`)
 * expiring after the application's `trialDays`, with a subscription of the application's trial
 * plan (its trial entitlements) ending then, and records the machine in `machine_trials`, all in
 * one transaction; the primary key on (application, HWID) makes two first calls at once start
 * one trial. Every later call from the machine, whatever name it sends (a reinstall, a new
 * account), logs in the trial it already has: TRIAL_EXPIRED once that account's time is up,
 * TRIAL_USED when the vendor deleted it. Then the checks and the answer of a login. The HWID is
 * the trial's only credential, as in every machine-bound trial: a trial grants what the vendor
 * chose to give away to anyone with the program.
 */
export async function startTrial({
  ctx,
  input,
}: {
  ctx: TrialContext;
  input: ClientTrialInput;
}): Promise<ClientAuthResponse> {
  const { application, activity } = ctx;
  if (!application.isActive) return appDisabled();
  const now = ctx.clock.now();
  const metadata = {
    action: 'trial',
    hwid: input.hwid,
    ...(input.version ? { version: input.version } : {}),
  };
  const record = (
    event: ActivityEvent,
    code: ClientApiCode,
    message: string,
    user: { id: string; username: string } | null,
    extra: Record<string, unknown> = {},
  ) =>
    activity.recordActivity({
      applicationId: application.id,
      appUserId: user?.id ?? null,
      username: user?.username ?? null,
      event,
      success: false,
      ipAddress: ctx.ipAddress,
      errorMessage: message,
      metadata: { ...metadata, ...extra, code },
      createdAt: now,
    });

  const blockedBy = await ctx.blacklist.find({
    ownerAccountId: application.ownerAccountId,
    applicationId: application.id,
    ipAddress: ctx.ipAddress,
    username: input.username ?? '',
    email: null,
    hwid: input.hwid,
  });
  if (blockedBy) {
    await record(blockedEventOf[blockedBy], 'BLACKLISTED', clientMessages.blacklisted, null, {
      blockedBy,
    });
    return refusal('BLACKLISTED', clientMessages.blacklisted);
  }

  let trial = await findMachineTrial(ctx, input.hwid);
  if (!trial.machine) {
    if (trial.trialDays === null) {
      await record('login_failed', 'TRIAL_UNAVAILABLE', clientMessages.trialUnavailable, null);
      return refusal('TRIAL_UNAVAILABLE', clientMessages.trialUnavailable);
    }
    const started = await createTrial(ctx, {
      hwid: input.hwid,
      username: input.username,
      trialDays: trial.trialDays,
      trialEntitlements: trial.trialEntitlements,
      now,
    });
    // Read again whoever wrote it: another call from the machine may have started it first
    // (with the same name, too), and theirs is then this machine's trial.
    trial = await findMachineTrial(ctx, input.hwid);
    if (started === 'username-taken' && !trial.machine) {
      await record('login_failed', 'USERNAME_TAKEN', clientMessages.usernameTaken, null);
      return refusal('USERNAME_TAKEN', clientMessages.usernameTaken);
    }
  }
  const machine = trial.machine;
  if (!machine) throw new Error('a machine trial vanished right after it was written');
  if (machine.appUserId === null) {
    await record('login_failed', 'TRIAL_USED', clientMessages.trialUsed, null);
    return refusal('TRIAL_USED', clientMessages.trialUsed);
  }

  const user = await loadIdentifiedUser(ctx.db, {
    applicationId: application.id,
    userId: machine.appUserId,
  });
  // Deleted between the two reads: the set-null is on its way.
  if (!user) return refusal('TRIAL_USED', clientMessages.trialUsed);

  return completeLogin(ctx, {
    user,
    version: input.version,
    hwid: input.hwid,
    deviceName: input.device_name,
    metadata,
    now,
    // The trial's end is its account's expiry: the vendor extends a trial by extending it.
    refuse: async (code, event, message) => {
      activity.countFailedLogin(user.id);
      const isEnded = code === 'ACCOUNT_EXPIRED';
      const answered = isEnded ? 'TRIAL_EXPIRED' : code;
      const text = isEnded ? clientMessages.trialEnded : message;
      await record(event, answered, text, user);
      return {
        ...refusal(answered, text),
        ...(isEnded ? { expires_at: user.expiresAt?.toISOString() ?? null } : {}),
      };
    },
    onNotWritten: async () => refusal('TRIAL_USED', clientMessages.trialUsed),
  });
}

interface FoundTrial {
  trialDays: number | null;
  trialEntitlements: string[];
  machine: { appUserId: string | null } | null;
}

/** The application's trial settings and this machine's trial, if it has had one. */
async function findMachineTrial(ctx: TrialContext, hwid: string): Promise<FoundTrial> {
  const [row] = await ctx.db
    .select({
      trialDays: applications.trialDays,
      trialEntitlements: applications.trialEntitlements,
      hasTrial: sql<boolean>`${machineTrials.hwid} is not null`,
      appUserId: machineTrials.appUserId,
    })
    .from(applications)
    .leftJoin(
      machineTrials,
      and(eq(machineTrials.applicationId, applications.id), eq(machineTrials.hwid, hwid)),
    )
    .where(eq(applications.id, ctx.application.id));
  if (!row) return { trialDays: null, trialEntitlements: [], machine: null };
  return {
    trialDays: row.trialDays,
    trialEntitlements: row.trialEntitlements,
    machine: row.hasTrial ? { appUserId: row.appUserId } : null,
  };
}

/**
 * The machine's first trial: its account, its grant of the trial plan and its machine row, with
 * their events, in one transaction. Nothing is written when the machine or the name is taken.
 */
async function createTrial(
  ctx: TrialContext,
  input: {
    hwid: string;
    username: string | null;
    trialDays: number;
    trialEntitlements: string[];
    now: Date;
  },
): Promise<'started' | 'machine-taken' | 'username-taken'> {
  const { application } = ctx;
  const { now } = input;
  const endsAt = new Date(now.getTime() + input.trialDays * DAY_MS);
  const username = input.username ?? trialUsername();
  const passwordHash = await unknownPasswordHash();
  try {
    const outcome = await ctx.db.transaction(async (tx) => {
      const { userId, registered } = await insertPasswordlessAccount(tx, {
        applicationId: application.id,
        username,
        passwordHash,
        expiresAt: endsAt,
        action: 'trial',
        ipAddress: ctx.ipAddress,
        now,
      });
      await tx.insert(machineTrials).values({
        applicationId: application.id,
        hwid: input.hwid,
        appUserId: userId,
        startedAt: now,
        endsAt,
      });
      const [existingPlan] = await tx
        .select({ id: plans.id })
        .from(plans)
        .where(and(eq(plans.applicationId, application.id), eq(plans.isTrial, true)));
      const planId =
        existingPlan?.id ??
        (await syncTrialPlan(
          tx,
          {
            id: application.id,
            trialDays: input.trialDays,
            trialEntitlements: input.trialEntitlements,
          },
          now,
        ));
      await tx.insert(subscriptions).values({
        applicationId: application.id,
        appUserId: userId,
        planId,
        expiresAt: endsAt,
        createdAt: now,
        updatedAt: now,
      });
      const records: ActivityRecord[] = [
        registered,
        {
          ...registered,
          event: 'trial_started',
          metadata: {
            hwid: input.hwid,
            trial_days: input.trialDays,
            ends_at: endsAt.toISOString(),
            code: 'OK',
          },
        },
      ];
      const queued = await writeActivityRows(tx, records);
      return { records, queued };
    });
    outcome.records.forEach((record, index) =>
      ctx.activity.noteWritten(record, index === outcome.records.length - 1 ? outcome.queued : 0),
    );
    return 'started';
  } catch (error) {
    if (isUniqueViolation(error, 'machine_trials_application_id_hwid_pk')) return 'machine-taken';
    if (isUniqueViolation(error, 'app_users_application_username_idx')) {
      // A random name that collided is as unlikely as a collision gets: the caller's was taken.
      return 'username-taken';
    }
    throw redactDatabaseError(error);
  }
}
