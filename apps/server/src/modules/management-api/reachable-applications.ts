import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import { APPLICATION_NOT_FOUND } from '../../ownership/load-owned-application.ts';
import type { ManagementContext } from './management-guard.ts';

/**
 * A token restricted to some applications sees the others as absent: the same 404 as another
 * owner's application, never a 403 that would confirm it exists.
 */
export function assertApplicationReachable(ctx: ManagementContext, applicationId: number): void {
  if (!isApplicationReachable(ctx, applicationId)) throw notFound(APPLICATION_NOT_FOUND);
}

export function isApplicationReachable(ctx: ManagementContext, applicationId: number): boolean {
  return ctx.token.applicationIds === null || ctx.token.applicationIds.includes(applicationId);
}

/**
 * The blacklist and webhooks belong to the whole account (an entry or a webhook may span every
 * application), so only a token that reaches every application may read or change them.
 */
export function assertAccountWide(ctx: ManagementContext): void {
  if (ctx.token.applicationIds === null) return;
  throw new AppError(
    'FORBIDDEN',
    'This token is restricted to some applications; the blacklist and webhooks need a token for all of them',
  );
}

/**
 * The activity log of a restricted token: one of its applications at a time, named with
 * ?applicationId (a log of every application would show the others').
 */
export function assertActivityReachable(
  ctx: ManagementContext,
  applicationId: number | undefined,
): void {
  if (applicationId !== undefined) return assertApplicationReachable(ctx, applicationId);
  if (ctx.token.applicationIds !== null) {
    throw badRequest('This token is restricted to some applications: name one with ?applicationId');
  }
}
