import {
  API_TOKEN_EXPIRY_PAST,
  apiTokenScopes,
  createApiTokenRequestSchema,
  type ApiToken,
  type ApiTokenScope,
  type Application,
  type CreateApiTokenRequest,
} from '@latchkey/contracts';
import { contractProblems } from '@/lib/first-problem.ts';
import { onFirstUse } from '@/lib/on-first-use.ts';

/** The part of a scope before the colon: what it reaches. */
export type ApiTokenResource = ApiTokenScope extends `${infer Resource}:${string}`
  ? Resource
  : never;

export const apiTokenResourceLabels: Record<ApiTokenResource, string> = {
  applications: 'Applications',
  users: 'End users',
  licenses: 'Licence keys',
  blacklist: 'Blacklist',
  activity: 'Activity log',
  webhooks: 'Webhooks',
  orders: 'Shop orders',
};

export interface ApiTokenScopeGroup {
  resource: ApiTokenResource;
  label: string;
  scopes: ApiTokenScope[];
}

/** The scopes by resource, read before write, in the contract's order. */
export const apiTokenScopeGroups: readonly ApiTokenScopeGroup[] = apiTokenScopes.reduce<
  ApiTokenScopeGroup[]
>((groups, scope) => {
  const resource = scope.split(':')[0] as ApiTokenResource;
  const group = groups.find((candidate) => candidate.resource === resource);
  if (group) group.scopes.push(scope);
  else groups.push({ resource, label: apiTokenResourceLabels[resource], scopes: [scope] });
  return groups;
}, []);

/** As the webhooks table shows events: at most 3 badges, then '+N more'. */
export const API_TOKEN_SCOPE_BADGE_LIMIT = 3;

export function splitScopeBadges(scopes: readonly ApiTokenScope[]): {
  shown: ApiTokenScope[];
  hidden: ApiTokenScope[];
} {
  return {
    shown: scopes.slice(0, API_TOKEN_SCOPE_BADGE_LIMIT),
    hidden: scopes.slice(API_TOKEN_SCOPE_BADGE_LIMIT),
  };
}

/** The list shows the prefix (`lk_` and 8 characters) and an ellipsis for the rest. */
export function formatTokenPrefix(prefix: string): string {
  return `${prefix}…`;
}

export const ALL_APPLICATIONS_LABEL = 'All applications';

/**
 * The applications a token reaches, by name: 'All applications' when it is not restricted;
 * an application no longer in the list (deleted, or the list not read yet) by its id.
 */
export function getTokenApplicationNames(
  token: Pick<ApiToken, 'applicationIds'>,
  applications: readonly Pick<Application, 'id' | 'name'>[] | undefined,
): string[] | null {
  if (token.applicationIds === null) return null;
  return token.applicationIds.map(
    (id) => applications?.find((application) => application.id === id)?.name ?? `App ${id}`,
  );
}

export function isTokenExpired(token: Pick<ApiToken, 'expiresAt'>, now = Date.now()): boolean {
  return token.expiresAt !== null && Date.parse(token.expiresAt) <= now;
}

const relativeTimeFormat = onFirstUse(
  () => new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' }),
);

const RELATIVE_UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400],
  ['month', 30 * 86_400],
  ['week', 7 * 86_400],
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
];

/** "just now", "5 minutes ago", "yesterday", "3 months ago": when a token was last used. */
export function formatRelativeTime(isoDateTime: string, now = Date.now()): string {
  const seconds = (Date.parse(isoDateTime) - now) / 1000;
  if (Math.abs(seconds) < 45) return 'just now';
  for (const [unit, size] of RELATIVE_UNITS) {
    if (Math.abs(seconds) >= size) {
      return relativeTimeFormat().format(Math.round(seconds / size), unit);
    }
  }
  return relativeTimeFormat().format(Math.round(seconds / 60), 'minute');
}

/** The fields of the Create Token dialog, as typed. */
export interface ApiTokenFields {
  name: string;
  scopes: ApiTokenScope[];
  isRestrictedToApplications: boolean;
  applicationIds: number[];
  /** yyyy-mm-dd from a date input; empty is never. */
  expiresOn: string;
  /** One address or CIDR range a line, or comma-separated; empty is any address. */
  allowedIps: string;
}

export const EMPTY_API_TOKEN_FIELDS: ApiTokenFields = {
  name: '',
  scopes: [],
  isRestrictedToApplications: false,
  applicationIds: [],
  expiresOn: '',
  allowedIps: '',
};

/** Today in the owner's time zone, as a date input's value (its `min`). */
export function toDateInputValue(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The end of the chosen day in the owner's time zone: a token "expires on" works that day. */
export function toEndOfDayDateTime(date: string): string | null {
  if (date === '') return null;
  const endOfDay = new Date(`${date}T23:59:59.999`);
  return Number.isNaN(endOfDay.getTime()) ? null : endOfDay.toISOString();
}

/** The allowlist's entries: split on lines and commas, trimmed, blanks dropped. */
export function parseAllowedIps(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/** Scopes in the contract's order, whatever order they were ticked in. */
export function toggleScope(
  scopes: readonly ApiTokenScope[],
  scope: ApiTokenScope,
  isChecked: boolean,
): ApiTokenScope[] {
  const chosen = new Set(scopes);
  if (isChecked) chosen.add(scope);
  else chosen.delete(scope);
  return apiTokenScopes.filter((candidate) => chosen.has(candidate));
}

/**
 * The body of POST /api/api-tokens. What the owner left out stays out: no restriction is
 * every application (present and future), no date is never, no list is any address.
 */
export function toCreateApiTokenRequest(fields: ApiTokenFields): CreateApiTokenRequest {
  const expiresAt = toEndOfDayDateTime(fields.expiresOn);
  const allowedIps = parseAllowedIps(fields.allowedIps);
  return {
    name: fields.name.trim(),
    scopes: fields.scopes,
    ...(fields.isRestrictedToApplications ? { applicationIds: fields.applicationIds } : {}),
    ...(expiresAt ? { expiresAt } : {}),
    ...(allowedIps.length > 0 ? { allowedIps } : {}),
  };
}

/** Where the form shows each field of the request: the expiry is typed as a day. */
const API_TOKEN_FIELD_OF_REQUEST: Record<keyof CreateApiTokenRequest, keyof ApiTokenFields> = {
  name: 'name',
  scopes: 'scopes',
  applicationIds: 'applicationIds',
  expiresAt: 'expiresOn',
  allowedIps: 'allowedIps',
};

/** The form field a request path (`allowedIps.1`) is about, or undefined for none. */
export function apiTokenFieldOf(path: string): keyof ApiTokenFields | undefined {
  const [first = ''] = path.split('.');
  return Object.hasOwn(API_TOKEN_FIELD_OF_REQUEST, first)
    ? API_TOKEN_FIELD_OF_REQUEST[first as keyof CreateApiTokenRequest]
    : undefined;
}

/**
 * Each field's problem, all at once, empty when the token may be asked for. The contract's own
 * schema decides, so the words are the server's; the schema cannot know the time, so a past
 * expiry is checked here as the server checks it.
 */
export function findApiTokenProblems(
  fields: ApiTokenFields,
  now = Date.now(),
): Partial<Record<string, string>> {
  const request = toCreateApiTokenRequest(fields);
  const problems = contractProblems(
    createApiTokenRequestSchema,
    request,
    (path) => apiTokenFieldOf(path) ?? '',
  );
  if (request.expiresAt && Date.parse(request.expiresAt) <= now) {
    problems.expiresOn ??= API_TOKEN_EXPIRY_PAST;
  }
  return problems;
}
