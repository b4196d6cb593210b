/** What the seats module offers the other modules. */
export { takeSeat, type SeatOutcome } from './take-seat.ts';
