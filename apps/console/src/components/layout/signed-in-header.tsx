import { LogOut } from 'lucide-react';
import { Link, useLocation } from 'wouter';
import { ThemeToggle } from '@/components/theme/theme-toggle.tsx';
import { Button } from '@/components/ui/button.tsx';
import { useAuth } from '@/hooks/use-auth.ts';
import { cn } from '@/lib/utils.ts';
import { BrandLogo } from './brand-logo.tsx';
import { SIGN_OUT_LABEL, SignedInMenu, useSignedInLinks } from './signed-in-menu.tsx';

export function SignedInHeader() {
  const { signOut } = useAuth();
  const [location] = useLocation();
  const links = useSignedInLinks();

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
          <SignedInMenu className="xl:hidden" />
          <Button variant="outline" size="sm" onClick={() => void signOut()}>
            <LogOut aria-hidden="true" />
            {SIGN_OUT_LABEL}
          </Button>
        </div>
      </div>
    </header>
  );
}
