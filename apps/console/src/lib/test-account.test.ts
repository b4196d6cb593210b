import { describe, expect, it } from 'vitest';
import {
  findTestAccountProblems,
  TEST_ACCOUNT_EMAIL_INVALID,
  TEST_ACCOUNT_EMAIL_REQUIRED,
  TEST_ACCOUNT_NAME_REQUIRED,
  testAccountClaims,
} from './test-account.ts';

describe('testAccountClaims', () => {
  it('derives the Google account id from the e-mail alone, so the same e-mail is the same owner', () => {
    const first = testAccountClaims({ name: 'Ada Lovelace', email: 'ada@example.com' });
    const again = testAccountClaims({ name: '  Countess ', email: ' Ada@Example.COM ' });
    const other = testAccountClaims({ name: 'Ada Lovelace', email: 'ada@example.org' });

    expect(first).toEqual({
      sub: 'test-account:ada@example.com',
      email: 'ada@example.com',
      name: 'Ada Lovelace',
    });
    expect(again.sub).toBe(first.sub);
    expect(again).toMatchObject({ email: 'ada@example.com', name: 'Countess' });
    expect(other.sub).not.toBe(first.sub);
  });
});

describe('findTestAccountProblems', () => {
  it('accepts a name and a well-formed e-mail', () => {
    expect(findTestAccountProblems({ name: 'Ada', email: ' ada@example.com ' })).toEqual({});
  });

  it('asks for a name and an e-mail when they are blank', () => {
    expect(findTestAccountProblems({ name: '  ', email: ' ' })).toEqual({
      name: TEST_ACCOUNT_NAME_REQUIRED,
      email: TEST_ACCOUNT_EMAIL_REQUIRED,
    });
  });

  it('refuses a malformed or overlong e-mail', () => {
    for (const email of [
      'ada',
      'ada@',
      'ada@example',
      'a b@example.com',
      `${'a'.repeat(250)}@x.io`,
    ]) {
      expect(findTestAccountProblems({ name: 'Ada', email }), email).toEqual({
        email: TEST_ACCOUNT_EMAIL_INVALID,
      });
    }
  });
});
