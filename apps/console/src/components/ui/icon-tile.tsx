import type { LucideIcon } from 'lucide-react';

/** A card's icon on a tinted square, beside its title. Decorative: the title says what it is. */
export function IconTile({ icon: Icon }: { icon: LucideIcon }) {
  return (
    <span className="flex size-8 shrink-0 items-center justify-center rounded-md bg-primary/10 text-primary">
      <Icon className="size-4" aria-hidden="true" />
    </span>
  );
}
