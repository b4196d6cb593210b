import type { UserPermissions } from '@latchkey/contracts';
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import {
  createAuthValue,
  createCurrentUser,
  renderWithProviders,
} from '@/test/render-with-providers.tsx';
import { SignedInHeader } from './signed-in-header.tsx';

function renderHeader(userPermissions: UserPermissions, signOut = vi.fn(async () => {})) {
  const user = createCurrentUser({ userPermissions });
  renderWithProviders(<SignedInHeader />, {
    path: '/webhooks',
    auth: createAuthValue({ user, isAuthenticated: true, signOut }),
  });
  const navigation = screen.getByRole('navigation', { name: 'Main' });
  const links = Array.from(navigation.querySelectorAll('a')).map((link) => [
    link.textContent,
    link.getAttribute('href'),
  ]);
  return { links, signOut };
}

const ALWAYS_SHOWN = [
  ['Home', '/'],
  ['Dashboard', '/dashboard'],
  ['Webhooks', '/webhooks'],
  ['Blacklist', '/blacklist'],
  ['Activity Logs', '/activity-logs'],
  ['Code', '/integration'],
  ['Docs', '/docs'],
];

describe('SignedInHeader', () => {
  it('shows only the common links to a user without extra permissions', () => {
    const { links } = renderHeader({ role: 'user', permissions: ['manage_applications'] });
    expect(links).toEqual(ALWAYS_SHOWN);
  });

  it('shows Code Editor for edit_code and User Management for manage_users', () => {
    expect(renderHeader({ role: 'admin', permissions: ['edit_code'] }).links).toEqual([
      ...ALWAYS_SHOWN,
      ['Code Editor', '/code-editor'],
    ]);
  });

  it('shows User Management alone for manage_users', () => {
    expect(renderHeader({ role: 'moderator', permissions: ['manage_users'] }).links).toEqual([
      ...ALWAYS_SHOWN,
      ['User Management', '/user-management'],
    ]);
  });

  it.each(['access_admin_panel', 'view_all_data'] as const)(
    'shows User Management to a holder of %s, for its audit or overview section',
    (permission) => {
      expect(renderHeader({ role: 'user', permissions: [permission] }).links).toEqual([
        ...ALWAYS_SHOWN,
        ['User Management', '/user-management'],
      ]);
    },
  );

  it('shows API Tokens alone for manage_api_tokens', () => {
    expect(renderHeader({ role: 'admin', permissions: ['manage_api_tokens'] }).links).toEqual([
      ...ALWAYS_SHOWN,
      ['API Tokens', '/api-tokens'],
    ]);
  });

  it('shows all three to the owner, whose role implies every permission', () => {
    expect(renderHeader({ role: 'owner', permissions: [] }).links).toEqual([
      ...ALWAYS_SHOWN,
      ['Code Editor', '/code-editor'],
      ['User Management', '/user-management'],
      ['API Tokens', '/api-tokens'],
    ]);
  });

  it('marks the current page and signs out on request', () => {
    const { signOut } = renderHeader({ role: 'owner', permissions: [] });

    expect(screen.getByRole('link', { name: 'Webhooks' }).getAttribute('aria-current')).toBe(
      'page',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Sign Out' }));
    expect(signOut).toHaveBeenCalledOnce();
  });
});
