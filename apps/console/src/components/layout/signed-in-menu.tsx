import { hasPermission, type Permission } from '@latchkey/contracts';
import {
  Activity,
  Ban,
  BookOpen,
  CodeXml,
  House,
  KeyRound,
  LayoutDashboard,
  Menu,
  SquareTerminal,
  UserCog,
  Webhook,
  type LucideIcon,
} from 'lucide-react';
import { Link, useLocation } from 'wouter';
import { Button } from '@/components/ui/button.tsx';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu.tsx';
import { useAuth } from '@/hooks/use-auth.ts';
import { USER_MANAGEMENT_PERMISSIONS } from '@/lib/site-admin-access.ts';

/** What the button that signs out says, on every page. */
export const SIGN_OUT_LABEL = 'Sign Out';

export interface NavigationLink {
  href: string;
  label: string;
  icon: LucideIcon;
  /** Shown only to owners and to users granted one of these permissions. */
  permissions?: readonly Permission[];
}

export const SIGNED_IN_NAVIGATION: readonly NavigationLink[] = [
  { href: '/', label: 'Home', icon: House },
  { href: '/dashboard', label: 'Dashboard', icon: LayoutDashboard },
  { href: '/webhooks', label: 'Webhooks', icon: Webhook },
  { href: '/blacklist', label: 'Blacklist', icon: Ban },
  { href: '/activity-logs', label: 'Activity Logs', icon: Activity },
  { href: '/integration', label: 'Code', icon: CodeXml },
  { href: '/docs', label: 'Docs', icon: BookOpen },
  { href: '/code-editor', label: 'Code Editor', icon: SquareTerminal, permissions: ['edit_code'] },
  // manage_users, and the holders of the page's other sections (overview, audit trail).
  {
    href: '/user-management',
    label: 'User Management',
    icon: UserCog,
    permissions: USER_MANAGEMENT_PERMISSIONS,
  },
  // Last: the management API's tokens.
  { href: '/api-tokens', label: 'API Tokens', icon: KeyRound, permissions: ['manage_api_tokens'] },
];

/**
 * The signed-in pages this account may open. Hiding links is a convenience: the server still
 * enforces every permission.
 */
export function useSignedInLinks(): readonly NavigationLink[] {
  const { user } = useAuth();
  return SIGNED_IN_NAVIGATION.filter(
    (link) =>
      link.permissions === undefined ||
      (user !== null &&
        link.permissions.some((permission) => hasPermission(user.userPermissions, permission))),
  );
}

/**
 * The compact menu of every signed-in page this account may open, under the account's
 * address: the shared header's on narrow screens, and always on the pages with a top bar of
 * their own (home, dashboard, docs), so every page is one click from anywhere.
 */
export function SignedInMenu({ className }: { className?: string }) {
  const { user } = useAuth();
  const [location] = useLocation();
  const links = useSignedInLinks();
  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" className={className} aria-label="Open menu">
          <Menu aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-56">
        {user && (
          <>
            <DropdownMenuLabel className="truncate">{user.email}</DropdownMenuLabel>
            <DropdownMenuSeparator />
          </>
        )}
        {links.map((link) => (
          <DropdownMenuItem key={link.href} asChild>
            <Link
              href={link.href}
              aria-current={location === link.href ? 'page' : undefined}
              className="aria-[current=page]:font-semibold aria-[current=page]:text-primary"
            >
              <link.icon aria-hidden="true" />
              {link.label}
            </Link>
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
