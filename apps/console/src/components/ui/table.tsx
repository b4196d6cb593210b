import { useRef, type ComponentProps } from 'react';
import { EdgeFade } from '@/components/ui/edge-fade.tsx';
import { useScrollEdges } from '@/hooks/use-scroll-edges.ts';
import { cn } from '@/lib/utils.ts';

/**
 * Wide tables scroll sideways inside their card instead of stretching the page. The scroll box
 * is focusable so keyboard users can scroll it, and a fade marks each edge that hides columns:
 * on a phone a clipped table otherwise looks complete.
 */
export function Table({
  className,
  label = 'Table',
  ...props
}: ComponentProps<'table'> & {
  /** Names the scroll region for screen readers. */
  label?: string;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const { clippedStart, clippedEnd } = useScrollEdges(scrollRef);
  return (
    // min-w-0: unlike a scroll box, a plain grid or flex item grows to its content's width, which
    // would push the page sideways on a phone instead of letting the table scroll.
    // The surface the table sits on (a card unless an ancestor says otherwise, as a dialog does):
    // the pinned column and the fades must match it to hide what scrolls beneath them.
    <div className="group/wrapper relative w-full min-w-0 [--table-surface:var(--surface,var(--color-card))]">
      <div
        ref={scrollRef}
        role="region"
        aria-label={label}
        // Only a box that actually scrolls needs a tab stop.
        tabIndex={clippedStart || clippedEnd ? 0 : undefined}
        data-clipped-start={clippedStart || undefined}
        data-clipped-end={clippedEnd || undefined}
        className="group/table w-full overflow-x-auto overscroll-x-contain rounded-md focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
      >
        <table className={cn('w-full caption-bottom text-sm', className)} {...props} />
      </div>
      <EdgeFade
        side="start"
        isShown={clippedStart}
        testId="table-fade-start"
        className="w-6 from-(--table-surface)"
      />
      {/* A pinned actions column marks this edge with its own shadow instead. */}
      <EdgeFade
        side="end"
        isShown={clippedEnd}
        testId="table-fade-end"
        className="w-6 from-(--table-surface) group-has-[[data-pinned]]/wrapper:hidden"
      />
    </div>
  );
}

export function TableHeader({ className, ...props }: ComponentProps<'thead'>) {
  return <thead className={cn('[&_tr]:border-b', className)} {...props} />;
}

export function TableBody({ className, ...props }: ComponentProps<'tbody'>) {
  return <tbody className={cn('[&_tr:last-child]:border-0', className)} {...props} />;
}

export function TableRow({ className, ...props }: ComponentProps<'tr'>) {
  return (
    <tr
      className={cn(
        'group/row border-b border-border transition-colors hover:bg-muted/50 data-[state=selected]:bg-accent/70',
        className,
      )}
      {...props}
    />
  );
}

/**
 * A pinned column stays at the right edge while the rest scrolls under it, so a row's actions
 * are reachable on a phone without scrolling. Its own background hides what passes beneath;
 * its edge line and shadow, shown while columns lie under it, are the sign that there are more.
 */
const pinnedClasses =
  'sticky right-0 z-10 bg-(--table-surface) group-data-[clipped-end]/table:shadow-[inset_1px_0_0_var(--color-border),-10px_0_10px_-8px_rgb(0_0_0/0.3)] dark:group-data-[clipped-end]/table:shadow-[inset_1px_0_0_var(--color-border),-10px_0_10px_-8px_rgb(0_0_0/0.9)]';

export function TableHead({
  className,
  pinned = false,
  ...props
}: ComponentProps<'th'> & { pinned?: boolean }) {
  return (
    <th
      data-pinned={pinned || undefined}
      className={cn(
        'h-10 px-3 text-left align-middle text-xs font-medium tracking-wide whitespace-nowrap text-muted-foreground uppercase',
        pinned && pinnedClasses,
        className,
      )}
      {...props}
    />
  );
}

export function TableCell({
  className,
  pinned = false,
  ...props
}: ComponentProps<'td'> & { pinned?: boolean }) {
  return (
    <td
      data-pinned={pinned || undefined}
      className={cn(
        'px-3 py-3 align-middle',
        // The row's hover and selection tints, repeated over the pinned cell's opaque background.
        pinned &&
          `${pinnedClasses} bg-[linear-gradient(var(--row-tint),var(--row-tint))] [--row-tint:transparent] group-hover/row:[--row-tint:color-mix(in_oklab,var(--color-muted)_50%,transparent)] group-data-[state=selected]/row:[--row-tint:color-mix(in_oklab,var(--color-accent)_70%,transparent)]`,
        className,
      )}
      {...props}
    />
  );
}

export function TableCaption({ className, ...props }: ComponentProps<'caption'>) {
  return <caption className={cn('mt-4 text-sm text-muted-foreground', className)} {...props} />;
}
