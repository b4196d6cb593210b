import type { ApplicationEvents } from '../../events/application-events.ts';
import type { createClientRedemption } from '../licenses/index.ts';
import type { MailOutbox, MailRequestThrottles } from '../mail/index.ts';
import type { MeterCounter } from '../meters/index.ts';
import type { ClientCaller } from './client-caller.ts';
import type { ClientContext } from './client-context.ts';
import type { LicenseClientContext } from './license-client-context.ts';
import type { LoginStatements } from './login-statements.ts';
import type { LoginThrottles } from './login-throttles.ts';
import type { SessionLookup } from './session-lookup.ts';
import type { UserStandingLookup } from './user-standing-lookup.ts';

/** What the client calls' verbs are given beside their caller, made once per server. */
export interface ClientCallServices {
  contextOf(caller: ClientCaller): ClientContext;
  licenseContextOf(caller: ClientCaller): LicenseClientContext;
  /** What the calls that check a password need: its throttles, statements and sessions. */
  loginContextOf(caller: ClientCaller): ClientContext & {
    loginThrottles: LoginThrottles;
    statements: LoginStatements;
    sessions: SessionLookup;
    /** Seals the secrets of mail a login queues (a new device's). */
    serverSecret: string;
    /** Announces a user whose cached standing a login changed. */
    applicationEvents: ApplicationEvents;
  };
  /** What the calls that mail an end user need: the outbox and its request budgets. */
  mailContextOf(caller: ClientCaller): ClientContext & {
    mail: MailOutbox;
    mailThrottles: MailRequestThrottles;
    serverSecret: string;
  };
  loginThrottles: LoginThrottles;
  statements: LoginStatements;
  sessions: SessionLookup;
  userStanding: UserStandingLookup;
  redeemForClient: ReturnType<typeof createClientRedemption>;
  countMeterUse: MeterCounter;
  serverSecret: string;
  /** The deployment's public origin, when it names one (download URLs). */
  publicOrigin: string | null;
  endUserPasswordMinLength: number;
  /** The server-wide signing key, hex (answers to unknown API keys are signed with it). */
  serverPublicKeyHex: string;
}
