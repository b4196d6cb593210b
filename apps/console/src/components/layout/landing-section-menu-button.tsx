import { Menu } from 'lucide-react';
import type { ComponentProps } from 'react';
import { Button } from '@/components/ui/button.tsx';

/** The menu's trigger; also its placeholder while the menu's code loads after first paint. */
export function LandingSectionMenuButton(props: ComponentProps<typeof Button>) {
  return (
    <Button variant="ghost" size="icon" className="md:hidden" aria-label="Open menu" {...props}>
      <Menu aria-hidden="true" />
    </Button>
  );
}
