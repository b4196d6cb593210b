import { z } from 'zod';
import {
  clientApiCodeSchema,
  clientLicenseCheckoutResponseSchema,
  clientSessionTokenField,
} from './client-api.ts';
import type { ClientCallEntry } from './client-call-entry.ts';
import { applicationIdSchema } from './applications.ts';
import { pageQueryFields } from './paging.ts';
import { planLimits } from './plans.ts';

/**
 * Floating seats: a floating plan's holder runs `seats` sessions at once on any computers, each
 * login leasing a seat. A session may borrow its seat (an offline licence for some days, the
 * seat kept until then) and return it early.
 */

const BORROW_DAYS_RANGE = `days must be a whole number from 1 to ${planLimits.maxBorrowDays}`;

/** POST /api/v1/session/borrow: the seat of this live session, for `days`, with a licence. */
export const clientBorrowRequestSchema = z.object({
  session_token: clientSessionTokenField,
  days: z
    .number({ error: BORROW_DAYS_RANGE })
    .int(BORROW_DAYS_RANGE)
    .min(1, BORROW_DAYS_RANGE)
    .max(planLimits.maxBorrowDays, BORROW_DAYS_RANGE),
  encrypt: z
    .boolean({ error: 'encrypt must be true or false' })
    .nullish()
    .transform((value) => value ?? false),
});
export type ClientBorrowRequest = z.input<typeof clientBorrowRequestSchema>;
export type ClientBorrowInput = z.output<typeof clientBorrowRequestSchema>;

/** POST /api/v1/session/return: the borrowed seat of this session's login, given back. */
export const clientReturnRequestSchema = z.object({ session_token: clientSessionTokenField });
export type ClientReturnRequest = z.input<typeof clientReturnRequestSchema>;

export const clientReturnResponseSchema = z
  .object({ success: z.boolean(), message: z.string(), code: clientApiCodeSchema })
  .meta({ id: 'ClientReturnResponse' });
export type ClientReturnResponse = z.infer<typeof clientReturnResponseSchema>;

/** The client API's calls for floating seats. */
export const seatClientCalls = {
  borrowSeat: {
    method: 'POST',
    path: '/api/v1/session/borrow',
    summary:
      'Borrows the session\u2019s floating seat for some days: an offline licence until then, and the seat kept taken until it lapses or is returned.',
    request: clientBorrowRequestSchema,
    response: clientLicenseCheckoutResponseSchema,
    brief: 'session_token, days, encrypt?: borrow the seat offline (LK1...)',
  },
  returnSeat: {
    method: 'POST',
    path: '/api/v1/session/return',
    summary: 'Gives a borrowed seat back before the borrow ends.',
    request: clientReturnRequestSchema,
    response: clientReturnResponseSchema,
    brief: 'session_token: give a borrowed seat back early',
  },
} as const satisfies Record<string, ClientCallEntry>;

/** A seat in use, as the owner sees it: GET /api/applications/:id/seats. */
export const seatLeaseSchema = z
  .object({
    id: z.uuid(),
    userId: z.uuid(),
    username: z.string(),
    hwid: z.string().nullable(),
    /** When the lease lapses unless its session's heartbeats renew it (or the borrow's end). */
    expiresAt: z.iso.datetime(),
    /** Set while the seat is borrowed offline: until when. */
    borrowedUntil: z.iso.datetime().nullable(),
    leasedAt: z.iso.datetime(),
  })
  .meta({ id: 'SeatLease', description: 'A floating seat in use.' });
export type SeatLease = z.infer<typeof seatLeaseSchema>;
export const seatLeaseListSchema = z.array(seatLeaseSchema);

/** GET /api/applications/:id/seats?page=&pageSize=&search= (search: the holder's name or the HWID). */
export const seatListQuerySchema = z.object(pageQueryFields);
export type SeatListQuery = z.infer<typeof seatListQuerySchema>;

export const seatParamsSchema = z.object({
  id: applicationIdSchema,
  leaseId: z.uuid('Invalid seat id'),
});

export const SEAT_NOT_FOUND = 'Seat not found (it may have been freed already)';
export const SEAT_FREED = 'Seat freed';
