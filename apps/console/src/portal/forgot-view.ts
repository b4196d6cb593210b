import { h } from './dom.ts';
import { createFeedback, createField, firstEmptyField, onSubmitOnce } from './form-parts.ts';
import { errorText, type PortalApi } from './portal-api.ts';

/**
 * "Forgot password?" from the sign-in form: one field for the username or the e-mail address
 * (text with an @ is sent as an address). The server answers the same whether or not an
 * account matches, and so does this page.
 */
export function createForgotView({ api, onBack }: { api: PortalApi; onBack: () => void }): {
  element: HTMLElement;
  account: HTMLInputElement;
} {
  const feedback = createFeedback();
  const account = createField({
    label: 'Username or e-mail address',
    name: 'account',
    autocomplete: 'username',
    maxLength: 254,
    attributes: { autocapitalize: 'none', spellcheck: 'false' },
  });
  const submit = h(
    'button',
    { type: 'submit', class: 'button button-primary button-wide' },
    'Send me a link',
  );
  const back = h('button', { type: 'button', class: 'button button-ghost' }, 'Back to sign in');
  back.addEventListener('click', onBack);
  const form = h('form', { class: 'form', novalidate: true }, account.element, submit);

  onSubmitOnce(form, submit, async () => {
    const missing = firstEmptyField([
      { field: account, message: 'Please enter your username or your e-mail address' },
    ]);
    if (missing) return feedback.showError(missing);
    feedback.clear();
    const typed = account.input.value.trim();
    try {
      const answer = await api.forgotPassword(
        typed.includes('@') ? { email: typed } : { username: typed },
      );
      form.remove();
      feedback.showStatus(answer.message);
    } catch (error) {
      feedback.showError(errorText(error));
    }
  });

  const element = h(
    'section',
    { class: 'card card-narrow', 'aria-labelledby': 'forgot-heading' },
    h('h2', { id: 'forgot-heading', class: 'card-title' }, 'Forgot password'),
    h(
      'p',
      { class: 'muted' },
      'We will send a link to choose a new password to the e-mail address of your account. It works for 30 minutes.',
    ),
    feedback.element,
    form,
    h('div', { class: 'form-actions' }, back),
  );
  return { element, account: account.input };
}
