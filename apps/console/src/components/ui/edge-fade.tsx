import type { ReactNode } from 'react';
import { cn } from '@/lib/utils.ts';

/**
 * A fade over one edge of a sideways scroll box, shown while that edge hides content: without
 * a scrollbar (phones show none) a clipped box otherwise looks complete. Decorative; the box's
 * parent must be positioned. `className` sets its width and the colour it fades from.
 */
export function EdgeFade({
  side,
  isShown,
  testId,
  className,
  children,
}: {
  side: 'start' | 'end';
  isShown: boolean;
  testId: string;
  className: string;
  children?: ReactNode;
}) {
  return (
    <span
      aria-hidden="true"
      data-testid={testId}
      className={cn(
        'pointer-events-none absolute inset-y-0 flex items-center to-transparent transition-opacity',
        side === 'start'
          ? 'left-0 justify-start bg-gradient-to-r'
          : 'right-0 justify-end bg-gradient-to-l',
        isShown ? 'opacity-100' : 'opacity-0',
        className,
      )}
    >
      {children}
    </span>
  );
}
