import { KeyRound } from 'lucide-react';
import { Link } from 'wouter';
import { cn } from '@/lib/utils.ts';

export const BRAND_NAME = 'Latchkey';

/** The product mark; a link home, named by its text for assistive technology. */
export function BrandLogo({ className }: { className?: string }) {
  return (
    <Link
      href="/"
      className={cn(
        'flex items-center gap-2 rounded-md text-lg font-semibold tracking-tight outline-none focus-visible:ring-[3px] focus-visible:ring-ring/60',
        className,
      )}
    >
      <span className="flex size-8 items-center justify-center rounded-lg bg-primary text-primary-foreground shadow-sm">
        <KeyRound className="size-4" aria-hidden="true" />
      </span>
      <span>{BRAND_NAME}</span>
    </Link>
  );
}
