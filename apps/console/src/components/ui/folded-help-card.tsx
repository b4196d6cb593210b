import { ChevronRight, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card, CardContent } from '@/components/ui/card.tsx';
import { CopyButton } from '@/components/ui/copy-button.tsx';
import { cn } from '@/lib/utils.ts';

/**
 * Help that most visits do not need, folded away under its title until asked: a native
 * details element, so it opens by keyboard and to screen readers without any script.
 */
export function FoldedHelpCard({
  icon: Icon,
  title,
  summary,
  children,
}: {
  icon: LucideIcon;
  title: string;
  /** One line under the title, shown while the card is folded. */
  summary: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card className="py-0">
      <details className="group">
        <summary className="flex cursor-pointer list-none items-center gap-3 rounded-xl px-6 py-4 outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 [&::-webkit-details-marker]:hidden">
          <Icon className="size-5 shrink-0 text-primary" aria-hidden="true" />
          <span className="grid flex-1 gap-0.5">
            <span className="font-semibold">{title}</span>
            <span className="text-sm text-muted-foreground">{summary}</span>
          </span>
          <ChevronRight
            className="size-4 shrink-0 text-muted-foreground transition-transform group-open:rotate-90 motion-reduce:transition-none"
            aria-hidden="true"
          />
        </summary>
        <CardContent className="grid gap-3 pb-6">{children}</CardContent>
      </details>
    </Card>
  );
}

/**
 * Code to paste, as plain preformatted text with a copy button in its corner (the right
 * padding keeps the last characters of a line out from under the button).
 */
export function CopyableSnippet({
  code,
  copyValue = code,
  copyLabel,
  className,
}: {
  code: string;
  /** What the button copies when it is not the text shown (a secret shown masked). */
  copyValue?: string;
  /** The copy button's accessible name. */
  copyLabel: string;
  /** The text box's classes beside the defaults, such as a maximum height. */
  className?: string;
}) {
  return (
    <div className="relative min-w-0">
      <pre
        className={cn(
          className,
          'overflow-auto rounded-lg border border-border bg-muted/40 p-4 pr-12 font-mono text-xs leading-relaxed',
        )}
      >
        <code>{code}</code>
      </pre>
      <CopyButton
        value={copyValue}
        label={copyLabel}
        toastMessage="Code copied to clipboard"
        className="absolute top-2 right-2"
      />
    </div>
  );
}
