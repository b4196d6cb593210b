import { USERNAME_AND_PASSWORD_REQUIRED } from '@latchkey/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ALL_REQUIRED_FIELDS_MESSAGE,
  toCreateAppUserRequest,
  validateCreateAppUser,
  type CreateAppUserFields,
} from './create-app-user-dialog.tsx';

const filled: CreateAppUserFields = {
  username: 'alice',
  email: 'alice@example.com',
  password: 'long secret',
  expiresAt: '',
  hwid: '',
};

describe('validateCreateAppUser', () => {
  it('requires username, e-mail and password on the dashboard', () => {
    expect(validateCreateAppUser(filled, 'dashboard', 8)).toBeNull();
    expect(validateCreateAppUser({ ...filled, email: '  ' }, 'dashboard', 8)).toBe(
      ALL_REQUIRED_FIELDS_MESSAGE,
    );
    expect(validateCreateAppUser({ ...filled, username: '' }, 'dashboard', 8)).toBe(
      'Please fill in all required fields',
    );
  });

  it('requires only a trimmed username and password on the management page', () => {
    expect(validateCreateAppUser({ ...filled, email: '' }, 'application', 8)).toBeNull();
    expect(validateCreateAppUser({ ...filled, username: '   ' }, 'application', 8)).toBe(
      USERNAME_AND_PASSWORD_REQUIRED,
    );
    expect(validateCreateAppUser({ ...filled, password: '   ' }, 'application', 8)).toBe(
      'Please fill in username and password',
    );
  });
});

describe('validateCreateAppUser: the password rule', () => {
  it('refuses a password shorter than the minimum the server announced', () => {
    const short = { ...filled, password: 'x'.repeat(11) };
    expect(validateCreateAppUser(short, 'application', 12)).toBe(
      'Password must be at least 12 characters',
    );
    expect(validateCreateAppUser(short, 'dashboard', 11)).toBeNull();
  });

  it('still gives the required-fields message first for an all-space password', () => {
    expect(validateCreateAppUser({ ...filled, password: '          ' }, 'application', 8)).toBe(
      USERNAME_AND_PASSWORD_REQUIRED,
    );
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
