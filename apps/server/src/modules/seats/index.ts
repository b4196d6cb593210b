/** What the seats module offers the other modules. */
export { takeSeat, type SeatOutcome } from './take-seat.ts';
export { seatTermsOf } from './seat-terms.ts';
export { releaseSeat } from './release-seat.ts';
