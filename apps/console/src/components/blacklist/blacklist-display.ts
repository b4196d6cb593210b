import {
  blacklistTypes,
  createBlacklistEntryRequestSchema,
  type BlacklistEntry,
  type BlacklistType,
  type CreateBlacklistEntryRequest,
} from '@latchkey/contracts';
import { contractProblems } from '@/lib/first-problem.ts';

/** The four count cards, titled word for word as specified ('Addresss' included). */
export const BLACKLIST_COUNT_CARD_TITLES: Record<BlacklistType, string> = {
  ip: 'Blocked IP Addresss',
  username: 'Usernames',
  email: 'Emails',
  hwid: 'Hardware IDs',
};

/** The cards count active entries only. */
export function countActiveEntries(
  entries: readonly Pick<BlacklistEntry, 'type' | 'isActive'>[],
): Record<BlacklistType, number> {
  const counts = Object.fromEntries(blacklistTypes.map((type) => [type, 0])) as Record<
    BlacklistType,
    number
  >;
  for (const entry of entries) if (entry.isActive) counts[entry.type] += 1;
  return counts;
}

export const GLOBAL_SCOPE_LABEL = 'Global';

/** The Application column: the application's name, or 'Global' for an entry without one. */
export function getBlacklistScopeLabel(
  entry: Pick<BlacklistEntry, 'applicationId' | 'application'>,
): string {
  if (entry.applicationId === null) return GLOBAL_SCOPE_LABEL;
  return entry.application?.name || `App ${entry.applicationId}`;
}

export const NO_REASON_TEXT = 'No reason provided';

export function getBlacklistReason(entry: Pick<BlacklistEntry, 'reason'>): string {
  return entry.reason?.trim() || NO_REASON_TEXT;
}

/** The application select's value for "every application" (Radix reserves ''). */
export const GLOBAL_SCOPE_VALUE = 'global';

export interface BlacklistEntryFields {
  type: BlacklistType | '';
  value: string;
  reason: string;
  /** GLOBAL_SCOPE_VALUE or an application id as a string. */
  scope: string;
}

export const EMPTY_BLACKLIST_ENTRY_FIELDS: BlacklistEntryFields = {
  type: '',
  value: '',
  reason: '',
  scope: GLOBAL_SCOPE_VALUE,
};

/** A global entry leaves applicationId out; an empty reason is null. */
export function toCreateBlacklistEntryRequest(
  fields: BlacklistEntryFields,
): CreateBlacklistEntryRequest {
  return {
    type: fields.type || undefined,
    value: fields.value.trim(),
    reason: fields.reason.trim() || null,
    ...(fields.scope === GLOBAL_SCOPE_VALUE ? {} : { applicationId: Number(fields.scope) }),
  };
}

/**
 * The form field a request path is about, or undefined for one the form shows no problem at
 * (the application is chosen from a list of valid values).
 */
export function blacklistEntryFieldOf(path: string): 'type' | 'value' | 'reason' | undefined {
  const [first = ''] = path.split('.');
  return first === 'type' || first === 'value' || first === 'reason' ? first : undefined;
}

/**
 * Each field's problem, all at once, empty when the entry may be sent. The server's own request
 * schema decides, so the console and the server never disagree: an IP entry that is not one
 * address or range, or an e-mail entry that is not an address, gives the contract's message at
 * the value. A missing type or value ('Please select a type and provide a value', said of the
 * whole request) is shown at whichever of the two is missing.
 */
export function findBlacklistEntryProblems(
  fields: BlacklistEntryFields,
): Partial<Record<string, string>> {
  const { '': typeAndValueRequired, ...problems } = contractProblems(
    createBlacklistEntryRequestSchema,
    toCreateBlacklistEntryRequest(fields),
    (path) => blacklistEntryFieldOf(path) ?? '',
  );
  if (typeAndValueRequired === undefined) return problems;
  const missing = [
    ...(fields.type === '' ? (['type'] as const) : []),
    ...(fields.value.trim() === '' ? (['value'] as const) : []),
  ];
  // Anything else said of the whole request stays the form's message.
  if (missing.length === 0) return { ...problems, '': typeAndValueRequired };
  for (const name of missing) problems[name] = typeAndValueRequired;
  return problems;
}
