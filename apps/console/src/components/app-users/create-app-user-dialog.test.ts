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
  password: 'secret',
  expiresAt: '',
  hwid: '',
};

describe('validateCreateAppUser', () => {
  it('requires username, e-mail and password on the dashboard', () => {
    expect(validateCreateAppUser(filled, 'dashboard')).toBeNull();
    expect(validateCreateAppUser({ ...filled, email: '  ' }, 'dashboard')).toBe(
      ALL_REQUIRED_FIELDS_MESSAGE,
    );
    expect(validateCreateAppUser({ ...filled, username: '' }, 'dashboard')).toBe(
      'Please fill in all required fields',
    );
  });

  it('requires only a trimmed username and password on the management page', () => {
    expect(validateCreateAppUser({ ...filled, email: '' }, 'application')).toBeNull();
    expect(validateCreateAppUser({ ...filled, username: '   ' }, 'application')).toBe(
      USERNAME_AND_PASSWORD_REQUIRED,
    );
    expect(validateCreateAppUser({ ...filled, password: '   ' }, 'application')).toBe(
      'Please fill in username and password',
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
    expect(body).toEqual({ username: 'alice', email: null, password: 'secret' });
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
      password: 'secret',
      expiresAt: '2030-01-15T15:30:00.000Z',
      hwid: 'PC-1',
    });
  });
});
