import { replaceChildren } from './dom.ts';
import type { PortalElements } from './portal-app.ts';
import type { PortalApi } from './portal-api.ts';
import { createResetView } from './reset-view.ts';

/**
 * `/portal/:publicId/reset?token=…`. The token is read once, then taken out of the address
 * bar, so it stays out of the browser's history and of anything the page links to.
 */
export function startResetPage(elements: PortalElements, api: PortalApi): void {
  const url = new URL(window.location.href);
  const token = url.searchParams.get('token');
  if (token !== null) {
    url.searchParams.delete('token');
    window.history.replaceState(null, '', url.pathname + url.search + url.hash);
  }
  document.title = 'Choose a new password';
  elements.title.textContent = 'Account';
  const view = createResetView({ api, token });
  replaceChildren(elements.main, view.element);
  elements.main.removeAttribute('aria-busy');
  replaceChildren(elements.actions, elements.themeToggle);
  view.firstField?.focus();
}
