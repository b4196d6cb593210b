import type { PortalAccount, PortalDevice } from '@latchkey/contracts';
import { card } from './account-sections.ts';
import { h, replaceChildren } from './dom.ts';
import { createFeedback } from './form-parts.ts';
import { deviceCountText, deviceNameOf, formatDateTime, nextReleaseText } from './format.ts';
import type { PortalPage } from './portal-page.ts';

/**
 * "Devices": the computers where the program was used (the browser is not one of them, so no
 * "this device" here), how many of the account's seats they take, and a release button for
 * each behind a confirmation, when the application lets end users release devices.
 */
export function createDevicesCard(page: PortalPage): {
  element: HTMLElement;
  update(account: PortalAccount): void;
} {
  const count = h('p', { class: 'device-count' });
  const list = h('div', {});
  const releaseRule = h('p', { class: 'muted' });
  const feedback = createFeedback();
  const dialog = createReleaseDialog();
  const element = card(
    'devices',
    'Devices',
    count,
    h(
      'p',
      { class: 'muted' },
      'The computers where you have used the program. Each one takes a seat of your account.',
    ),
    feedback.element,
    list,
    releaseRule,
    dialog.element,
  );
  const heading = element.querySelector('h2')!;
  releaseRule.id = 'device-release-rule';
  let isReleasing = false;
  /** Re-renders when the cooldown ends, so Release comes back without a reload. */
  let cooldownTimer: ReturnType<typeof setTimeout> | undefined;

  const release = async (device: PortalDevice) => {
    if (isReleasing) return;
    isReleasing = true;
    feedback.clear();
    try {
      page.accountChanged(await page.api.releaseDevice(device.id));
      feedback.showStatus(`${deviceNameOf(device)} has been released: its seat is free.`);
      heading.focus();
    } catch (error) {
      const text = page.failureText(error);
      if (text === null) return;
      feedback.showError(text);
      // The refusal may be news the page did not have (a release made elsewhere, a device
      // already gone): show the account as it is now.
      page.api.account().then(page.accountChanged, () => undefined);
    } finally {
      isReleasing = false;
    }
  };

  const devicesCard = {
    element,
    update(account: PortalAccount) {
      clearTimeout(cooldownTimer);
      const cooldownMs = cooldownLeftMs(account, Date.now());
      if (cooldownMs > 0) {
        cooldownTimer = setTimeout(
          () => devicesCard.update(account),
          Math.min(cooldownMs, MAX_TIMER_MS),
        );
      }
      // Re-rendering replaces the buttons: keep the keyboard where it was.
      const focusedDeviceId =
        document.activeElement instanceof HTMLElement && list.contains(document.activeElement)
          ? (document.activeElement.dataset.deviceId ?? null)
          : null;
      count.textContent = deviceCountText(account.devices.length, account.deviceLimit);
      const items = account.devices.map((device) => {
        const name = deviceNameOf(device);
        const button = account.selfServiceReset
          ? h(
              'button',
              {
                type: 'button',
                class: 'button button-secondary button-danger-text',
                'aria-label': `Release ${name} (${device.hwidPreview})`,
                'data-device-id': device.id,
                // Within the cooldown the server would refuse: the rule below says until when.
                ...(cooldownMs > 0
                  ? { disabled: true, 'aria-describedby': 'device-release-rule' }
                  : {}),
              },
              'Release',
            )
          : null;
        button?.addEventListener('click', () =>
          dialog.confirm(device, () => {
            void release(device);
          }),
        );
        return h(
          'li',
          { class: 'row', 'data-testid': `device-${device.hwidPreview}` },
          h(
            'div',
            { class: 'row-main' },
            h('p', { class: 'row-title wrap-anywhere' }, name),
            h(
              'p',
              { class: 'row-meta' },
              'ID starts with ',
              h('code', { class: 'wrap-anywhere' }, device.hwidPreview),
            ),
            h('p', { class: 'row-meta' }, `Last seen ${formatDateTime(device.lastSeenAt)}`),
            device.activatedOfflineAt
              ? h(
                  'p',
                  { class: 'row-meta' },
                  `Activated offline ${formatDateTime(device.activatedOfflineAt)}`,
                )
              : null,
          ),
          button,
        );
      });
      replaceChildren(
        list,
        items.length === 0
          ? h(
              'p',
              { class: 'muted' },
              'No devices yet: they appear once you sign in from the program.',
            )
          : h('ul', { class: 'rows', 'aria-label': 'Your devices' }, ...items),
      );
      releaseRule.textContent =
        nextReleaseText(account, new Date()) ??
        'To free a device for another computer, contact the vendor of the program.';
      if (focusedDeviceId !== null) {
        const button = list.querySelector<HTMLButtonElement>(
          `button[data-device-id="${CSS.escape(focusedDeviceId)}"]`,
        );
        (button ?? heading).focus();
      }
    },
  };
  return devicesCard;
}

/** setTimeout's longest delay; a longer cooldown re-renders at this interval until it ends. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** How long until the next release is allowed; 0 when it is allowed now or never offered. */
function cooldownLeftMs(
  account: Pick<PortalAccount, 'selfServiceReset' | 'nextResetAt'>,
  now: number,
): number {
  if (!account.selfServiceReset || account.nextResetAt === null) return 0;
  return Math.max(0, Date.parse(account.nextResetAt) - now);
}

/**
 * The confirmation: a modal <dialog> (the browser traps focus in it, Escape cancels, focus
 * goes back to the button that opened it), starting on Cancel, the harmless choice.
 */
function createReleaseDialog(): {
  element: HTMLDialogElement;
  confirm(device: PortalDevice, onRelease: () => void): void;
} {
  const description = h('p', { id: 'release-dialog-description' });
  const cancel = h(
    'button',
    { type: 'submit', value: 'cancel', class: 'button button-secondary', autofocus: true },
    'Cancel',
  );
  const confirmButton = h(
    'button',
    { type: 'submit', value: 'release', class: 'button button-danger' },
    'Release',
  );
  const element = h(
    'dialog',
    {
      class: 'dialog',
      'aria-labelledby': 'release-dialog-title',
      'aria-describedby': 'release-dialog-description',
    },
    h(
      'form',
      { method: 'dialog', class: 'stack' },
      h('h2', { id: 'release-dialog-title', class: 'card-title' }, 'Release this device?'),
      description,
      h(
        'p',
        { class: 'muted' },
        'After a release you must wait a while before you can release another device.',
      ),
      h('div', { class: 'dialog-actions' }, cancel, confirmButton),
    ),
  );
  let pending: (() => void) | null = null;
  element.addEventListener('close', () => {
    // The close event comes in a task of its own after the dialog closed, and input is
    // handled first: Escape, then Enter on Release at once, opens the dialog again before the
    // first closing's event arrives. That event is not this opening's: it must not take the
    // release the new opening is waiting to confirm.
    if (element.open) return;
    const onRelease = pending;
    pending = null;
    if (element.returnValue === 'release') onRelease?.();
  });
  return {
    element,
    confirm(device, onRelease) {
      description.textContent = `${deviceNameOf(device)} (ID starts with ${device.hwidPreview}) will be signed out of the program, and its seat freed for another computer.`;
      pending = onRelease;
      element.returnValue = '';
      element.showModal();
    },
  };
}
