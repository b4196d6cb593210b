import { accountClientCalls, signingKeyClientCalls } from './client-api.ts';
import type { ClientCallEntry } from './client-call-entry.ts';
import { fileClientCalls } from './app-files.ts';
import { variableClientCalls } from './variables.ts';
import { meterClientCalls } from './meter-client-calls.ts';
import { seatClientCalls } from './seats.ts';

export type { ClientCallEntry } from './client-call-entry.ts';

/**
 * Every call of the client API, in the order people meet them. Each call is written once, beside
 * its schemas in its domain's contract file; the server's table of client calls is built on
 * these entries (a test holds the two to the same calls), and the console's /docs reference and
 * the code editor's seeded document list them from here.
 */
export const clientCallCatalogue = {
  ...accountClientCalls,
  ...variableClientCalls,
  ...fileClientCalls,
  ...meterClientCalls,
  ...seatClientCalls,
  ...signingKeyClientCalls,
} as const satisfies Record<string, ClientCallEntry>;
