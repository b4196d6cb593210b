import type { ReactNode } from 'react';
import { Button, type ButtonProps } from '@/components/ui/button.tsx';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip.tsx';
import { cn } from '@/lib/utils.ts';

/**
 * A compact icon-only button. `label` is both its accessible name and its tooltip, so sighted
 * mouse users and screen-reader users get the same words.
 */
export function IconButton({
  label,
  children,
  className,
  variant = 'ghost',
  ...props
}: Omit<ButtonProps, 'size'> & { label: string; children: ReactNode }) {
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <Button
          variant={variant}
          size="icon"
          aria-label={label}
          className={cn('size-8', className)}
          {...props}
        >
          {children}
        </Button>
      </TooltipTrigger>
      <TooltipContent>{label}</TooltipContent>
    </Tooltip>
  );
}
