import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { forgetEarlyRequests } from '@/lib/early-requests.ts';
import { fakeMediaQueryList } from './jsdom-stubs.ts';

// findBy/waitFor give up after 1 s by default. In CI these tests share two cores with the
// server suite's PGlite databases and emulators, where a render can take longer; a state
// that never arrives still fails, only later.
configure({ asyncUtilTimeout: 5_000 });

// jsdom lacks these browser APIs; the components degrade gracefully without real ones.
if (typeof window.matchMedia !== 'function') {
  window.matchMedia = (query: string): MediaQueryList => fakeMediaQueryList(query);
}
// jsdom prints "not implemented" for these; canvas drawing and scrolling are not under test.
HTMLCanvasElement.prototype.getContext = (() =>
  null) as typeof HTMLCanvasElement.prototype.getContext;
window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;

afterEach(() => {
  cleanup();
  forgetEarlyRequests();
  localStorage.clear();
  sessionStorage.clear();
  document.documentElement.className = '';
});
