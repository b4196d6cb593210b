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
    status: 'Active' as const,
  };

  it('sends every field of the account, the expiry as the instant the owner meant', () => {
    process.env.TZ = 'Australia/Sydney';
    expect(toUpdateAppUserRequest(fields)).toEqual({
      username: 'alice',
      email: 'alice@example.com',
      isActive: true,
      isPaused: false,
      expiresAt: '2030-06-30T23:15:00.000Z',
    });
  });

  it('never sends a HWID, so the devices stay as the Devices section left them', () => {
    for (const status of ['Active', 'Paused', 'Disabled'] as const) {
      expect(toUpdateAppUserRequest({ ...fields, status })).not.toHaveProperty('hwid');
    }
  });

  it('sends the status as the server flags', () => {
    expect(toUpdateAppUserRequest({ ...fields, status: 'Paused' })).toMatchObject({
      isActive: true,
      isPaused: true,
    });
    const disabled = toUpdateAppUserRequest({ ...fields, status: 'Disabled' });
    expect(disabled).toMatchObject({ isActive: false });
    expect(disabled).not.toHaveProperty('isPaused');
  });

  it('sends null for an emptied expiry (never) and e-mail', () => {
    expect(toUpdateAppUserRequest({ ...fields, expiresAt: '', email: '' })).toMatchObject({
      expiresAt: null,
      email: null,
    });
  });

  it('sends a new password only when one is typed, exactly as typed', () => {
    expect(toUpdateAppUserRequest({ ...fields, password: '' })).not.toHaveProperty('password');
    expect(toUpdateAppUserRequest({ ...fields, password: ' new secret ' })).toMatchObject({
      password: ' new secret ',
    });
  });
});
