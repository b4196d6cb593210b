import type { PortalAccount } from '@latchkey/contracts';
import { createAccountCard, createSubscriptionsCard } from './account-sections.ts';
import { createDevicesCard } from './devices-card.ts';
import { h } from './dom.ts';
import { createFeedback, type Feedback } from './form-parts.ts';
import { createPasswordCard } from './password-card.ts';
import type { PortalPage } from './portal-page.ts';
import { createRedeemCard } from './redeem-card.ts';
import { createActivationCard } from './activation-card.ts';

/**
 * The signed-in page: the account, its subscriptions and devices (re-drawn by `update`
 * whenever the server answers a newer account: the page's `accountChanged` calls it), and
 * the two forms (built once, so what is typed stays).
 */
export function createAccountView(page: PortalPage): {
  element: HTMLElement;
  /** The first heading, where the keyboard goes after signing in. */
  heading: HTMLElement;
  /** For what concerns the whole page (signing out, say). */
  feedback: Feedback;
  update(account: PortalAccount): void;
} {
  const feedback = createFeedback();
  let username = '';
  const account = createAccountCard();
  const subscriptions = createSubscriptionsCard();
  const devices = createDevicesCard(page);
  devices.element.classList.add('card-wide');
  const element = h(
    'div',
    {},
    feedback.element,
    h(
      'div',
      { class: 'cards' },
      account.element,
      subscriptions.element,
      devices.element,
      createRedeemCard(page),
      createPasswordCard(page, () => username),
      createActivationCard({
        api: page.api,
        isSignedIn: true,
        failureText: (error) => page.failureText(error),
        // Under HWID lock the computer is now one of the account's devices.
        onActivated: () => {
          page.api.account().then(
            (account) => page.accountChanged(account),
            () => undefined,
          );
        },
      }),
    ),
  );
  const update = (next: PortalAccount) => {
    username = next.username;
    account.update(next);
    subscriptions.update(next);
    devices.update(next);
  };
  return { element, heading: account.element.querySelector('h2')!, feedback, update };
}
