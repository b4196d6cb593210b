import { lazy, Suspense } from 'react';
import { useHasPageLoaded } from '@/hooks/use-has-page-loaded.ts';

// Radix's toast primitives are not needed to paint a page; they load once it has loaded. A toast
// raised before then waits in the toast store and shows as soon as the viewport mounts.
const Toaster = lazy(() => import('./toaster.tsx').then((module) => ({ default: module.Toaster })));

export function DeferredToaster() {
  const hasPageLoaded = useHasPageLoaded();
  if (!hasPageLoaded) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
