import type { ReactNode } from 'react';
import { Button, type ButtonProps } from '@/components/ui/button.tsx';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip.tsx';
import { cn } from '@/lib/utils.ts';

/**
 * A compact icon-only button. `label` is both its accessible name and its tooltip, so sighted
 * mouse users and screen-reader users get the same words. `isDestructive` (delete, ban,
 * remove) stays quiet until pointed at, then turns red, so a row's risky action does not shout.
 * `tooltip` replaces the label as the tooltip where there is more to say (why it is refused).
 */
export function IconButton({
  label,
  children,
  className,
  variant = 'ghost',
  isDestructive = false,
  tooltip = label,
  ...props
}: Omit<ButtonProps, 'size'> & {
  label: string;
  children: ReactNode;
  isDestructive?: boolean;
  tooltip?: ReactNode;
}) {
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <Button
          variant={variant}
          size="icon"
          aria-label={label}
          className={cn(
            'size-8',
            isDestructive && 'text-muted-foreground hover:bg-destructive/10 hover:text-destructive',
            className,
          )}
          {...props}
        >
          {children}
        </Button>
      </TooltipTrigger>
      <TooltipContent>{tooltip}</TooltipContent>
    </Tooltip>
  );
}
