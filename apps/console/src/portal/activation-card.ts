import type { PortalOfflineActivation } from '@latchkey/contracts';
import { h, uniqueId } from './dom.ts';
import { createFeedback, onSubmitOnce } from './form-parts.ts';
import { formatDateTime } from './format.ts';
import type { PortalApi } from './portal-api.ts';

/**
 * "Activate a computer offline": the air-gapped activation. The program on a computer without
 * internet shows an activation request; pasted here (from any computer), it is exchanged for an
 * offline licence to paste back into the program. Signed in, the licence is for the account;
 * on the sign-in page, for the licence key the request carries.
 */
export function createActivationCard({
  api,
  isSignedIn,
  failureText,
  onActivated,
}: {
  api: PortalApi;
  isSignedIn: boolean;
  /** The text of a failed call; null when the page has already said what happened. */
  failureText: (error: unknown) => string | null;
  /** After a licence was issued (the account's devices may have changed). */
  onActivated?: () => void;
}): HTMLElement {
  const feedback = createFeedback();
  const id = uniqueId('activation');
  const hintId = `${id}-hint`;
  const request = h('textarea', {
    id,
    name: 'request',
    class: 'input input-code',
    rows: 4,
    required: true,
    autocomplete: 'off',
    spellcheck: 'false',
    autocapitalize: 'none',
    'aria-describedby': hintId,
  });
  request.addEventListener('input', () => request.removeAttribute('aria-invalid'));
  const submit = h('button', { type: 'submit', class: 'button button-primary' }, 'Get Licence');
  const form = h(
    'form',
    { class: 'form', novalidate: true },
    h(
      'div',
      { class: 'field' },
      h('label', { for: id, class: 'label' }, 'Activation request'),
      h(
        'p',
        { id: hintId, class: 'hint' },
        'As the program shows it: it starts with LKA1. Line breaks do not matter.',
      ),
      request,
    ),
    h('div', { class: 'form-actions' }, submit),
  );
  const result = h('div', { class: 'activation-result', hidden: true });

  onSubmitOnce(form, submit, async () => {
    if (request.value.trim() === '') {
      request.setAttribute('aria-invalid', 'true');
      request.focus();
      return feedback.showError('Please paste the activation request');
    }
    feedback.clear();
    let activation: PortalOfflineActivation;
    try {
      activation = await api.activateOffline({ request: request.value });
    } catch (error) {
      const text = failureText(error);
      if (text === null) return;
      request.setAttribute('aria-invalid', 'true');
      return feedback.showError(text);
    }
    showLicence(result, activation);
    feedback.showStatus(
      `Licence issued for ${activation.username}: paste it into the program on that computer.`,
    );
    onActivated?.();
  });

  return h(
    'section',
    {
      class: isSignedIn ? 'card card-wide' : 'card card-narrow',
      id: 'offline-activation',
      'aria-labelledby': 'offline-activation-heading',
    },
    h(
      'h2',
      { id: 'offline-activation-heading', class: 'card-title', tabindex: -1 },
      'Activate a computer offline',
    ),
    h(
      'p',
      { class: 'muted' },
      isSignedIn
        ? 'For a computer without internet: choose to activate offline in the program there, paste the request it shows, and take the licence back to it. The licence is for your account.'
        : 'For a computer without internet: paste the request the program shows after you entered your licence key there. No sign-in needed; to use your account instead, sign in first.',
    ),
    feedback.element,
    form,
    result,
  );
}

/** The licence, ready to copy, with until when it lasts. */
function showLicence(result: HTMLElement, activation: PortalOfflineActivation): void {
  const id = uniqueId('licence');
  const licence = h(
    'textarea',
    { id, class: 'input input-code', rows: 5, readonly: true, spellcheck: 'false' },
    activation.license,
  );
  const copied = h('p', { class: 'feedback feedback-status', role: 'status' });
  const copy = h('button', { type: 'button', class: 'button button-secondary' }, 'Copy Licence');
  copy.addEventListener('click', () => {
    licence.select();
    void navigator.clipboard
      ?.writeText(activation.license)
      .then(() => (copied.textContent = 'Licence copied.'))
      .catch(() => (copied.textContent = 'Select the licence and copy it with your keyboard.'));
  });
  result.replaceChildren(
    h('label', { for: id, class: 'label' }, 'Offline licence'),
    h('p', { class: 'hint' }, `Valid until ${formatDateTime(activation.validUntil)}.`),
    licence,
    h('div', { class: 'form-actions' }, copy),
    copied,
  );
  result.hidden = false;
}
