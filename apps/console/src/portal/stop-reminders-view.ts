import { h, replaceChildren } from './dom.ts';
import { createFeedback } from './form-parts.ts';
import { errorText, PortalApiError, type PortalApi, type StopRemindersLink } from './portal-api.ts';

export const STOP_REMINDERS_HEADING = 'Stop expiry reminders?';
export const STOP_REMINDERS_TEXT = 'You will no longer be mailed before your access ends.';
export const STOP_REMINDERS_BUTTON = 'Stop Reminders';
export const STOPPING_REMINDERS = 'Stopping reminders…';
export const REMINDERS_STOPPED_HEADING = 'Expiry reminders';
export const REMINDERS_STOPPED = 'Reminders stopped.';
// Nothing turns them on again (the vendor has no switch for one user): the note promises none.
export const REMINDERS_STOPPED_NOTE =
  'Other mail from this service, such as password links, still reaches you.';
export const REMINDERS_LINK_INCOMPLETE =
  'This link is not complete: open it again from the latest reminder.';
export const REMINDERS_PORTAL_UNKNOWN =
  'There is no account portal at this address: please open the link again from the e-mail.';

const USER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const STOP_TOKEN = /^[0-9a-f]{64}$/;

/**
 * The stop link's user and token, or null when either is missing or cannot be one the server
 * wrote (a link cut short by a mail program, say): the page then says so without asking.
 */
export function readStopRemindersLink(
  user: string | null,
  token: string | null,
): StopRemindersLink | null {
  if (user === null || token === null) return null;
  return USER_ID.test(user) && STOP_TOKEN.test(token) ? { user, token } : null;
}

/**
 * 410 LINK_INVALID (the server's own words), 404 (no such portal) and 400 (a link the server
 * cannot read) are final: pressing again cannot help, only another reminder's link can.
 */
function finalText(error: unknown): string | null {
  if (!(error instanceof PortalApiError)) return null;
  if (error.status === 410) return error.message;
  if (error.status === 404) return REMINDERS_PORTAL_UNKNOWN;
  if (error.status === 400) return REMINDERS_LINK_INCOMPLETE;
  return null;
}

/**
 * The page an expiry reminder's stop link opens, `/portal/:publicId/unsubscribe?user=…&token=…`.
 * Unlike a confirmation link, opening it does nothing by itself: mail scanners open every link
 * in a message, and would stop the reminders of whoever they protect. The end user presses
 * Stop Reminders; a lost connection or a server error leaves the button to press again.
 * It works with the portal's sign-in off.
 */
export function createStopRemindersView({
  api,
  link,
}: {
  api: PortalApi;
  /** The link's user and token; null when the address carries no usable pair. */
  link: StopRemindersLink | null;
}): { element: HTMLElement } {
  const feedback = createFeedback();
  const heading = h(
    'h2',
    { id: 'stop-reminders-heading', class: 'card-title', tabindex: -1 },
    STOP_REMINDERS_HEADING,
  );
  const element = h(
    'section',
    { class: 'card card-narrow', 'aria-labelledby': 'stop-reminders-heading' },
    heading,
    feedback.element,
  );
  if (link === null) {
    feedback.showError(REMINDERS_LINK_INCOMPLETE);
    return { element };
  }

  const stop = h(
    'button',
    { type: 'button', class: 'button button-primary' },
    STOP_REMINDERS_BUTTON,
  );
  const actions = h('div', { class: 'form-actions' }, stop);
  const body = h('div', { class: 'stack' }, h('p', {}, STOP_REMINDERS_TEXT), actions);
  element.append(body);

  /** Puts the outcome in place of the question; focus on the gone button goes to the heading. */
  const conclude = (note: string | null) => {
    const hadFocus = document.activeElement === stop;
    if (note === null) body.remove();
    else replaceChildren(body, h('p', {}, note));
    if (hadFocus) heading.focus();
  };

  const send = async () => {
    // Not disabled while it runs (a disabled button loses focus to the page): a second press
    // is ignored, and the button says it is busy.
    stop.setAttribute('aria-disabled', 'true');
    element.setAttribute('aria-busy', 'true');
    feedback.clear();
    const loading = h('p', { class: 'loading' }, STOPPING_REMINDERS);
    actions.before(loading);
    try {
      await api.stopReminders(link);
      heading.textContent = REMINDERS_STOPPED_HEADING;
      feedback.showStatus(REMINDERS_STOPPED);
      conclude(REMINDERS_STOPPED_NOTE);
    } catch (error) {
      const final = finalText(error);
      feedback.showError(final ?? errorText(error));
      if (final !== null) conclude(null);
    } finally {
      loading.remove();
      stop.removeAttribute('aria-disabled');
      element.removeAttribute('aria-busy');
    }
  };

  stop.addEventListener('click', () => {
    if (stop.getAttribute('aria-disabled') === 'true') return;
    void send();
  });
  return { element };
}
