import { apiTokenScopes } from '@latchkey/contracts';
import { describe, expect, it } from 'vitest';
import {
  apiTokenScopeGroups,
  EMPTY_API_TOKEN_FIELDS,
  formatRelativeTime,
  getTokenApplicationNames,
  isTokenExpired,
  parseAllowedIps,
  toCreateApiTokenRequest,
  toDateInputValue,
  toEndOfDayDateTime,
  toggleScope,
} from './api-token-display.ts';

const NOW = Date.parse('2026-06-10T12:00:00.000Z');
const ago = (seconds: number) => new Date(NOW - seconds * 1000).toISOString();

describe('API token display', () => {
  it('groups the scopes by resource, read before write, every scope once', () => {
    expect(apiTokenScopeGroups.map((group) => [group.label, group.scopes])).toEqual([
      ['Applications', ['applications:read']],
      ['End users', ['users:read', 'users:write']],
      ['Licence keys', ['licenses:read', 'licenses:write']],
      ['Blacklist', ['blacklist:read', 'blacklist:write']],
      ['Activity log', ['activity:read']],
      ['Webhooks', ['webhooks:read', 'webhooks:write']],
      ['Shop orders', ['orders:read']],
    ]);
    expect(apiTokenScopeGroups.flatMap((group) => group.scopes)).toEqual(apiTokenScopes);
  });

  it('keeps ticked scopes in the contract order', () => {
    const ticked = toggleScope(['webhooks:write'], 'applications:read', true);
    expect(ticked).toEqual(['applications:read', 'webhooks:write']);
    expect(toggleScope(ticked, 'webhooks:write', false)).toEqual(['applications:read']);
  });

  it('says when a token was last used in words', () => {
    expect(formatRelativeTime(ago(10), NOW)).toBe('just now');
    expect(formatRelativeTime(ago(60), NOW)).toBe('1 minute ago');
    expect(formatRelativeTime(ago(5 * 60), NOW)).toBe('5 minutes ago');
    expect(formatRelativeTime(ago(3 * 3600), NOW)).toBe('3 hours ago');
    expect(formatRelativeTime(ago(86_400), NOW)).toBe('yesterday');
    expect(formatRelativeTime(ago(9 * 86_400), NOW)).toBe('last week');
    expect(formatRelativeTime(ago(400 * 86_400), NOW)).toBe('last year');
  });

  it('reads an expiry as past from its instant on', () => {
    expect(isTokenExpired({ expiresAt: null }, NOW)).toBe(false);
    expect(isTokenExpired({ expiresAt: ago(0) }, NOW)).toBe(true);
    expect(isTokenExpired({ expiresAt: ago(-1) }, NOW)).toBe(false);
  });

  it('names applications from the list, by id when missing, and null for all', () => {
    const applications = [{ id: 7, name: 'Orbit' }];
    expect(getTokenApplicationNames({ applicationIds: null }, applications)).toBeNull();
    expect(getTokenApplicationNames({ applicationIds: [7, 9] }, applications)).toEqual([
      'Orbit',
      'App 9',
    ]);
    expect(getTokenApplicationNames({ applicationIds: [7] }, undefined)).toEqual(['App 7']);
  });

  it('splits the allowlist on lines and commas', () => {
    expect(parseAllowedIps(' 10.0.0.1 ,\n\n2001:db8::/32\r\n192.0.2.0/24,')).toEqual([
      '10.0.0.1',
      '2001:db8::/32',
      '192.0.2.0/24',
    ]);
    expect(parseAllowedIps(' \n , ')).toEqual([]);
  });

  it('sends the end of the chosen local day, and leaves out what was left empty', () => {
    const endOfDay = toEndOfDayDateTime('2026-12-31')!;
    const local = new Date(endOfDay);
    expect([local.getFullYear(), local.getMonth(), local.getDate(), local.getHours()]).toEqual([
      2026, 11, 31, 23,
    ]);
    expect(toEndOfDayDateTime('')).toBeNull();
    expect(toDateInputValue(new Date(2026, 0, 5))).toBe('2026-01-05');

    expect(
      toCreateApiTokenRequest({
        ...EMPTY_API_TOKEN_FIELDS,
        name: ' Bot ',
        scopes: ['activity:read'],
        applicationIds: [7],
      }),
    ).toEqual({ name: 'Bot', scopes: ['activity:read'] });
  });
});
