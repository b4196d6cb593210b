import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu.tsx';
import { LandingSectionMenuButton } from './landing-section-menu-button.tsx';
import { LANDING_SECTIONS, useGoToSection } from './section-link.tsx';

/** The signed-out header's section menu on narrow screens, where the section links are hidden. */
export function LandingSectionMenu({ defaultOpen = false }: { defaultOpen?: boolean }) {
  const goToSection = useGoToSection();
  return (
    <DropdownMenu modal={false} defaultOpen={defaultOpen}>
      <DropdownMenuTrigger asChild>
        <LandingSectionMenuButton />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        {LANDING_SECTIONS.map((section) => (
          <DropdownMenuItem key={section.id} onSelect={() => goToSection(section.id)}>
            {section.label}
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
