import { afterEach, beforeEach } from 'vitest';
import type { PortalElements } from '@/portal/portal-app.ts';

/**
 * The portal page's shell (title, actions, main) in the document for each test of the file,
 * at `address` when given, and emptied after it. The object returned holds the current test's
 * elements: it is filled again before each test.
 */
export function portalElementsForEachTest(address?: string): PortalElements {
  const elements = {} as PortalElements;
  beforeEach(() => {
    document.body.innerHTML =
      '<h1 id="title"></h1><div id="actions"></div><main id="main" aria-busy="true"></main>';
    Object.assign(elements, {
      title: document.getElementById('title')!,
      actions: document.getElementById('actions')!,
      themeToggle: document.createElement('button'),
      main: document.getElementById('main')!,
    } satisfies PortalElements);
    if (address !== undefined) window.history.replaceState(null, '', address);
  });
  afterEach(() => {
    document.body.innerHTML = '';
  });
  return elements;
}
