import type { PortalEmailVerified } from '@latchkey/contracts';
import { detail } from './account-sections.ts';
import { h, replaceChildren } from './dom.ts';
import { createFeedback } from './form-parts.ts';
import { errorText, PortalApiError, type PortalApi } from './portal-api.ts';

export const CONFIRMING_EMAIL = 'Confirming your e-mail address…';
export const EMAIL_CONFIRMED = 'Your e-mail address is confirmed.';
export const LOG_IN_NOW = 'You can now log in from the program.';
export const VERIFY_LINK_INCOMPLETE =
  'This link is not complete: open it again from the e-mail, or log in from the program to be sent a new one.';
export const VERIFY_PORTAL_UNKNOWN =
  'There is no account portal at this address: please open the link again from the e-mail.';

/**
 * 410 LINK_INVALID (expired, used, or mailed to an address since changed: the server's own
 * words) and 404 (no such portal) are final: trying again cannot help, only a new mail can.
 */
function finalText(error: unknown): string | null {
  if (!(error instanceof PortalApiError)) return null;
  if (error.status === 410) return error.message;
  if (error.status === 404) return VERIFY_PORTAL_UNKNOWN;
  return null;
}

/**
 * The page a "confirm your address" mail links to, `/portal/:publicId/verify?token=…`. The
 * link is the confirmation, so the token is sent as soon as the page starts, without a click;
 * it works with the portal's sign-in off. A lost connection or a server error offers Try
 * again (the token is spent only by a confirmation that succeeded).
 */
export function createVerifyView({
  api,
  token,
}: {
  api: PortalApi;
  /** The link's token; null when the address carries none. */
  token: string | null;
}): { element: HTMLElement; start(): void } {
  const feedback = createFeedback();
  const heading = h(
    'h2',
    { id: 'verify-heading', class: 'card-title', tabindex: -1 },
    'Confirm your e-mail address',
  );
  const body = h('div', { class: 'stack' });
  const element = h(
    'section',
    { class: 'card card-narrow', 'aria-labelledby': 'verify-heading' },
    heading,
    feedback.element,
    body,
  );

  const showConfirmed = ({ username, email }: PortalEmailVerified) => {
    feedback.showStatus(EMAIL_CONFIRMED);
    replaceChildren(
      body,
      h('dl', { class: 'details' }, detail('Username', username), detail('E-mail', email)),
      h('p', {}, LOG_IN_NOW),
    );
  };

  const showFailed = (text: string) => {
    feedback.showError(text);
    const retry = h('button', { type: 'button', class: 'button button-primary' }, 'Try again');
    retry.addEventListener('click', () => {
      // Pressed again while the call runs: ignored, and the button says it is busy.
      if (retry.getAttribute('aria-disabled') === 'true') return;
      retry.setAttribute('aria-disabled', 'true');
      void confirm(retry);
    });
    replaceChildren(body, h('div', { class: 'form-actions' }, retry));
  };

  /** Sends the token; `retry` is the Try again button pressed, kept until the answer. */
  const confirm = async (retry?: HTMLButtonElement) => {
    const hadFocus = retry !== undefined && document.activeElement === retry;
    element.setAttribute('aria-busy', 'true');
    feedback.clear();
    const loading = h('p', { class: 'loading' }, CONFIRMING_EMAIL);
    if (retry) body.prepend(loading);
    else replaceChildren(body, loading);
    try {
      showConfirmed(await api.verifyEmail({ token: token! }));
    } catch (error) {
      const final = finalText(error);
      if (final === null) {
        showFailed(errorText(error));
      } else {
        feedback.showError(final);
        body.remove();
      }
    } finally {
      element.removeAttribute('aria-busy');
      // The pressed button is gone with the answer: focus goes to the new Try again, else to
      // the heading, not back to the top of the page.
      if (hadFocus) (body.querySelector('button') ?? heading).focus();
    }
  };

  return {
    element,
    start() {
      if (token === null) return feedback.showError(VERIFY_LINK_INCOMPLETE);
      void confirm();
    },
  };
}
