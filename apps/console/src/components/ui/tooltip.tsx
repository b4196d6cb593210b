import * as TooltipPrimitive from '@radix-ui/react-tooltip';
import { createContext, use, type ComponentProps, type ReactElement, type ReactNode } from 'react';
import { cn } from '@/lib/utils.ts';

const HasTooltipProviderContext = createContext(false);

/** Tooltips open after 700 ms; moving between triggers within 300 ms skips it. */
export function TooltipProvider(props: ComponentProps<typeof TooltipPrimitive.Provider>) {
  return (
    <HasTooltipProviderContext value={true}>
      <TooltipPrimitive.Provider delayDuration={700} skipDelayDuration={300} {...props} />
    </HasTooltipProviderContext>
  );
}

/**
 * Shares the page's TooltipProvider (every lazily loaded page has one, see App.tsx). The console
 * shell has none, so that Radix's tooltip code stays out of the first paint; a tooltip shown
 * there (the landing page's theme toggle) brings its own.
 */
export function Tooltip(props: ComponentProps<typeof TooltipPrimitive.Root>) {
  const hasProvider = use(HasTooltipProviderContext);
  const root = <TooltipPrimitive.Root {...props} />;
  return hasProvider ? root : <TooltipProvider>{root}</TooltipProvider>;
}
export const TooltipTrigger = TooltipPrimitive.Trigger;

export function TooltipContent({
  className,
  sideOffset = 4,
  ...props
}: ComponentProps<typeof TooltipPrimitive.Content>) {
  return (
    <TooltipPrimitive.Portal>
      <TooltipPrimitive.Content
        sideOffset={sideOffset}
        className={cn(
          'z-50 overflow-hidden rounded-md bg-foreground px-3 py-1.5 text-xs text-background shadow-md data-[state=closed]:animate-fade-out data-[state=delayed-open]:animate-fade-in motion-reduce:animate-none',
          className,
        )}
        {...props}
      />
    </TooltipPrimitive.Portal>
  );
}

/** A trigger with its tooltip: the shape DeferredTooltip loads. */
export function LabelledTooltip({
  content,
  children,
}: {
  content: ReactNode;
  children: ReactElement;
}) {
  return (
    <Tooltip>
      <TooltipTrigger asChild>{children}</TooltipTrigger>
      <TooltipContent>{content}</TooltipContent>
    </Tooltip>
  );
}
