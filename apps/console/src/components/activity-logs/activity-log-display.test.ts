import type { ActivityLog } from '@latchkey/contracts';
import { describe, expect, it } from 'vitest';
import {
  computeActivityLogStats,
  filterActivityLogs,
  getActivityEventTone,
  getActivityLogApplicationName,
  getActivityLogDetails,
  getActivityLogIpAddress,
  getActivityLogUsername,
  hasActiveFilters,
  NO_ACTIVITY_LOG_FILTERS,
} from './activity-log-display.ts';

let nextId = 1;
function createLog(overrides: Partial<ActivityLog> = {}): ActivityLog {
  return {
    id: nextId++,
    event: 'user_login',
    success: true,
    applicationId: 1,
    application: { name: 'Orbit' },
    appUser: { username: 'alice' },
    username: 'alice',
    ipAddress: '127.0.0.1',
    errorMessage: null,
    metadata: {},
    createdAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

describe('getActivityLogDetails', () => {
  it('shows the error message first', () => {
    expect(
      getActivityLogDetails(
        createLog({ errorMessage: 'Invalid username or password', metadata: { code: 'X' } }),
      ),
    ).toBe('Invalid username or password');
  });

  it('else the first 50 characters of the metadata as JSON', () => {
    const metadata = { code: 'OK', hwid: 'HWID-'.repeat(20), version: '1.0.0' };
    const details = getActivityLogDetails(createLog({ metadata }));
    expect(details).toHaveLength(50);
    expect(details).toBe(JSON.stringify(metadata).slice(0, 50));
    expect(getActivityLogDetails(createLog({ metadata: { code: 'OK' } }))).toBe('{"code":"OK"}');
  });

  it("else 'Success'", () => {
    expect(getActivityLogDetails(createLog({ metadata: {} }))).toBe('Success');
    expect(getActivityLogDetails(createLog({ errorMessage: '', metadata: {} }))).toBe('Success');
  });
});

describe('the other columns', () => {
  it("names the application, or 'App {id}'", () => {
    expect(getActivityLogApplicationName(createLog())).toBe('Orbit');
    expect(
      getActivityLogApplicationName(createLog({ applicationId: 42, application: { name: '' } })),
    ).toBe('App 42');
  });

  it("shows the user as now, else the name sent, else 'Unknown'", () => {
    expect(getActivityLogUsername(createLog({ appUser: { username: 'Alice2' } }))).toBe('Alice2');
    expect(getActivityLogUsername(createLog({ appUser: null, username: 'ghost' }))).toBe('ghost');
    expect(getActivityLogUsername(createLog({ appUser: null, username: null }))).toBe('Unknown');
  });

  it("says 'Unknown' without an IP address", () => {
    expect(getActivityLogIpAddress(createLog({ ipAddress: null }))).toBe('Unknown');
    expect(getActivityLogIpAddress(createLog({ ipAddress: '::1' }))).toBe('::1');
  });

  it('colours successes, blocks and other refusals apart', () => {
    expect(getActivityEventTone('user_register')).toBe('success');
    expect(getActivityEventTone('login_blocked_hwid')).toBe('blocked');
    expect(getActivityEventTone('version_mismatch')).toBe('failure');
  });
});

describe('filters, search and stat cards', () => {
  const logs = [
    createLog({ event: 'user_register', ipAddress: '10.0.0.1' }),
    createLog({ event: 'user_login', ipAddress: '10.0.0.1' }),
    createLog({
      event: 'login_failed',
      success: false,
      appUser: null,
      username: 'Mallory',
      ipAddress: '10.0.0.2',
      errorMessage: 'Invalid username or password',
    }),
    createLog({
      event: 'login_blocked_username',
      success: false,
      applicationId: 2,
      application: { name: 'Nova' },
      appUser: null,
      username: 'mallory',
      ipAddress: '192.168.5.9',
    }),
    createLog({ event: 'hwid_mismatch', success: false, applicationId: 2, ipAddress: null }),
  ];

  it('computes the four cards over the list it is given', () => {
    expect(computeActivityLogStats(logs)).toEqual({
      totalEvents: 5,
      successful: 2,
      failed: 3,
      uniqueIps: 3,
    });
    expect(computeActivityLogStats([])).toEqual({
      totalEvents: 0,
      successful: 0,
      failed: 0,
      uniqueIps: 0,
    });
  });

  it('filters by event type, and the cards follow the filtered list', () => {
    const failed = filterActivityLogs(logs, { ...NO_ACTIVITY_LOG_FILTERS, event: 'login_failed' });
    expect(failed.map((log) => log.event)).toEqual(['login_failed']);
    expect(computeActivityLogStats(failed)).toEqual({
      totalEvents: 1,
      successful: 0,
      failed: 1,
      uniqueIps: 1,
    });
  });

  it('filters by application', () => {
    const nova = filterActivityLogs(logs, { ...NO_ACTIVITY_LOG_FILTERS, applicationId: 2 });
    expect(nova.map((log) => log.event)).toEqual(['login_blocked_username', 'hwid_mismatch']);
  });

  it('searches usernames, IP addresses and event names and labels, ignoring case', () => {
    const search = (text: string) =>
      filterActivityLogs(logs, { ...NO_ACTIVITY_LOG_FILTERS, search: text }).map(
        (log) => log.event,
      );
    expect(search('MALLORY')).toEqual(['login_failed', 'login_blocked_username']);
    expect(search('192.168')).toEqual(['login_blocked_username']);
    expect(search('hwid_MISMATCH')).toEqual(['hwid_mismatch']);
    expect(search('username blocked')).toEqual(['login_blocked_username']);
    expect(search('  ')).toHaveLength(5);
    expect(search('nobody')).toEqual([]);
    // Neither the application's name nor the error message is searched.
    expect(search('Nova')).toEqual([]);
    expect(search('password')).toEqual([]);
  });

  it('combines every filter', () => {
    expect(
      filterActivityLogs(logs, { applicationId: 1, event: 'login_failed', search: 'mall' }),
    ).toHaveLength(1);
    expect(
      filterActivityLogs(logs, { applicationId: 2, event: 'login_failed', search: 'mall' }),
    ).toHaveLength(0);
  });

  it('knows when any filter is set', () => {
    expect(hasActiveFilters(NO_ACTIVITY_LOG_FILTERS)).toBe(false);
    expect(hasActiveFilters({ ...NO_ACTIVITY_LOG_FILTERS, search: '  ' })).toBe(false);
    expect(hasActiveFilters({ ...NO_ACTIVITY_LOG_FILTERS, search: 'a' })).toBe(true);
    expect(hasActiveFilters({ ...NO_ACTIVITY_LOG_FILTERS, applicationId: 3 })).toBe(true);
    expect(hasActiveFilters({ ...NO_ACTIVITY_LOG_FILTERS, event: 'user_login' })).toBe(true);
  });
});
