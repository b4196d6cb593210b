import { replaceChildren } from './dom.ts';
import { takeLinkQuery } from './link-token.ts';
import type { PortalElements } from './portal-app.ts';
import type { PortalApi } from './portal-api.ts';
import { createStopRemindersView, readStopRemindersLink } from './stop-reminders-view.ts';

/**
 * `/portal/:publicId/unsubscribe?user=…&token=…`: the query is taken out of the address bar at
 * once and kept for the press of Stop Reminders; nothing is sent before it.
 */
export function startStopRemindersPage(elements: PortalElements, api: PortalApi): void {
  const { user, token } = takeLinkQuery(['user', 'token']);
  document.title = 'Stop expiry reminders';
  elements.title.textContent = 'Account';
  const view = createStopRemindersView({ api, link: readStopRemindersLink(user, token) });
  replaceChildren(elements.main, view.element);
  elements.main.removeAttribute('aria-busy');
  replaceChildren(elements.actions, elements.themeToggle);
}
