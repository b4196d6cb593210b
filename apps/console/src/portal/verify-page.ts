import { replaceChildren } from './dom.ts';
import { takeLinkToken } from './link-token.ts';
import type { PortalElements } from './portal-app.ts';
import type { PortalApi } from './portal-api.ts';
import { createVerifyView } from './verify-view.ts';

/**
 * `/portal/:publicId/verify?token=…`: the token is taken out of the address bar at once, then
 * sent without a further click (following the link is the confirmation).
 */
export function startVerifyPage(elements: PortalElements, api: PortalApi): void {
  const token = takeLinkToken();
  document.title = 'Confirm your e-mail address';
  elements.title.textContent = 'Account';
  const view = createVerifyView({ api, token });
  replaceChildren(elements.main, view.element);
  elements.main.removeAttribute('aria-busy');
  replaceChildren(elements.actions, elements.themeToggle);
  view.start();
}
