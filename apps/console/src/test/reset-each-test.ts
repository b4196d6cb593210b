import { afterEach, beforeEach, vi } from 'vitest';
import { dismissToast } from '@/hooks/use-toast.ts';

/**
 * Called inside a describe: each of its tests starts with no toast left by the one before
 * (the toast store outlives a render) and with `stubs` in place (jsdom stand-ins such as
 * stubResizeObserver), and every stubbed global (fetch among them) is restored after it.
 */
export function resetEachTest(...stubs: ReadonlyArray<() => void>): void {
  beforeEach(() => {
    dismissToast();
    for (const stub of stubs) stub();
  });
  afterEach(() => vi.unstubAllGlobals());
}
