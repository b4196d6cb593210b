import type { PortalAccount } from '@latchkey/contracts';
import { h } from './dom.ts';
import { createFeedback, createField, firstEmptyField, onSubmitOnce } from './form-parts.ts';
import { errorText, type PortalApi } from './portal-api.ts';
import type { Notice } from './portal-page.ts';

/** The sign-in form: the username and password the end user has in the vendor's program. */
export function createSignInView({
  api,
  notice,
  onSignedIn,
  onForgotPassword,
}: {
  api: PortalApi;
  notice?: Notice;
  onSignedIn: (account: PortalAccount) => void;
  /** Offers "Forgot password?" (absent when the server sends no mail). */
  onForgotPassword?: () => void;
}): { element: HTMLElement; username: HTMLInputElement } {
  const feedback = createFeedback();
  const username = createField({
    label: 'Username',
    name: 'username',
    autocomplete: 'username',
    maxLength: 64,
    attributes: { autocapitalize: 'none', spellcheck: 'false' },
  });
  const password = createField({
    label: 'Password',
    name: 'password',
    type: 'password',
    autocomplete: 'current-password',
    maxLength: 1024,
  });
  const submit = h(
    'button',
    { type: 'submit', class: 'button button-primary button-wide' },
    'Sign in',
  );
  const form = h(
    'form',
    { class: 'form', novalidate: true },
    username.element,
    password.element,
    submit,
  );

  onSubmitOnce(form, submit, async () => {
    const missing = firstEmptyField([
      { field: username, message: 'Please enter your username' },
      { field: password, message: 'Please enter your password' },
    ]);
    if (missing) return feedback.showError(missing);
    feedback.clear();
    let account: PortalAccount;
    try {
      account = await api.signIn({
        username: username.input.value,
        password: password.input.value,
      });
    } catch (error) {
      password.input.value = '';
      feedback.showError(errorText(error));
      password.input.focus();
      return;
    }
    onSignedIn(account);
  });

  if (notice?.kind === 'error') feedback.showError(notice.text);
  if (notice?.kind === 'status') feedback.showStatus(notice.text);

  const element = h(
    'section',
    { class: 'card card-narrow', 'aria-labelledby': 'sign-in-heading' },
    h('h2', { id: 'sign-in-heading', class: 'card-title' }, 'Sign in'),
    h(
      'p',
      { class: 'muted' },
      'Use the username and password you use in the program to see your account, devices and subscriptions.',
    ),
    feedback.element,
    form,
  );
  if (onForgotPassword) {
    const forgot = h(
      'button',
      { type: 'button', class: 'button button-ghost' },
      'Forgot password?',
    );
    forgot.addEventListener('click', onForgotPassword);
    element.append(h('div', { class: 'form-actions' }, forgot));
  }
  return { element, username: username.input };
}
