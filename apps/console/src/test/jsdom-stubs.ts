import { vi } from 'vitest';

/**
 * Radix (its checkbox, switch, select, menus) and CodeMirror watch their size; jsdom has no
 * layout to watch, and sizes are not under test. Call in beforeEach, and unstub globals after.
 */
export function stubResizeObserver(): void {
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
}

/** Radix's Select scrolls its chosen option into view, which jsdom does not do. */
export function stubScrollIntoView(): void {
  Element.prototype.scrollIntoView ??= () => {};
}

/** A media query list as jsdom lacks one: `matches` fixed, listeners never called. */
export function fakeMediaQueryList(query: string, matches = false): MediaQueryList {
  return {
    matches,
    media: query,
    onchange: null,
    addEventListener: () => {},
    removeEventListener: () => {},
    addListener: () => {},
    removeListener: () => {},
    dispatchEvent: () => false,
  };
}
