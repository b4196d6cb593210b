import {
  BLACKLIST_INVALID_EMAIL,
  BLACKLIST_INVALID_IP,
  BLACKLIST_TYPE_AND_VALUE_REQUIRED,
  type BlacklistEntry,
} from '@latchkey/contracts';
import { describe, expect, it } from 'vitest';
import {
  BLACKLIST_COUNT_CARD_TITLES,
  countActiveEntries,
  EMPTY_BLACKLIST_ENTRY_FIELDS,
  getBlacklistReason,
  getBlacklistScopeLabel,
  findBlacklistEntryProblems,
  toCreateBlacklistEntryRequest,
} from './blacklist-display.ts';

function createEntry(overrides: Partial<BlacklistEntry> = {}): BlacklistEntry {
  return {
    id: 1,
    type: 'ip',
    value: '203.0.113.7',
    reason: null,
    applicationId: null,
    application: null,
    isActive: true,
    createdAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

describe('countActiveEntries', () => {
  it('counts active entries per type, and only active ones', () => {
    const entries = [
      createEntry({ type: 'ip' }),
      createEntry({ type: 'ip', isActive: false }),
      createEntry({ type: 'username' }),
      createEntry({ type: 'username' }),
      createEntry({ type: 'hwid', isActive: false }),
      createEntry({ type: 'email', applicationId: 3, application: { name: 'Nova' } }),
    ];
    expect(countActiveEntries(entries)).toEqual({ ip: 1, username: 2, email: 1, hwid: 0 });
  });

  it('is zero for every type of an empty list', () => {
    expect(countActiveEntries([])).toEqual({ ip: 0, username: 0, email: 0, hwid: 0 });
  });

  it("titles the cards as the spec spells them, 'Addresss' included", () => {
    expect(Object.values(BLACKLIST_COUNT_CARD_TITLES)).toEqual([
      'Blocked IP Addresss',
      'Usernames',
      'Emails',
      'Hardware IDs',
    ]);
  });
});

describe('table columns', () => {
  it("names the application, or says 'Global' for an entry without one", () => {
    expect(getBlacklistScopeLabel(createEntry())).toBe('Global');
    expect(
      getBlacklistScopeLabel(createEntry({ applicationId: 7, application: { name: 'Nova' } })),
    ).toBe('Nova');
    expect(getBlacklistScopeLabel(createEntry({ applicationId: 7, application: null }))).toBe(
      'App 7',
    );
  });

  it("says 'No reason provided' for a missing or blank reason", () => {
    expect(getBlacklistReason(createEntry({ reason: null }))).toBe('No reason provided');
    expect(getBlacklistReason(createEntry({ reason: '  ' }))).toBe('No reason provided');
    expect(getBlacklistReason(createEntry({ reason: 'Chargeback' }))).toBe('Chargeback');
  });
});

describe('the Add Blacklist Entry form', () => {
  const filled = { type: 'username', value: ' mallory ', reason: '', scope: 'global' } as const;

  it('requires a type and a non-blank value, each marked where it is missing', () => {
    expect(findBlacklistEntryProblems(EMPTY_BLACKLIST_ENTRY_FIELDS)).toEqual({
      type: BLACKLIST_TYPE_AND_VALUE_REQUIRED,
      value: BLACKLIST_TYPE_AND_VALUE_REQUIRED,
    });
    expect(findBlacklistEntryProblems({ ...filled, type: '' })).toEqual({
      type: 'Please select a type and provide a value',
    });
    expect(findBlacklistEntryProblems({ ...filled, value: '   ' })).toEqual({
      value: BLACKLIST_TYPE_AND_VALUE_REQUIRED,
    });
    expect(findBlacklistEntryProblems(filled)).toEqual({});
  });

  it('refuses an IP entry that is not one address or range, at the value, as the server would', () => {
    for (const value of ['10.0.0.0/33', '999.1.1.1', '2001:db8::/129']) {
      expect(findBlacklistEntryProblems({ ...filled, type: 'ip', value })).toEqual({
        value: BLACKLIST_INVALID_IP,
      });
    }
    for (const value of [' 2001:db8::1 ', '10.0.0.0/8', '2001:db8::/64']) {
      expect(findBlacklistEntryProblems({ ...filled, type: 'ip', value })).toEqual({});
    }
  });

  it('refuses an e-mail entry that is not an e-mail address, at the value, as the server would', () => {
    expect(findBlacklistEntryProblems({ ...filled, type: 'email', value: 'nobody' })).toEqual({
      value: BLACKLIST_INVALID_EMAIL,
    });
    expect(findBlacklistEntryProblems({ ...filled, type: 'email', value: 'a@b.example' })).toEqual(
      {},
    );
  });

  it('says a reason too long at the reason, along with a bad value', () => {
    const problems = findBlacklistEntryProblems({
      ...filled,
      type: 'ip',
      value: 'nope',
      reason: 'x'.repeat(10_000),
    });
    expect(problems.value).toBe(BLACKLIST_INVALID_IP);
    expect(problems.reason).toMatch(/^Reason must be at most \d+ characters$/);
  });

  it("leaves out applicationId for 'Global' and sends the chosen application's id otherwise", () => {
    const global = toCreateBlacklistEntryRequest(filled);
    expect(global).toEqual({ type: 'username', value: 'mallory', reason: null });
    expect('applicationId' in global).toBe(false);
    expect(
      toCreateBlacklistEntryRequest({ ...filled, reason: ' Chargeback ', scope: '12' }),
    ).toEqual({ type: 'username', value: 'mallory', reason: 'Chargeback', applicationId: 12 });
  });
});
