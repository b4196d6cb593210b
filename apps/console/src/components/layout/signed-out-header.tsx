import { Menu } from 'lucide-react';
import { Link } from 'wouter';
import { ThemeToggle } from '@/components/theme/theme-toggle.tsx';
import { Button } from '@/components/ui/button.tsx';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu.tsx';
import { BrandLogo } from './brand-logo.tsx';
import { LANDING_SECTIONS, SectionLink, useGoToSection } from './section-link.tsx';

const navLinkClassName =
  'rounded-md px-3 py-2 text-sm font-medium text-muted-foreground transition-colors outline-none hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/60';

export function SignedOutHeader() {
  const goToSection = useGoToSection();

  return (
    <header className="sticky top-0 z-40 border-b border-border/70 bg-background/75 backdrop-blur-md supports-[backdrop-filter]:bg-background/60">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8">
        <BrandLogo />
        <nav aria-label="Sections" className="hidden items-center gap-1 md:flex">
          {LANDING_SECTIONS.map((section) => (
            <SectionLink key={section.id} sectionId={section.id} className={navLinkClassName}>
              {section.label}
            </SectionLink>
          ))}
        </nav>
        <div className="flex items-center gap-2">
          <ThemeToggle />
          <DropdownMenu modal={false}>
            <DropdownMenuTrigger asChild>
              <Button variant="ghost" size="icon" className="md:hidden" aria-label="Open menu">
                <Menu aria-hidden="true" />
              </Button>
            </DropdownMenuTrigger>
            <DropdownMenuContent align="end">
              {LANDING_SECTIONS.map((section) => (
                <DropdownMenuItem key={section.id} onSelect={() => goToSection(section.id)}>
                  {section.label}
                </DropdownMenuItem>
              ))}
            </DropdownMenuContent>
          </DropdownMenu>
          <Button asChild>
            <Link href="/firebase-login">Sign In</Link>
          </Button>
        </div>
      </div>
    </header>
  );
}
