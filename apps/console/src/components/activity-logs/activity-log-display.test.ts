import type { ActivityLog } from '@latchkey/contracts';
import { describe, expect, it } from 'vitest';
import {
  getActivityEventTone,
  getActivityLogApplicationName,
  getActivityLogDetails,
  getActivityLogIpAddress,
  getActivityLogUsername,
  hasActiveFilters,
  NO_ACTIVITY_LOG_FILTERS,
  toActivityLogQuery,
} from './activity-log-display.ts';
import { formatMetadataText } from './activity-log-metadata-text.ts';

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

  it('else the metadata as readable pairs, in its own key order', () => {
    expect(
      getActivityLogDetails(
        createLog({ metadata: { hwid: 'HWID-BOB-01', version: '1.0.0', code: 'OK' } }),
      ),
    ).toBe('hwid HWID-BOB-01 · version 1.0.0 · code OK');
    expect(getActivityLogDetails(createLog({ metadata: { code: 'OK' } }))).toBe('code OK');
    expect(
      getActivityLogDetails(createLog({ metadata: { ttlSeconds: 3600, isEncrypted: false } })),
    ).toBe('ttlSeconds 3600 · isEncrypted false');
  });

  it('flattens nested objects by path and lists of values into one value', () => {
    expect(
      getActivityLogDetails(
        createLog({ metadata: { device: { name: 'Office PC' }, plans: ['Pro', 'Team'] } }),
      ),
    ).toBe('device.name Office PC · plans Pro, Team');
    expect(getActivityLogDetails(createLog({ metadata: { items: [{ id: 1 }, { id: 2 }] } }))).toBe(
      'items[0].id 1 · items[1].id 2',
    );
    // Uncut, deeper nesting reads the same way.
    expect(
      formatMetadataText({
        device: { name: 'Office PC', owner: { email: 'bob@example.com' } },
        plans: ['Pro', null, 'Team'],
      }),
    ).toBe('device.name Office PC · device.owner.email bob@example.com · plans Pro, Team');
  });

  it('skips null and blank values, and reads line breaks as spaces', () => {
    expect(
      getActivityLogDetails(
        createLog({
          metadata: { hwid: null, reason: '  Charge\nbacks ', note: '', tags: [], extra: {} },
        }),
      ),
    ).toBe('reason Charge backs');
  });

  it('cuts after 50 characters with an ellipsis', () => {
    const metadata = { code: 'OK', hwid: 'HWID-'.repeat(20), version: '1.0.0' };
    const details = getActivityLogDetails(createLog({ metadata }));
    expect(details).toHaveLength(51);
    expect(details).toBe(`code OK · hwid ${'HWID-'.repeat(20)}`.slice(0, 50) + '…');
    expect(details).not.toContain('{');

    // Exactly 50 characters fit whole.
    const fifty = getActivityLogDetails(createLog({ metadata: { note: 'x'.repeat(45) } }));
    expect(fifty).toBe(`note ${'x'.repeat(45)}`);
    expect(fifty).toHaveLength(50);
  });

  it('counts an emoji as one character and never cuts it in half', () => {
    const details = getActivityLogDetails(createLog({ metadata: { note: '😀'.repeat(60) } }));
    expect(Array.from(details)).toHaveLength(51);
    expect(details).toBe(`note ${'😀'.repeat(45)}…`);
  });

  it("else 'Success'", () => {
    expect(getActivityLogDetails(createLog({ metadata: {} }))).toBe('Success');
    expect(getActivityLogDetails(createLog({ errorMessage: '', metadata: {} }))).toBe('Success');
    expect(getActivityLogDetails(createLog({ metadata: { hwid: null, version: '' } }))).toBe(
      'Success',
    );
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

  it('greens a device bound and marks a device released for a look', () => {
    expect(getActivityEventTone('device_added')).toBe('success');
    expect(getActivityEventTone('device_released')).toBe('failure');
  });

  it('greens an offline licence issued', () => {
    expect(getActivityEventTone('license_checkout')).toBe('success');
  });

  it('greens an e-mail address confirmed', () => {
    expect(getActivityEventTone('email_verified')).toBe('success');
  });
});

describe('filters', () => {
  it('asks the server for "all" as no filter, and the search trimmed', () => {
    expect(toActivityLogQuery(NO_ACTIVITY_LOG_FILTERS)).toEqual({
      applicationId: null,
      event: null,
      search: '',
    });
    expect(
      toActivityLogQuery({ applicationId: 3, event: 'login_failed', search: '  mallory ' }),
    ).toEqual({ applicationId: 3, event: 'login_failed', search: 'mallory' });
  });

  it('knows when any filter is set', () => {
    expect(hasActiveFilters(NO_ACTIVITY_LOG_FILTERS)).toBe(false);
    expect(hasActiveFilters({ ...NO_ACTIVITY_LOG_FILTERS, search: '  ' })).toBe(false);
    expect(hasActiveFilters({ ...NO_ACTIVITY_LOG_FILTERS, search: 'a' })).toBe(true);
    expect(hasActiveFilters({ ...NO_ACTIVITY_LOG_FILTERS, applicationId: 3 })).toBe(true);
    expect(hasActiveFilters({ ...NO_ACTIVITY_LOG_FILTERS, event: 'user_login' })).toBe(true);
  });
});
