import { LogOut, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { ThemeToggle } from '@/components/theme/theme-toggle.tsx';
import { Button } from '@/components/ui/button.tsx';
import { useAuth } from '@/hooks/use-auth.ts';
import { cn } from '@/lib/utils.ts';
import { BrandLogo, type BrandVariant } from './brand-logo.tsx';
import { SIGN_OUT_LABEL, SignedInMenu } from './signed-in-menu.tsx';

export interface TopBarLink {
  href: string;
  label: string;
  icon: LucideIcon;
}

/**
 * The own top bar of a page outside the signed-in layout (home, dashboard, docs): the brand, the
 * page's links, the theme toggle, the menu of every signed-in page and Sign Out. A compact bar
 * shows its buttons' words from sm up only, icons alone on narrow screens, so that the bar
 * never overflows a phone.
 */
export function PageTopBar({
  brand,
  links,
  isCompact = false,
}: {
  brand: BrandVariant;
  links: readonly TopBarLink[];
  isCompact?: boolean;
}) {
  const { signOut } = useAuth();
  const word = (label: string): ReactNode =>
    isCompact ? <span className="sr-only sm:not-sr-only">{label}</span> : label;

  return (
    <header className="sticky top-0 z-40 border-b border-border/70 bg-background/80 backdrop-blur-md supports-[backdrop-filter]:bg-background/60">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8">
        <BrandLogo variant={brand} />
        <nav
          aria-label="Main"
          className={cn('flex items-center', isCompact ? 'gap-1 sm:gap-2' : 'gap-2')}
        >
          {links.map(({ href, label, icon: Icon }) => (
            <Button key={href} asChild variant="ghost" size="sm">
              <Link href={href}>
                <Icon aria-hidden="true" />
                {word(label)}
              </Link>
            </Button>
          ))}
          <ThemeToggle />
          <SignedInMenu />
          {/* signOut ends with a full-page navigation to /api/logout. */}
          <Button variant="outline" size="sm" onClick={() => void signOut()}>
            <LogOut aria-hidden="true" />
            {word(SIGN_OUT_LABEL)}
          </Button>
        </nav>
      </div>
    </header>
  );
}
