import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils.ts';

type ProgressProps = ComponentProps<'div'> & {
  /** 0 to 100. */
  value: number;
  indicatorClassName?: string;
};

export function Progress({ value, className, indicatorClassName, ...props }: ProgressProps) {
  const clamped = Math.min(100, Math.max(0, value));
  return (
    <div
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(clamped)}
      className={cn('relative h-2 w-full overflow-hidden rounded-full bg-primary/15', className)}
      {...props}
    >
      <div
        className={cn('h-full w-full origin-left rounded-full bg-primary', indicatorClassName)}
        style={{ transform: `scaleX(${clamped / 100})` }}
      />
    </div>
  );
}
