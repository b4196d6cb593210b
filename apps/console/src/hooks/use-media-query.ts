import { useCallback, useSyncExternalStore } from 'react';

/**
 * Whether the CSS media query matches now; follows changes live (a rotated phone, a resized
 * window). False where the browser has no matchMedia. For layouts that differ in structure,
 * not only in style (a table against a list of cards), so only one of them is in the page.
 */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (typeof window.matchMedia !== 'function') return () => {};
      const mediaQuery = window.matchMedia(query);
      mediaQuery.addEventListener('change', onChange);
      return () => mediaQuery.removeEventListener('change', onChange);
    },
    [query],
  );
  const getSnapshot = () =>
    typeof window.matchMedia === 'function' && window.matchMedia(query).matches;
  return useSyncExternalStore(subscribe, getSnapshot, () => false);
}
