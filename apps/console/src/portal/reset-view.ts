import { h } from './dom.ts';
import {
  createFeedback,
  createNewPasswordFields,
  firstEmptyField,
  onSubmitOnce,
} from './form-parts.ts';
import { errorText, PortalApiError, type PortalApi } from './portal-api.ts';
import { PASSWORDS_DO_NOT_MATCH } from './password-card.ts';

export const PASSWORD_RESET_DONE =
  'Your password has been changed. Sign in with it in the program; every device that was signed in has been signed out.';
export const RESET_LINK_INCOMPLETE =
  'This link is not complete: open it again from the e-mail, or ask for a new one from the program.';

/** 410 LINK_INVALID: the link expired, was used, or never existed (the server's own words). */
const isLinkGone = (error: unknown) => error instanceof PortalApiError && error.status === 410;

/**
 * The page a "choose a new password" mail links to, `/portal/:publicId/reset?token=…`: the
 * new password typed twice, compared here before anything is sent. It works with the
 * portal's sign-in off, so it asks the server nothing until the form is sent. Once the link
 * is spent or gone the form goes away: only a new mail can help.
 */
export function createResetView({
  api,
  token,
}: {
  api: PortalApi;
  /** The link's token; null when the address carries none. */
  token: string | null;
}): { element: HTMLElement; firstField: HTMLElement | null } {
  const feedback = createFeedback();
  const { next, confirmation } = createNewPasswordFields();
  const submit = h(
    'button',
    { type: 'submit', class: 'button button-primary button-wide' },
    'Change password',
  );
  const form = h(
    'form',
    { class: 'form', novalidate: true },
    next.element,
    confirmation.element,
    submit,
  );
  const finish = (text: string, kind: 'status' | 'error') => {
    form.remove();
    if (kind === 'status') feedback.showStatus(text);
    else feedback.showError(text);
  };

  onSubmitOnce(form, submit, async () => {
    const missing = firstEmptyField([
      { field: next, message: 'Please enter your new password' },
      { field: confirmation, message: 'Please enter your new password again' },
    ]);
    if (missing) return feedback.showError(missing);
    if (next.input.value !== confirmation.input.value) {
      confirmation.setInvalid(true);
      confirmation.input.focus();
      return feedback.showError(PASSWORDS_DO_NOT_MATCH);
    }
    feedback.clear();
    try {
      await api.resetPassword({ token: token ?? '', password: next.input.value });
    } catch (error) {
      if (isLinkGone(error)) return finish(errorText(error), 'error');
      next.setInvalid(true);
      next.input.focus();
      return feedback.showError(errorText(error));
    }
    finish(PASSWORD_RESET_DONE, 'status');
  });

  const element = h(
    'section',
    { class: 'card card-narrow', 'aria-labelledby': 'reset-heading' },
    h('h2', { id: 'reset-heading', class: 'card-title' }, 'Choose a new password'),
    feedback.element,
  );
  if (token === null) {
    feedback.showError(RESET_LINK_INCOMPLETE);
    return { element, firstField: null };
  }
  element.append(form);
  return { element, firstField: next.input };
}
