import { USERNAME_AND_PASSWORD_REQUIRED } from '@latchkey/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ALL_REQUIRED_FIELDS_MESSAGE,
  findCreateAppUserProblems,
  toCreateAppUserRequest,
  type CreateAppUserFields,
} from './create-app-user-dialog.tsx';

const filled: CreateAppUserFields = {
  username: 'alice',
  email: 'alice@example.com',
  password: 'long secret',
  expiresAt: '',
  hwid: '',
};

describe('findCreateAppUserProblems', () => {
  it('requires username, e-mail and password on the dashboard, each at its field', () => {
    expect(findCreateAppUserProblems(filled, 'dashboard', 8)).toEqual({});
    expect(findCreateAppUserProblems({ ...filled, email: '  ' }, 'dashboard', 8)).toEqual({
      email: ALL_REQUIRED_FIELDS_MESSAGE,
    });
    expect(
      findCreateAppUserProblems({ ...filled, username: '', password: '' }, 'dashboard', 8),
    ).toEqual({
      username: 'Please fill in all required fields',
      password: 'Please fill in all required fields',
    });
  });

  it('requires only a trimmed username and password on the management page', () => {
    expect(findCreateAppUserProblems({ ...filled, email: '' }, 'application', 8)).toEqual({});
    expect(findCreateAppUserProblems({ ...filled, username: '   ' }, 'application', 8)).toEqual({
      username: USERNAME_AND_PASSWORD_REQUIRED,
    });
    expect(findCreateAppUserProblems({ ...filled, password: '   ' }, 'application', 8)).toEqual({
      password: 'Please fill in username and password',
    });
  });

  it("says the contract's problems at their fields along with the rest", () => {
    expect(
      findCreateAppUserProblems(
        { ...filled, username: '', email: 'not an address', hwid: 'x'.repeat(300) },
        'application',
        8,
      ),
    ).toEqual({
      username: USERNAME_AND_PASSWORD_REQUIRED,
      email: 'Please enter a valid e-mail address',
      hwid: 'HWID must be at most 256 characters',
    });
  });
});

describe('findCreateAppUserProblems: the password rule', () => {
  it('refuses a password shorter than the minimum the server announced', () => {
    const short = { ...filled, password: 'x'.repeat(11) };
    expect(findCreateAppUserProblems(short, 'application', 12)).toEqual({
      password: 'Password must be at least 12 characters',
    });
    expect(findCreateAppUserProblems(short, 'dashboard', 11)).toEqual({});
  });

  it('gives the required-fields message for an all-space password', () => {
    expect(
      findCreateAppUserProblems({ ...filled, password: '          ' }, 'application', 8),
    ).toEqual({ password: USERNAME_AND_PASSWORD_REQUIRED });
  });
});

describe('toCreateAppUserRequest', () => {
  const originalTimeZone = process.env.TZ;
  afterEach(() => {
    process.env.TZ = originalTimeZone;
  });

  it('leaves out an empty expiry and HWID, and sends a missing e-mail as null', () => {
    const body = toCreateAppUserRequest({ ...filled, username: ' alice ', email: ' ' });
    expect(body).toEqual({ username: 'alice', email: null, password: 'long secret' });
    expect('expiresAt' in body).toBe(false);
    expect('hwid' in body).toBe(false);
  });

  it('sends a filled expiry as an ISO instant (from local time) and a filled HWID', () => {
    process.env.TZ = 'America/New_York';
    expect(
      toCreateAppUserRequest({ ...filled, expiresAt: '2030-01-15T10:30', hwid: ' PC-1 ' }),
    ).toEqual({
      username: 'alice',
      email: 'alice@example.com',
      password: 'long secret',
      expiresAt: '2030-01-15T15:30:00.000Z',
      hwid: 'PC-1',
    });
  });
});
