import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '@latchkey/contracts';
import {
  auditActionLabels,
  describeAuditActor,
  describeAuditChange,
  describeAuditTarget,
  isRemovalAction,
} from './audit-entry-display.ts';

const ownerWriteEntry = (overrides: Partial<AuditEntry> = {}): AuditEntry => ({
  id: '00000000-0000-4000-8000-0000000000b1',
  actor: { id: '00000000-0000-4000-8000-000000000001', email: 'vendor@example.com' },
  action: 'end_user_updated',
  target: { id: '00000000-0000-4000-8000-000000000001', email: 'vendor@example.com' },
  before: null,
  after: null,
  ownerWrite: {
    application: { id: 7, name: 'Acme Desktop' },
    target: { kind: 'end_user', id: '00000000-0000-4000-8000-0000000000c1', label: 'pat' },
    change: {
      password: '[redacted]',
      expiresAt: '2031-01-01T00:00:00.000Z',
      isPaused: true,
      email: null,
      entitlements: ['pro', 'beta'],
    },
  },
  ipAddress: '198.51.100.7',
  createdAt: '2026-03-14T12:00:00.000Z',
  ...overrides,
});

describe('the audit trail of owner writes', () => {
  it('names what a write touched, in the application it was in', () => {
    expect(describeAuditTarget(ownerWriteEntry())).toBe('End user “pat” in “Acme Desktop”');
    const application = ownerWriteEntry({
      action: 'application_deleted',
      ownerWrite: {
        application: { id: 7, name: 'Acme Desktop' },
        target: { kind: 'application', id: '7', label: 'Acme Desktop' },
        change: null,
      },
    });
    expect(describeAuditTarget(application)).toBe('Application “Acme Desktop”');
    const unnamed = ownerWriteEntry({
      ownerWrite: {
        application: { id: 9, name: null },
        target: { kind: 'license_key', id: '00000000-0000-4000-8000-0000000000d1', label: null },
        change: null,
      },
    });
    expect(describeAuditTarget(unnamed)).toBe(
      'Licence key #00000000-0000-4000-8000-0000000000d1 in application #9',
    );
    // An account's entry names the account.
    expect(describeAuditTarget({ target: ownerWriteEntry().target })).toBe('vendor@example.com');
  });

  it('lists the change field by field, secrets as the server redacted them', () => {
    expect(describeAuditChange(ownerWriteEntry())).toEqual([
      'password: [redacted]',
      'expiresAt: 2031-01-01T00:00:00.000Z',
      'isPaused: true',
      'email: none',
      'entitlements: pro, beta',
    ]);
  });

  it('says through which token and from where, or from where in the console', () => {
    expect(describeAuditActor(ownerWriteEntry())).toBe('From 198.51.100.7');
    expect(
      describeAuditActor(
        ownerWriteEntry({
          actorToken: {
            id: '00000000-0000-4000-8000-0000000000e1',
            name: 'Shop',
            prefix: 'lk_abcd1234',
          },
          ipAddress: '203.0.113.9',
        }),
      ),
    ).toBe('By token “Shop” (lk_abcd1234…) from 203.0.113.9');
    expect(describeAuditActor({ ipAddress: null })).toBeNull();
  });

  it('labels every action, removals in the danger colour', () => {
    expect(auditActionLabels.license_keys_generated).toBe('Licence keys generated');
    expect(isRemovalAction('end_user_deleted')).toBe(true);
    expect(isRemovalAction('license_key_banned')).toBe(true);
    expect(isRemovalAction('end_user_paused')).toBe(false);
  });
});
