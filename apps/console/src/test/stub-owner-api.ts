import {
  defaultApplicationMessages,
  type ActivityChart,
  type ActivityChartPoint,
  type ActivityChartRange,
  deviceDefaults,
  keyauthLimits,
  offlineLicenseLimits,
  type Application,
  type AppUserListRow,
  type Device,
  type Plan,
} from '@latchkey/contracts';
import { vi } from 'vitest';

export interface SentRequest {
  method: string;
  /** Path and query string, as the console asked for it. */
  path: string;
  body: unknown;
}

/**
 * What the stand-in server answers a request with; `undefined` is a JSON 404, as our server
 * answers an unknown /api path. A promise that never settles keeps a query loading.
 */
export type OwnerApiRoute = (
  request: SentRequest & { url: URL },
) => Response | undefined | Promise<Response | undefined>;

export function jsonResponse(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

/** One page of a paged list, with the paging headers of packages/contracts/src/paging.ts. */
export function pagedResponse(
  rows: unknown[],
  { page = 1, pageSize = 50, total = rows.length } = {},
) {
  return jsonResponse(200, rows, {
    'X-Total-Count': String(total),
    'X-Page': String(page),
    'X-Page-Size': String(pageSize),
  });
}

/** A request that is still on its way when the test looks. */
export function neverAnswered(): Promise<Response> {
  return new Promise<Response>(() => {});
}

/**
 * Replaces `fetch` with `route`, a stand-in for the owner API the page calls, and returns the
 * list of requests the console sent (bodies parsed), so a test can check what was asked.
 */
export function stubOwnerApi(route: OwnerApiRoute): SentRequest[] {
  const sent: SentRequest[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const request: SentRequest = {
        method: init?.method ?? 'GET',
        path: url.pathname + url.search,
        body: init?.body ? JSON.parse(String(init.body)) : undefined,
      };
      sent.push(request);
      return (
        (await route({ ...request, url })) ??
        jsonResponse(404, {
          message: `No route ${request.method} ${url.pathname}`,
          code: 'NOT_FOUND',
        })
      );
    }),
  );
  return sent;
}

/**
 * stubOwnerApi with refusals: `refuseNext(method, pathname, answer)` answers the next request
 * to `METHOD pathname` (the query string aside) with `answer` instead of asking `route`; an
 * Error is thrown, as fetch does when the network fails.
 */
export function stubRefusingOwnerApi(route: OwnerApiRoute): {
  sent: SentRequest[];
  refuseNext: (method: string, pathname: string, answer: Response | Error) => void;
} {
  const refusals = new Map<string, Response | Error>();
  const sent = stubOwnerApi((request) => {
    const key = `${request.method} ${request.url.pathname}`;
    const refusal = refusals.get(key);
    if (!refusal) return route(request);
    refusals.delete(key);
    if (refusal instanceof Error) throw refusal;
    return refusal;
  });
  return {
    sent,
    refuseNext: (method, pathname, answer) => refusals.set(`${method} ${pathname}`, answer),
  };
}

/** A stubbed owner API as a test reads it: what the console sent, and refusals to come. */
export interface OwnerApiRecorder {
  /** Every request sent, in order. */
  all: SentRequest[];
  /** The requests of `method`; only those to `pathname` (the query string aside) when given. */
  sent: (method: string, pathname?: string) => SentRequest[];
  /** Answers the next `METHOD pathname` with `status`, and `message` when one is given. */
  refuseNext: (method: string, pathname: string, status: number, message?: string) => void;
}

/** stubRefusingOwnerApi as a test reads it; a refusal's message comes with `errorCode`. */
export function recordOwnerApi(
  route: OwnerApiRoute,
  { errorCode = 'CONFLICT' }: { errorCode?: string } = {},
): OwnerApiRecorder {
  const { sent, refuseNext } = stubRefusingOwnerApi(route);
  return {
    all: sent,
    sent: (method, pathname) =>
      sent.filter(
        (request) =>
          request.method === method &&
          (pathname === undefined || request.path.split('?')[0] === pathname),
      ),
    refuseNext: (method, pathname, status, message) =>
      refuseNext(
        method,
        pathname,
        jsonResponse(status, message === undefined ? {} : { message, code: errorCode }),
      ),
  };
}

/**
 * A stand-in for one owner collection at `path`, its rows held in memory so the list refreshes
 * after each change: GET answers `list(rows, url)` (all rows unless it searches), POST adds
 * `create(100 + count, body)`, PUT on `path/<id>` answers the row `update` makes of it and the
 * body, DELETE removes the row and answers `deletedMessage`.
 */
export function stubCollectionApi<Row extends { id: string | number }>({
  path,
  initial,
  create,
  update = (row, changes) => ({ ...row, ...changes }),
  list = (rows) => rows,
  deletedMessage,
}: {
  path: string;
  initial: readonly Row[];
  create: (index: number, body: Partial<Row>) => Row;
  update?: (row: Row, changes: Partial<Row>) => Row;
  list?: (rows: readonly Row[], url: URL) => readonly Row[];
  deletedMessage: string;
}): OwnerApiRecorder {
  let rows = [...initial];
  return recordOwnerApi(({ method, url, body }) => {
    if (url.pathname === path && method === 'GET') return jsonResponse(200, list(rows, url));
    if (url.pathname === path && method === 'POST') {
      const created = create(100 + rows.length, body as Partial<Row>);
      rows = [...rows, created];
      return jsonResponse(201, created);
    }
    const one = rows.find(({ id }) => url.pathname === `${path}/${id}`);
    if (!one) return undefined;
    if (method === 'PUT') {
      const updated = update(one, body as Partial<Row>);
      rows = rows.map((candidate) => (candidate.id === one.id ? updated : candidate));
      return jsonResponse(200, updated);
    }
    if (method === 'DELETE') {
      rows = rows.filter((candidate) => candidate.id !== one.id);
      return jsonResponse(200, { success: true, message: deletedMessage });
    }
    return undefined;
  });
}

/** An application as GET /api/applications lists it. */
export function createApplication(overrides: Partial<Application> = {}): Application {
  return {
    id: 7,
    name: 'Orbit',
    description: null,
    apiKey: 'lk_live_0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHI',
    isActive: true,
    version: '1.0.0',
    hwidLockEnabled: false,
    maxSessionsPerUser: null,
    licenseRequired: false,
    ...deviceDefaults,
    maxOfflineDays: offlineLicenseLimits.defaultMaxOfflineDays,
    currentReleaseFileId: null,
    portalEnabled: false,
    portalName: null,
    portalPublicId: '0123456789abcdef0123',
    mailSenderName: null,
    mailReplyTo: null,
    requireVerifiedEmail: false,
    newDeviceMail: false,
    expiryReminderDays: null,
    trialDays: null,
    trialEntitlements: [],
    ...defaultApplicationMessages,
    keyauthCompatibility: false,
    keyauthOwnerId: null,
    keyauthName: null,
    keyauthSecret: null,
    keyauthSessionHours: keyauthLimits.defaultSessionHours,
    signingPublicKey: 'ab'.repeat(32),
    createdAt: '2025-03-14T12:00:00.000Z',
    updatedAt: '2025-03-14T12:00:00.000Z',
    ...overrides,
  };
}

/**
 * The application most panel tests manage, as createApplication makes it: its paths are
 * /api/applications/7/….
 */
export const orbit = createApplication();

/**
 * An end user as GET /api/applications/:id/users lists one: number `index` of application 7,
 * named `pilot_<index>`, active, holding nothing.
 */
export function createAppUserRow(
  index: number,
  overrides: Partial<AppUserListRow> = {},
): AppUserListRow {
  return {
    id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    applicationId: 7,
    username: `pilot_${index}`,
    email: null,
    emailVerified: false,
    isActive: true,
    isPaused: false,
    expiresAt: null,
    hwid: null,
    deviceCount: 0,
    loginAttempts: 0,
    lastLogin: null,
    createdAt: '2025-03-14T12:00:00.000Z',
    updatedAt: '2025-03-14T12:00:00.000Z',
    subscriptions: [],
    entitlements: [],
    deviceLimit: 1,
    ...overrides,
  };
}

/** The end user whose own lists (the Edit User dialog's sections) a test renders. */
export const sectionUser = {
  applicationId: 7,
  userId: '40000000-0000-4000-8000-000000000001',
  username: 'pilot',
} as const;

/** The owner API path of one of sectionUser's lists: `devices`, `subscriptions`, `variables`. */
export function sectionUserPath(list: string): string {
  return `/api/applications/${sectionUser.applicationId}/users/${sectionUser.userId}/${list}`;
}

/**
 * A plan as GET /api/applications/:id/plans lists it: number `index` of application 7, named
 * `Plan <index>`, lifetime, granting nothing, active, not raising the device limit.
 */
export function createPlan(index: number, overrides: Partial<Plan> = {}): Plan {
  return {
    id: `10000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    applicationId: 7,
    name: `Plan ${index}`,
    durationDays: null,
    entitlements: [],
    description: null,
    maxDevices: null,
    updatesForDays: null,
    meters: [],
    updatesFrom: 'redemption',
    floating: false,
    seats: null,
    leaseMinutes: 60,
    maxBorrowDays: 0,
    archived: false,
    createdAt: '2025-03-14T12:00:00.000Z',
    updatedAt: '2025-03-14T12:00:00.000Z',
    ...overrides,
  };
}

/**
 * A device as GET /api/applications/:appId/users/:userId/devices lists one: number `index`,
 * named `PC-<index>`, with a HWID longer than the 8 characters a preview shows.
 */
export function createDevice(index: number, overrides: Partial<Device> = {}): Device {
  return {
    id: `20000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    hwid: `HWID-${String(index).padStart(4, '0')}-ABCDEF-0123456789`,
    name: `PC-${index}`,
    firstSeenAt: '2025-03-14T12:00:00.000Z',
    lastSeenAt: '2025-03-15T08:30:00.000Z',
    lastIp: `203.0.113.${index}`,
    activatedOfflineAt: null,
    ...overrides,
  };
}

/**
 * An activity chart as the server answers it: every bucket of the range from `now`,
 * zero-filled, with `values` added to the buckets counted back from the newest (0).
 */
export function createActivityChart(
  range: ActivityChartRange = '24h',
  values: Record<number, Partial<Omit<ActivityChartPoint, 'start'>>> = {},
  now = new Date('2026-06-10T12:30:00Z'),
): ActivityChart {
  const isHourly = range === '24h';
  const size = isHourly ? 3_600_000 : 86_400_000;
  const count = isHourly ? 24 : range === '7d' ? 7 : 30;
  const last = Math.floor(now.getTime() / size) * size;
  return {
    range,
    bucket: isHourly ? 'hour' : 'day',
    points: Array.from({ length: count }, (_, index) => ({
      start: new Date(last - (count - 1 - index) * size).toISOString(),
      logins: 0,
      failedLogins: 0,
      registrations: 0,
      newSessions: 0,
      liveSessions: 0,
      ...values[count - 1 - index],
    })),
  };
}
