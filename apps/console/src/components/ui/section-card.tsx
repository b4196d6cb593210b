import type { LucideIcon } from 'lucide-react';
import type { ComponentProps, ReactNode } from 'react';
import { cn } from '@/lib/utils.ts';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from './card.tsx';

/**
 * A card that is one section of a page: its title (a heading) and description, what acts on the
 * whole section (a Create button, a Refresh) beside them and wrapping under them on a phone,
 * then its content.
 */
export function SectionCard({
  title,
  description,
  icon: Icon,
  actions,
  contentClassName,
  children,
  ...cardProps
}: Omit<ComponentProps<'div'>, 'title'> & {
  title: ReactNode;
  description: ReactNode;
  /** Drawn before a smaller title, for the cards of one tab that sit side by side. */
  icon?: LucideIcon;
  actions?: ReactNode;
  contentClassName?: string;
  children: ReactNode;
}) {
  const heading = (
    <>
      {/* A title may carry a name the owner typed, unbroken: it wraps rather than push the page
          sideways on a phone. */}
      <CardTitle className={cn('wrap-anywhere', Icon && 'flex items-center gap-2 text-base')}>
        {Icon && <Icon className="size-4 text-primary" aria-hidden="true" />}
        {title}
      </CardTitle>
      <CardDescription>{description}</CardDescription>
    </>
  );

  return (
    <Card {...cardProps}>
      {actions === undefined ? (
        <CardHeader>{heading}</CardHeader>
      ) : (
        <CardHeader className="flex-row flex-wrap items-start justify-between gap-4">
          <div className="grid min-w-0 gap-1.5">{heading}</div>
          {actions}
        </CardHeader>
      )}
      <CardContent className={contentClassName}>{children}</CardContent>
    </Card>
  );
}
