import type { AdminUser } from '@latchkey/contracts';
import { describe, expect, it } from 'vitest';
import { describeAuditChange } from '@/components/user-management/audit-entry-display.ts';
import {
  canDeleteAccount,
  canEditAccount,
  formatPermissionCount,
  getAccountDisplayName,
  getDeletionRefusal,
  getSiteAdminAccess,
  isPermissionAssignable,
  isRoleAssignable,
  withRoleDefaults,
} from './site-admin-access.ts';

const target = (overrides: Partial<AdminUser> = {}): AdminUser => ({
  id: 'target',
  email: 'target@example.com',
  firstName: null,
  lastName: null,
  role: 'user',
  permissions: [],
  isActive: true,
  createdAt: '2025-03-14T12:00:00.000Z',
  lastSignInAt: null,
  ...overrides,
});

describe('site admin access', () => {
  it('reads each section from the role or the explicit permission', () => {
    const user = (role: 'owner' | 'user', permissions: AdminUser['permissions'] = []) => ({
      id: 'me',
      email: 'me@example.com',
      firstName: null,
      lastName: null,
      userPermissions: { role, permissions },
    });
    expect(getSiteAdminAccess(user('owner'))).toEqual({
      canManageUsers: true,
      canManagePermissions: true,
      canViewOverview: true,
      canViewAuditTrail: true,
    });
    expect(getSiteAdminAccess(user('user', ['view_all_data']))).toEqual({
      canManageUsers: false,
      canManagePermissions: false,
      canViewOverview: true,
      canViewAuditTrail: false,
    });
    expect(getSiteAdminAccess(null).canManageUsers).toBe(false);
  });

  it('refuses deleting oneself with the Cannot Delete toast, and hides delete on owners', () => {
    expect(getDeletionRefusal('target', target())).toEqual({
      title: 'Cannot Delete',
      description: 'You cannot delete your own account.',
    });
    expect(getDeletionRefusal('me', target())).toBeNull();
    expect(canDeleteAccount('me', target())).toBe(true);
    expect(canDeleteAccount('target', target())).toBe(false);
    expect(canDeleteAccount('me', target({ role: 'owner' }))).toBe(false);
  });

  it('lets only an owner edit an owner, and grants nothing above the actor', () => {
    expect(canEditAccount({ role: 'admin', permissions: [] }, target({ role: 'owner' }))).toBe(
      false,
    );
    expect(canEditAccount({ role: 'owner', permissions: [] }, target({ role: 'owner' }))).toBe(
      true,
    );
    expect(isRoleAssignable({ role: 'moderator', permissions: [] }, 'admin')).toBe(false);
    expect(isRoleAssignable({ role: 'moderator', permissions: [] }, 'moderator')).toBe(true);
    expect(isPermissionAssignable({ role: 'admin', permissions: ['edit_code'] }, 'edit_code')).toBe(
      true,
    );
    expect(isPermissionAssignable({ role: 'admin', permissions: [] }, 'edit_code')).toBe(false);
  });

  it("adds a role's defaults the actor may grant, and keeps what was ticked", () => {
    const owner = { role: 'owner' as const, permissions: [] };
    expect(withRoleDefaults(['edit_code'], 'admin', owner)).toEqual([
      'edit_code',
      'manage_api_tokens',
    ]);
    expect(withRoleDefaults(['edit_code'], 'moderator', owner)).toEqual(['edit_code']);
    expect(
      withRoleDefaults(['edit_code'], 'admin', { role: 'admin', permissions: ['manage_users'] }),
    ).toEqual(['edit_code']);
    expect(
      withRoleDefaults([], 'admin', { role: 'admin', permissions: ['manage_api_tokens'] }),
    ).toEqual(['manage_api_tokens']);
  });

  it('names an account by full name, else e-mail, and counts an owner as holding all eight', () => {
    expect(getAccountDisplayName(target({ firstName: 'Ada', lastName: null }))).toBe('Ada');
    expect(getAccountDisplayName(target({ firstName: ' ', lastName: null }))).toBe(
      'target@example.com',
    );
    expect(formatPermissionCount({ role: 'owner', permissions: [] })).toBe('8 permissions');
    expect(formatPermissionCount({ role: 'user', permissions: ['edit_code'] })).toBe(
      '1 permission',
    );
  });

  it('describes a deletion by the state the account had', () => {
    expect(
      describeAuditChange({
        before: { role: 'admin', permissions: ['edit_code'], isActive: false },
        after: null,
      }),
    ).toEqual(['Was: Role Admin; Inactive; Permissions: Edit Code']);
  });
});
