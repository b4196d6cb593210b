import { replaceChildren } from './dom.ts';
import { takeLinkToken } from './link-token.ts';
import type { PortalElements } from './portal-app.ts';
import type { PortalApi } from './portal-api.ts';
import { createResetView } from './reset-view.ts';

/** `/portal/:publicId/reset?token=…`: the token is taken out of the address bar at once. */
export function startResetPage(elements: PortalElements, api: PortalApi): void {
  const token = takeLinkToken();
  document.title = 'Choose a new password';
  elements.title.textContent = 'Account';
  const view = createResetView({ api, token });
  replaceChildren(elements.main, view.element);
  elements.main.removeAttribute('aria-busy');
  replaceChildren(elements.actions, elements.themeToggle);
  view.firstField?.focus();
}
