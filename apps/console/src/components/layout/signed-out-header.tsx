import { lazy, Suspense, useState } from 'react';
import { Link } from 'wouter';
import { ThemeToggle } from '@/components/theme/theme-toggle.tsx';
import { Button } from '@/components/ui/button.tsx';
import { useHasPageLoaded } from '@/hooks/use-has-page-loaded.ts';
import { BrandLogo } from './brand-logo.tsx';
import { LandingSectionMenuButton } from './landing-section-menu-button.tsx';
import { LANDING_SECTIONS, SectionLink } from './section-link.tsx';

// Radix's menu (with its positioning and focus code) is a fifth of the landing page's JavaScript;
// it loads after first paint, before anyone can reach for it.
const LandingSectionMenu = lazy(() =>
  import('./landing-section-menu.tsx').then((module) => ({ default: module.LandingSectionMenu })),
);

const navLinkClassName =
  'rounded-md px-3 py-2 text-sm font-medium text-muted-foreground transition-colors outline-none hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/60';

export function SignedOutHeader() {
  const hasPageLoaded = useHasPageLoaded();
  // A tap before the menu's code has arrived is not lost: the menu opens when it does.
  const [isMenuRequested, setIsMenuRequested] = useState(false);
  const menuPlaceholder = <LandingSectionMenuButton onClick={() => setIsMenuRequested(true)} />;

  return (
    <header className="sticky top-0 z-40 border-b border-border/70 bg-background/75 backdrop-blur-md supports-[backdrop-filter]:bg-background/60">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8">
        <BrandLogo variant="signed-out" />
        <nav aria-label="Sections" className="hidden items-center gap-1 md:flex">
          {LANDING_SECTIONS.map((section) => (
            <SectionLink key={section.id} sectionId={section.id} className={navLinkClassName}>
              {section.label}
            </SectionLink>
          ))}
        </nav>
        <div className="flex items-center gap-2">
          <ThemeToggle />
          {hasPageLoaded || isMenuRequested ? (
            <Suspense fallback={menuPlaceholder}>
              <LandingSectionMenu defaultOpen={isMenuRequested} />
            </Suspense>
          ) : (
            menuPlaceholder
          )}
          <Button asChild>
            <Link href="/firebase-login">Sign In</Link>
          </Button>
        </div>
      </div>
    </header>
  );
}
