import { LayoutDashboard, LogOut } from 'lucide-react';
import { Link } from 'wouter';
import { BrandLogo } from '@/components/layout/brand-logo.tsx';
import { ThemeToggle } from '@/components/theme/theme-toggle.tsx';
import { Button } from '@/components/ui/button.tsx';
import { useAuth } from '@/hooks/use-auth.ts';

/** The home page's own top bar: Dashboard, theme toggle and Logout. */
export function HomeNavigation() {
  const { signOut } = useAuth();

  return (
    <header className="sticky top-0 z-40 border-b border-border/70 bg-background/80 backdrop-blur-md supports-[backdrop-filter]:bg-background/60">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8">
        <BrandLogo variant="signed-in" />
        <nav aria-label="Main" className="flex items-center gap-2">
          <Button asChild variant="ghost" size="sm">
            <Link href="/dashboard">
              <LayoutDashboard aria-hidden="true" />
              Dashboard
            </Link>
          </Button>
          <ThemeToggle />
          <Button variant="outline" size="sm" onClick={() => void signOut()}>
            <LogOut aria-hidden="true" />
            Logout
          </Button>
        </nav>
      </div>
    </header>
  );
}
