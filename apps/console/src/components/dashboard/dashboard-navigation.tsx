import { BookOpen, House, LogOut } from 'lucide-react';
import { Link } from 'wouter';
import { BrandLogo } from '@/components/layout/brand-logo.tsx';
import { ThemeToggle } from '@/components/theme/theme-toggle.tsx';
import { Button } from '@/components/ui/button.tsx';
import { useAuth } from '@/hooks/use-auth.ts';

/** The dashboard's own top bar: Home, Docs, theme toggle and Logout. */
export function DashboardNavigation() {
  const { signOut } = useAuth();

  return (
    <header className="sticky top-0 z-40 border-b border-border/70 bg-background/80 backdrop-blur-md supports-[backdrop-filter]:bg-background/60">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8">
        <BrandLogo variant="signed-in" />
        <nav aria-label="Main" className="flex items-center gap-1 sm:gap-2">
          <Button asChild variant="ghost" size="sm">
            <Link href="/">
              <House aria-hidden="true" />
              {/* Icons alone on narrow screens, so the bar never overflows a phone. */}
              <span className="sr-only sm:not-sr-only">Home</span>
            </Link>
          </Button>
          <Button asChild variant="ghost" size="sm">
            <Link href="/docs">
              <BookOpen aria-hidden="true" />
              <span className="sr-only sm:not-sr-only">Docs</span>
            </Link>
          </Button>
          <ThemeToggle />
          <Button variant="outline" size="sm" onClick={() => void signOut()}>
            <LogOut aria-hidden="true" />
            <span className="sr-only sm:not-sr-only">Logout</span>
          </Button>
        </nav>
      </div>
    </header>
  );
}
