import { card } from './account-sections.ts';
import { h } from './dom.ts';
import {
  createFeedback,
  createField,
  createNewPasswordFields,
  firstEmptyField,
  onSubmitOnce,
} from './form-parts.ts';
import { PortalApiError } from './portal-api.ts';
import type { PortalPage } from './portal-page.ts';

export const PASSWORDS_DO_NOT_MATCH = 'The new passwords do not match';

/**
 * "Change password": proven by the current one; the new one typed twice, compared here
 * before anything is sent. The server signs the account's other portal sessions out.
 */
export function createPasswordCard(page: PortalPage, username: () => string): HTMLElement {
  const feedback = createFeedback();
  const current = createField({
    label: 'Current password',
    name: 'currentPassword',
    type: 'password',
    autocomplete: 'current-password',
    maxLength: 1024,
  });
  const { next, confirmation } = createNewPasswordFields();
  // For password managers: which account the new password belongs to.
  const usernameHint = h('input', {
    type: 'text',
    name: 'username',
    autocomplete: 'username',
    hidden: true,
    tabindex: -1,
    'aria-hidden': 'true',
  });
  const submit = h('button', { type: 'submit', class: 'button button-primary' }, 'Change password');
  const form = h(
    'form',
    { class: 'form', novalidate: true },
    usernameHint,
    current.element,
    next.element,
    confirmation.element,
    h('div', { class: 'form-actions' }, submit),
  );
  onSubmitOnce(form, submit, async () => {
    usernameHint.value = username();
    const missing = firstEmptyField([
      { field: current, message: 'Please enter your current password' },
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
      await page.api.changePassword({
        currentPassword: current.input.value,
        newPassword: next.input.value,
      });
    } catch (error) {
      const text = page.failureText(error);
      if (text === null) return;
      const isCurrentWrong = error instanceof PortalApiError && error.status === 403;
      (isCurrentWrong ? current : next).setInvalid(true);
      return feedback.showError(text);
    }
    for (const field of [current, next, confirmation]) field.input.value = '';
    feedback.showStatus(
      'Your password has been changed. Other browsers signed in to this portal have been signed out.',
    );
  });
  return card('password', 'Change password', feedback.element, form);
}
