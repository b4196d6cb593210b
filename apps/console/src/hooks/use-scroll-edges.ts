import { useEffect, useState, type RefObject } from 'react';

export interface ScrollEdges {
  /** Content is hidden to the left (the box has been scrolled). */
  clippedStart: boolean;
  /** Content is hidden to the right (more to scroll to). */
  clippedEnd: boolean;
}

/** Which horizontal edges of a scroll box hide content, kept current on scroll and resize. */
export function useScrollEdges(ref: RefObject<HTMLElement | null>): ScrollEdges {
  const [edges, setEdges] = useState<ScrollEdges>({ clippedStart: false, clippedEnd: false });

  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const update = () => {
      // A pixel of slack: fractional widths at some zoom levels never scroll to the exact end.
      const clippedStart = element.scrollLeft > 1;
      const clippedEnd = element.scrollLeft + element.clientWidth < element.scrollWidth - 1;
      setEdges((current) =>
        current.clippedStart === clippedStart && current.clippedEnd === clippedEnd
          ? current
          : { clippedStart, clippedEnd },
      );
    };
    element.addEventListener('scroll', update, { passive: true });
    // The table's own size changes when rows load, so observe it as well as the box. An
    // observer reports each element once as it starts, after the browser's own layout: reading
    // the widths here instead would force a layout of the whole page in the middle of its
    // first render. Without ResizeObserver (jsdom has none) they are read at once, and the
    // edges still follow scrolling.
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(update);
    if (observer) {
      observer.observe(element);
      if (element.firstElementChild) observer.observe(element.firstElementChild);
    } else {
      update();
    }
    return () => {
      element.removeEventListener('scroll', update);
      observer?.disconnect();
    };
  }, [ref]);

  return edges;
}
