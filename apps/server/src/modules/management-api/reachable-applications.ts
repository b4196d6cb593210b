import { notFound } from '../../lib/errors.ts';
import { APPLICATION_NOT_FOUND } from '../applications/load-owned-application.ts';
import type { ManagementContext } from './management-guard.ts';

/**
 * A token restricted to some applications sees the others as absent: the same 404 as another
 * owner's application, never a 403 that would confirm it exists (issue 27).
 */
export function assertApplicationReachable(ctx: ManagementContext, applicationId: number): void {
  if (!isApplicationReachable(ctx, applicationId)) throw notFound(APPLICATION_NOT_FOUND);
}

export function isApplicationReachable(ctx: ManagementContext, applicationId: number): boolean {
  return ctx.token.applicationIds === null || ctx.token.applicationIds.includes(applicationId);
}
