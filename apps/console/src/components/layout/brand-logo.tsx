import { KeyRound } from 'lucide-react';
import { Link } from 'wouter';
import { cn } from '@/lib/utils.ts';

export const BRAND_NAME = 'Latchkey';

/**
 * The header brand differs between signed-out and signed-in, and the documentation page has a
 * third one. The product name stays; the suffix says where one is.
 */
export const BRAND_SUFFIXES = {
  'signed-out': null,
  'signed-in': 'Console',
  docs: 'Docs',
} as const;
export type BrandVariant = keyof typeof BRAND_SUFFIXES;

/** The header's brand text, e.g. "Latchkey Console". */
export function brandName(variant: BrandVariant): string {
  const suffix = BRAND_SUFFIXES[variant];
  return suffix ? `${BRAND_NAME} ${suffix}` : BRAND_NAME;
}

/** The product mark; a link home, named by its text for assistive technology. */
export function BrandLogo({ variant, className }: { variant: BrandVariant; className?: string }) {
  const suffix = BRAND_SUFFIXES[variant];
  return (
    <Link
      href="/"
      data-testid="brand-logo"
      className={cn(
        'flex shrink-0 items-center gap-2 rounded-md text-lg font-semibold tracking-tight outline-none focus-visible:ring-[3px] focus-visible:ring-ring/60',
        className,
      )}
    >
      <span className="flex size-8 items-center justify-center rounded-lg bg-primary text-primary-foreground shadow-sm">
        <KeyRound className="size-4" aria-hidden="true" />
      </span>
      <span>
        {BRAND_NAME}
        {suffix && (
          <>
            {' '}
            {/* Read out everywhere, shown from 640 px: on a phone the home bar has no room. */}
            <span className="sr-only text-sm font-medium text-muted-foreground sm:not-sr-only">
              {suffix}
            </span>
          </>
        )}
      </span>
    </Link>
  );
}
