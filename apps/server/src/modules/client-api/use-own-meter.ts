import type { ClientUseMeterInput, ClientUseMeterResponse } from '@latchkey/contracts';
import { changeMadeWithin } from '../../events/application-events.ts';
import { invalidRequest } from './client-api-error.ts';
import { appDisabled, clientMessages, refusal } from './client-outcomes.ts';
import type { LicenseClientContext } from './license-client-context.ts';
import { loadLiveSession } from './live-session.ts';
import {
  clientMeterOf,
  type EffectiveMeter,
  type MeterCounter,
  type MeterUseOutcome,
} from '../meters/index.ts';
import { licensingOf } from '../subscriptions/index.ts';

/**
 * POST /api/v1/meters/{name}/use: counts units against a usage meter of the session's user
 * (meters/count-meter-use.ts: race-free, once per idempotency key, the period's reset on the
 * way). The meter is the one the user's active subscriptions define together. The first time
 * in a period the allowance is reached, or an increment refused, the meter_exhausted event goes
 * to the activity log and webhooks. Every counted increment announces the user, so the usage
 * that verify answers from its cached standing is current on every instance.
 */
export async function useOwnMeter({
  ctx,
  input,
}: {
  ctx: LicenseClientContext & { countMeterUse: MeterCounter };
  input: ClientUseMeterInput;
}): Promise<ClientUseMeterResponse> {
  const { application } = ctx;
  if (!application.isActive) return appDisabled();
  const live = await loadLiveSession(ctx, input.session_token);
  if (live.refused) return live.refused;
  const now = ctx.clock.now();
  const meter = licensingOf(live.session.held, now).meters.find(
    (candidate) => candidate.name === input.name,
  );
  if (!meter) return refusal('METER_NOT_FOUND', clientMessages.meterNotFound);
  // The statement that counts also announces the user's change, in its own commit.
  const change = changeMadeWithin(
    ctx.applicationEvents,
    { kind: 'end-user-changed', applicationId: application.id, userId: live.session.userId },
    ctx.log,
  );
  const outcome = await ctx
    .countMeterUse({
      appUserId: live.session.userId,
      meter,
      amount: input.amount,
      idempotencyKey: input.idempotency_key,
      now,
      announcement: change.announcement,
    })
    .catch((error: unknown) => {
      change.notMade();
      throw error;
    });
  if (outcome.kind !== 'counted') change.notMade();
  if (outcome.kind === 'key-reused') {
    throw invalidRequest('idempotency_key was already used for another meter or amount');
  }
  if (outcome.kind !== 'replayed' && outcome.isNewlyExhausted) {
    await ctx.activity.recordActivity({
      applicationId: application.id,
      appUserId: live.session.userId,
      username: live.session.username,
      event: 'meter_exhausted',
      success: outcome.kind === 'counted',
      ipAddress: ctx.ipAddress,
      errorMessage: outcome.kind === 'refused' ? clientMessages.meterExhausted : null,
      metadata: {
        code: outcome.kind === 'refused' ? 'METER_EXHAUSTED' : 'OK',
        meter: meter.name,
        allowance: meter.allowance,
        used: outcome.used,
        ...(outcome.kind === 'refused' ? { refusedAmount: input.amount } : {}),
      },
      createdAt: now,
    });
  }
  if (outcome.kind === 'counted') {
    await change.made(outcome.otherListeners);
  }
  return answerOf(meter, outcome);
}

function answerOf(
  meter: EffectiveMeter,
  outcome: Exclude<MeterUseOutcome, { kind: 'key-reused' }>,
): ClientUseMeterResponse {
  const state = clientMeterOf(meter, outcome.used, outcome.period);
  if (outcome.kind === 'refused') {
    return { ...refusal('METER_EXHAUSTED', clientMessages.meterExhausted), ...state };
  }
  return {
    success: true,
    message: clientMessages.meterCounted,
    code: 'OK',
    ...state,
    replayed: outcome.kind === 'replayed',
  };
}
