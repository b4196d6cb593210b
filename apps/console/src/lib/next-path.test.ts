import { describe, expect, it } from 'vitest';
import { buildSignInPath, readSafeNextPath } from './next-path.ts';

const ORIGIN = 'https://console.example';

describe('buildSignInPath', () => {
  it('carries the target, query included, to the sign-in page', () => {
    const signInPath = buildSignInPath('/app/3?tab=users');
    expect(signInPath).toBe('/firebase-login?next=%2Fapp%2F3%3Ftab%3Dusers');
    expect(readSafeNextPath(signInPath.split('?')[1]!, ORIGIN)).toBe('/app/3?tab=users');
  });
});

describe('readSafeNextPath', () => {
  it('accepts a path on this site', () => {
    expect(readSafeNextPath('?next=%2Fblacklist', ORIGIN)).toBe('/blacklist');
    expect(readSafeNextPath('next=/activity-logs', ORIGIN)).toBe('/activity-logs');
  });

  it.each([
    ['no parameter', ''],
    ['an empty target', '?next='],
    ['another site', '?next=https%3A%2F%2Fevil.example%2F'],
    ['a protocol-relative URL', '?next=%2F%2Fevil.example%2Fblacklist'],
    ['a backslash trick', '?next=%2F%5Cevil.example'],
    ['a script URL', '?next=javascript%3Aalert(1)'],
    ['a relative path', '?next=blacklist'],
    ['the sign-in page itself', '?next=%2Ffirebase-login'],
  ])('refuses %s', (_, search) => {
    expect(readSafeNextPath(search, ORIGIN)).toBeNull();
  });
});
