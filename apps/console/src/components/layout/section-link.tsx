import { useCallback, type ComponentProps, type MouseEvent } from 'react';
import { useLocation } from 'wouter';
import { usePrefersReducedMotion } from '@/hooks/use-prefers-reduced-motion.ts';

export const LANDING_SECTIONS = [
  { id: 'features', label: 'Features' },
  { id: 'docs', label: 'Docs' },
  { id: 'dashboard', label: 'Dashboard' },
  { id: 'pricing', label: 'Pricing' },
] as const;

export type LandingSectionId = (typeof LANDING_SECTIONS)[number]['id'];

export function scrollToSection(id: string, isReducedMotion: boolean): boolean {
  const section = document.getElementById(id);
  if (!section) return false;
  section.scrollIntoView({ behavior: isReducedMotion ? 'auto' : 'smooth', block: 'start' });
  return true;
}

/**
 * On the landing page this scrolls to the section; elsewhere it goes to /#section, and the
 * landing page scrolls there once its content is shown.
 */
export function useGoToSection(): (sectionId: LandingSectionId) => void {
  const [location, navigate] = useLocation();
  const isReducedMotion = usePrefersReducedMotion();

  return useCallback(
    (sectionId: LandingSectionId) => {
      if (location === '/' && scrollToSection(sectionId, isReducedMotion)) {
        history.replaceState(history.state, '', `#${sectionId}`);
      } else {
        navigate(`/#${sectionId}`);
      }
    },
    [location, navigate, isReducedMotion],
  );
}

export function SectionLink({
  sectionId,
  onClick,
  ...props
}: Omit<ComponentProps<'a'>, 'href'> & { sectionId: LandingSectionId }) {
  const goToSection = useGoToSection();

  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    // Modified clicks keep the browser's own behaviour (new tab, new window).
    if (event.defaultPrevented || event.metaKey || event.ctrlKey || event.shiftKey) return;
    if (event.button !== 0) return;
    event.preventDefault();
    goToSection(sectionId);
  };

  return <a href={`/#${sectionId}`} onClick={handleClick} {...props} />;
}
