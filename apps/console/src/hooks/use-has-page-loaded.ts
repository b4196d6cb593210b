import { useEffect, useState } from 'react';

/**
 * True once the page's `load` event has fired. Code that is not needed for the first paint
 * (the Firebase SDK, the toast viewport, menus) starts loading only then, so it never competes
 * with the landing page's own JavaScript (at most 120 KB gzipped may come before first paint).
 */
export function useHasPageLoaded(): boolean {
  const [hasLoaded, setHasLoaded] = useState(() => document.readyState === 'complete');
  useEffect(() => {
    if (hasLoaded) return;
    const markLoaded = () => setHasLoaded(true);
    window.addEventListener('load', markLoaded, { once: true });
    return () => window.removeEventListener('load', markLoaded);
  }, [hasLoaded]);
  return hasLoaded;
}
