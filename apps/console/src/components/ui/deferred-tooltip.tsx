import { lazy, Suspense, type ReactElement, type ReactNode } from 'react';
import { useHasPageLoaded } from '@/hooks/use-has-page-loaded.ts';

// Tooltip positioning (Radix's popper and Floating UI) is a tenth of the landing page's
// JavaScript; controls painted with the first page get their tooltip once the page has loaded.
const LabelledTooltip = lazy(() =>
  import('./tooltip.tsx').then((module) => ({ default: module.LabelledTooltip })),
);

/** `children` with a tooltip, which arrives after the page's first paint. */
export function DeferredTooltip({
  content,
  children,
}: {
  content: ReactNode;
  children: ReactElement;
}) {
  const hasPageLoaded = useHasPageLoaded();
  if (!hasPageLoaded) return children;
  return (
    <Suspense fallback={children}>
      <LabelledTooltip content={content}>{children}</LabelledTooltip>
    </Suspense>
  );
}
