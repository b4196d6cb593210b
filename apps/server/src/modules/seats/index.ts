/** What the seats module offers the other modules. */
export { borrowLease, returnLease } from './borrow-lease.ts';
export { freeSeat } from './free-seat.ts';
export { listSeats } from './list-seats.ts';
export { releaseSeat } from './release-seat.ts';
export { seatRoutes } from './routes.ts';
export { seatTermsOf } from './seat-terms.ts';
export { seatOutcomeOf, takeSeat, type SeatOutcome, type TakeSeatRow } from './take-seat.ts';
