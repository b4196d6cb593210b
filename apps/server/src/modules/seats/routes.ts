import {
  applicationParamsSchema,
  SEAT_FREED,
  seatLeaseListSchema,
  seatListQuerySchema,
  seatParamsSchema,
  deletedResponseSchema,
  type SeatLease,
} from '@latchkey/contracts';
import type { ApplicationEvents } from '../../events/application-events.ts';
import { setPagingHeaders } from '../../http/paging-headers.ts';
import { ok, paged } from '../../http/route-contract.ts';
import { routeDefiner } from '../../http/route-definition.ts';
import { freeSeat } from './free-seat.ts';
import { listSeats } from './list-seats.ts';

const defineRoute = routeDefiner<{ applicationEvents: ApplicationEvents }>();

/** The floating seats of an application's plans in use, for its owner. */
export const seatRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/applications/:id/seats',
    permission: 'signed_in',
    caller: 'owner',
    tag: 'Plans',
    summary: 'The floating seats in use now (paged; ?search by holder or HWID)',
    description:
      'Every live lease of the application\u2019s floating plans, oldest first: whose, on which machine, until when, and whether it is borrowed.',
    params: applicationParamsSchema,
    query: seatListQuerySchema,
    responses: { 200: paged(seatLeaseListSchema, 'Seats in use, oldest lease first.') },
    handle: async ({ params, query, request, reply }): Promise<SeatLease[]> => {
      const page = await listSeats({
        ctx: request.owner!,
        input: { applicationId: params.id, ...query },
      });
      setPagingHeaders(reply, query, page);
      return page.rows;
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/applications/:id/seats/:leaseId',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'Plans',
    summary: 'Free a seat in use',
    description:
      'Its login\u2019s session ends with it. A borrowed seat is freed too; its offline licence, already issued, cannot be recalled.',
    params: seatParamsSchema,
    responses: { 200: ok(deletedResponseSchema) },
    handle: async ({ params, request }, { applicationEvents }) => {
      await freeSeat({
        ctx: { ...request.owner!, applicationEvents },
        input: { applicationId: params.id, leaseId: params.leaseId },
      });
      return { success: true as const, message: SEAT_FREED };
    },
  }),
];
