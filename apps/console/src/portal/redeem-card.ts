import { card } from './account-sections.ts';
import { h } from './dom.ts';
import { createFeedback, createField, firstEmptyField, onSubmitOnce } from './form-parts.ts';
import type { PortalPage } from './portal-page.ts';

/** "Redeem a licence key": a key bought from the vendor, added to this account. */
export function createRedeemCard(page: PortalPage): HTMLElement {
  const feedback = createFeedback();
  const key = createField({
    label: 'Licence key',
    name: 'licenseKey',
    autocomplete: 'off',
    maxLength: 256,
    hint: 'As you received it, for example ABCDE-FGHIJ-KLMNO-PQRST.',
    attributes: { autocapitalize: 'characters', spellcheck: 'false' },
  });
  const submit = h('button', { type: 'submit', class: 'button button-primary' }, 'Redeem');
  const form = h(
    'form',
    { class: 'form', novalidate: true },
    key.element,
    h('div', { class: 'form-actions' }, submit),
  );
  onSubmitOnce(form, submit, async () => {
    const missing = firstEmptyField([{ field: key, message: 'Please enter your licence key' }]);
    if (missing) return feedback.showError(missing);
    feedback.clear();
    try {
      page.accountChanged(await page.api.redeem({ licenseKey: key.input.value }));
    } catch (error) {
      const text = page.failureText(error);
      if (text === null) return;
      key.setInvalid(true);
      return feedback.showError(text);
    }
    key.input.value = '';
    feedback.showStatus('Licence key redeemed: your subscriptions above are updated.');
  });
  return card('redeem', 'Redeem a licence key', feedback.element, form);
}
