import { hasPermission, type Permission } from '@latchkey/contracts';
import {
  Activity,
  Ban,
  BookOpen,
  CodeXml,
  House,
  KeyRound,
  LayoutDashboard,
  LogOut,
  Menu,
  SquareTerminal,
  UserCog,
  Webhook,
  type LucideIcon,
} from 'lucide-react';
import { Link, useLocation } from 'wouter';
import { ThemeToggle } from '@/components/theme/theme-toggle.tsx';
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
import { cn } from '@/lib/utils.ts';
import { BrandLogo } from './brand-logo.tsx';

interface NavigationLink {
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

export function SignedInHeader() {
  const { user, signOut } = useAuth();
  const [location] = useLocation();

  // Hiding links is a convenience; the server still enforces every permission.
  const links = SIGNED_IN_NAVIGATION.filter(
    (link) =>
      link.permissions === undefined ||
      (user !== null &&
        link.permissions.some((permission) => hasPermission(user.userPermissions, permission))),
  );

  return (
    <header className="sticky top-0 z-40 border-b border-border/70 bg-background/80 backdrop-blur-md supports-[backdrop-filter]:bg-background/60">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8">
        <BrandLogo variant="signed-in" />
        <nav aria-label="Main" className="hidden items-center gap-0.5 xl:flex">
          {links.map((link) => {
            const isActive = location === link.href;
            return (
              <Link
                key={link.href}
                href={link.href}
                aria-current={isActive ? 'page' : undefined}
                className={cn(
                  'rounded-md px-2.5 py-2 text-sm font-medium whitespace-nowrap transition-colors outline-none focus-visible:ring-[3px] focus-visible:ring-ring/60',
                  isActive
                    ? 'bg-accent text-accent-foreground'
                    : 'text-muted-foreground hover:bg-accent/60 hover:text-foreground',
                )}
              >
                {link.label}
              </Link>
            );
          })}
        </nav>
        <div className="flex items-center gap-2">
          <ThemeToggle />
          <DropdownMenu modal={false}>
            <DropdownMenuTrigger asChild>
              <Button variant="ghost" size="icon" className="xl:hidden" aria-label="Open menu">
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
          <Button variant="outline" size="sm" onClick={() => void signOut()}>
            <LogOut aria-hidden="true" />
            Sign Out
          </Button>
        </div>
      </div>
    </header>
  );
}
