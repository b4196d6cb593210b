import type { HeldSubscription } from '../subscriptions/index.ts';

/** The user a login has identified (by password or by licence key), as its last checks need. */
export interface IdentifiedUser {
  id: string;
  username: string;
  email: string | null;
  isActive: boolean;
  isPaused: boolean;
  expiresAt: Date | null;
  isEmailVerified: boolean;
  hwid: string | null;
  held: HeldSubscription[];
}
