import * as TabsPrimitive from '@radix-ui/react-tabs';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { createContext, use, useId, useRef, useState, type ComponentProps } from 'react';
import { EdgeFade } from '@/components/ui/edge-fade.tsx';
import { useScrollEdges } from '@/hooks/use-scroll-edges.ts';
import { cn } from '@/lib/utils.ts';

/** What the triggers and panels of one set of tabs share: the ids that pair them, and the open tab. */
const TabsState = createContext<{ baseId: string; value: string | undefined } | null>(null);

function useTabsState(component: string) {
  const state = use(TabsState);
  if (!state) throw new Error(`${component} must be inside Tabs`);
  return state;
}

const triggerId = (baseId: string, value: string) => `${baseId}-trigger-${value}`;
const panelId = (baseId: string, value: string) => `${baseId}-panel-${value}`;

/**
 * Radix's tabs (keyboard, roving focus, ARIA), with panels of our own: Radix wraps each panel
 * in Presence, which reads the panel's computed style as it mounts, forcing the browser to
 * style the whole new page inside React's commit (measured as the largest part of the
 * dashboard's longest task). Our panels never animate, so they need no Presence.
 */
export function Tabs({
  value,
  defaultValue,
  onValueChange,
  ...props
}: ComponentProps<typeof TabsPrimitive.Root>) {
  const baseId = useId();
  const [uncontrolledValue, setUncontrolledValue] = useState(defaultValue);
  const current = value ?? uncontrolledValue;
  return (
    <TabsState value={{ baseId, value: current }}>
      <TabsPrimitive.Root
        value={current}
        onValueChange={(next) => {
          setUncontrolledValue(next);
          onValueChange?.(next);
        }}
        {...props}
      />
    </TabsState>
  );
}

/**
 * A row of tabs that scrolls sideways when it is wider than the screen, as on a phone. A fade
 * and a chevron mark each edge that hides tabs, since a scroll box without a scrollbar (phones
 * show none) otherwise looks complete.
 */
export function TabsList({
  className,
  containerClassName,
  ...props
}: ComponentProps<typeof TabsPrimitive.List> & {
  /** The width of the row and its edge marks together (the list fills it). */
  containerClassName?: string;
}) {
  const listRef = useRef<HTMLDivElement>(null);
  const { clippedStart, clippedEnd } = useScrollEdges(listRef);

  return (
    <div className={cn('relative w-fit max-w-full min-w-0', containerClassName)}>
      <TabsPrimitive.List
        ref={listRef}
        className={cn(
          'inline-flex h-10 w-full max-w-full items-center justify-start gap-1 overflow-x-auto overscroll-x-contain rounded-lg bg-muted p-1 text-muted-foreground',
          className,
        )}
        {...props}
      />
      <EdgeFade
        side="start"
        isShown={clippedStart}
        testId="tabs-more-start"
        className="w-8 rounded-l-lg from-muted from-40% text-muted-foreground"
      >
        <ChevronLeft className="size-4" />
      </EdgeFade>
      <EdgeFade
        side="end"
        isShown={clippedEnd}
        testId="tabs-more-end"
        className="w-8 rounded-r-lg from-muted from-40% text-muted-foreground"
      >
        <ChevronRight className="size-4" />
      </EdgeFade>
    </div>
  );
}

export function TabsTrigger({
  className,
  value,
  ...props
}: ComponentProps<typeof TabsPrimitive.Trigger>) {
  const { baseId } = useTabsState('TabsTrigger');
  return (
    <TabsPrimitive.Trigger
      value={value}
      id={triggerId(baseId, value)}
      aria-controls={panelId(baseId, value)}
      className={cn(
        "inline-flex h-full cursor-pointer items-center justify-center gap-1.5 rounded-md px-3 text-sm font-medium whitespace-nowrap transition-[color,background-color,box-shadow] outline-none hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/60 disabled:pointer-events-none disabled:opacity-50 data-[state=active]:bg-background data-[state=active]:text-foreground data-[state=active]:shadow-sm dark:data-[state=active]:bg-input/40 [&_svg]:pointer-events-none [&_svg]:shrink-0 [&_svg:not([class*='size-'])]:size-4",
        className,
      )}
      {...props}
    />
  );
}

/**
 * The panel of one tab: mounted while its tab is open, or always with `forceMount` (then
 * `data-state="inactive"` marks it for hiding, so its state survives a look at another tab).
 */
export function TabsContent({
  className,
  value,
  forceMount,
  ...props
}: ComponentProps<'div'> & { value: string; forceMount?: boolean }) {
  const state = useTabsState('TabsContent');
  const isSelected = state.value === value;
  if (!isSelected && !forceMount) return null;
  return (
    <div
      role="tabpanel"
      id={panelId(state.baseId, value)}
      aria-labelledby={triggerId(state.baseId, value)}
      data-state={isSelected ? 'active' : 'inactive'}
      tabIndex={0}
      className={cn(
        'outline-none focus-visible:ring-[3px] focus-visible:ring-ring/60 focus-visible:ring-offset-2 focus-visible:ring-offset-background',
        className,
      )}
      {...props}
    />
  );
}
