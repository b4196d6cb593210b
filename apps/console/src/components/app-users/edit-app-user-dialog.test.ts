import { afterEach, describe, expect, it } from 'vitest';
import { toUpdateAppUserRequest } from './edit-app-user-dialog.tsx';

describe('toUpdateAppUserRequest', () => {
  const originalTimeZone = process.env.TZ;
  afterEach(() => {
    process.env.TZ = originalTimeZone;
  });

  const fields = {
    username: ' alice ',
    email: 'alice@example.com',
    expiresAt: '2030-07-01T09:15',
    hwid: 'PC-1',
    isActive: true,
    isPaused: false,
  };

  it('sends every field of the edit body, the expiry as the instant the owner meant', () => {
    process.env.TZ = 'Australia/Sydney';
    expect(toUpdateAppUserRequest(fields)).toEqual({
      username: 'alice',
      email: 'alice@example.com',
      isActive: true,
      isPaused: false,
      hwid: 'PC-1',
      expiresAt: '2030-06-30T23:15:00.000Z',
    });
  });

  it('sends null for an emptied HWID (a reset), expiry (never) and e-mail', () => {
    expect(
      toUpdateAppUserRequest({ ...fields, hwid: '  ', expiresAt: '', email: '' }),
    ).toMatchObject({ hwid: null, expiresAt: null, email: null });
  });

  it('sends a new password only when one is typed, exactly as typed', () => {
    expect(toUpdateAppUserRequest({ ...fields, password: '' })).not.toHaveProperty('password');
    expect(toUpdateAppUserRequest({ ...fields, password: ' new secret ' })).toMatchObject({
      password: ' new secret ',
    });
  });
});
