import { h, uniqueId } from './dom.ts';

/**
 * The pieces every portal form is made of: labelled fields, and two live regions, one for
 * errors (announced at once) and one for results (announced politely). The regions are in the
 * page from the start, so a screen reader announces the text put in them later.
 */
export interface Feedback {
  element: HTMLDivElement;
  showError(text: string): void;
  showStatus(text: string): void;
  clear(): void;
}

export function createFeedback(): Feedback {
  const error = h('p', { class: 'feedback feedback-error', role: 'alert' });
  const status = h('p', { class: 'feedback feedback-status', role: 'status' });
  return {
    element: h('div', { class: 'feedback-area' }, error, status),
    showError(text) {
      status.textContent = '';
      error.textContent = text;
    },
    showStatus(text) {
      error.textContent = '';
      status.textContent = text;
    },
    clear() {
      error.textContent = '';
      status.textContent = '';
    },
  };
}

export interface Field {
  element: HTMLDivElement;
  input: HTMLInputElement;
  /** Marks the field as the one at fault (or not), for assistive technology and the eye. */
  setInvalid(isInvalid: boolean): void;
}

export function createField(options: {
  label: string;
  name: string;
  type?: 'text' | 'password';
  autocomplete: string;
  maxLength?: number;
  hint?: string;
  attributes?: Record<string, string>;
}): Field {
  const id = uniqueId(options.name);
  const hintId = options.hint ? `${id}-hint` : undefined;
  const input = h('input', {
    id,
    name: options.name,
    type: options.type ?? 'text',
    autocomplete: options.autocomplete,
    maxlength: options.maxLength,
    required: true,
    'aria-describedby': hintId,
    class: 'input',
    ...options.attributes,
  });
  input.addEventListener('input', () => input.removeAttribute('aria-invalid'));
  return {
    element: h(
      'div',
      { class: 'field' },
      h('label', { for: id, class: 'label' }, options.label),
      options.hint ? h('p', { id: hintId, class: 'hint' }, options.hint) : null,
      input,
    ),
    input,
    setInvalid(isInvalid) {
      if (isInvalid) input.setAttribute('aria-invalid', 'true');
      else input.removeAttribute('aria-invalid');
    },
  };
}

/**
 * Runs a form's submission once at a time. The button is not disabled while it runs (a
 * disabled button loses focus to the page); a second press is ignored and the button says
 * it is busy.
 */
export function onSubmitOnce(
  form: HTMLFormElement,
  button: HTMLButtonElement,
  submit: () => Promise<void>,
): void {
  let isBusy = false;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (isBusy) return;
    isBusy = true;
    form.setAttribute('aria-busy', 'true');
    button.setAttribute('aria-disabled', 'true');
    void submit().finally(() => {
      isBusy = false;
      form.removeAttribute('aria-busy');
      button.removeAttribute('aria-disabled');
    });
  });
}

/** The first empty field, marked and focused, with its message; null when all are filled. */
export function firstEmptyField(fields: { field: Field; message: string }[]): string | null {
  for (const { field, message } of fields) {
    const { type, value } = field.input;
    // A password may be spaces; a username or a key may not.
    if (type === 'password' ? value === '' : value.trim() === '') {
      field.setInvalid(true);
      field.input.focus();
      return message;
    }
  }
  return null;
}

/** "New password" and "Confirm new password": the pair every change of password asks for. */
export function createNewPasswordFields(): { next: Field; confirmation: Field } {
  const field = (label: string, name: string) =>
    createField({ label, name, type: 'password', autocomplete: 'new-password', maxLength: 1024 });
  return {
    next: field('New password', 'newPassword'),
    confirmation: field('Confirm new password', 'confirmPassword'),
  };
}
