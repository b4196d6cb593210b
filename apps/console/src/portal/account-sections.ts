import type { PortalAccount } from '@latchkey/contracts';
import { h, replaceChildren } from './dom.ts';
import {
  accountExpiryText,
  meterResetText,
  meterUsageText,
  subscriptionExpiryText,
  subscriptionUpdatesText,
} from './format.ts';

/** The updates window's line under a subscription, when it has one. */
const updatesLine = (text: string | null) =>
  text === null ? [] : [h('p', { class: 'row-meta' }, text)];

/** A card of the signed-in page: a section named by its heading. */
export function card(id: string, title: string, ...content: Node[]): HTMLElement {
  return h(
    'section',
    { class: 'card', id, 'aria-labelledby': `${id}-heading` },
    h('h2', { id: `${id}-heading`, class: 'card-title', tabindex: -1 }, title),
    ...content,
  );
}

/** "Your account": username, e-mail and the account's own expiry. */
export function createAccountCard(): {
  element: HTMLElement;
  update(account: PortalAccount): void;
} {
  const list = h('dl', { class: 'details' });
  return {
    element: card('account', 'Your account', list),
    update(account) {
      replaceChildren(
        list,
        detail('Username', account.username),
        detail('E-mail', account.email ?? 'Not given'),
        detail('Account expires', accountExpiryText(account.expiresAt)),
      );
    },
  };
}

/** One term and its value in a `details` list. */
export function detail(term: string, value: string): HTMLElement {
  return h(
    'div',
    { class: 'detail' },
    h('dt', {}, term),
    h('dd', { class: 'wrap-anywhere' }, value),
  );
}

/** "Subscriptions": each plan held, until when, whether it is active; then what they grant. */
export function createSubscriptionsCard(): {
  element: HTMLElement;
  update(account: PortalAccount): void;
} {
  const body = h('div', { class: 'stack' });
  return {
    element: card('subscriptions', 'Subscriptions', body),
    update(account) {
      const subscriptions =
        account.subscriptions.length === 0
          ? h('p', { class: 'muted' }, 'No subscriptions yet: redeem a licence key to add one.')
          : h(
              'ul',
              { class: 'rows', 'aria-label': 'Your subscriptions' },
              ...account.subscriptions.map((subscription) =>
                h(
                  'li',
                  { class: 'row', 'data-testid': `subscription-${subscription.planName}` },
                  h(
                    'div',
                    { class: 'row-main' },
                    h('p', { class: 'row-title wrap-anywhere' }, subscription.planName),
                    h('p', { class: 'row-meta' }, subscriptionExpiryText(subscription)),
                    ...updatesLine(subscriptionUpdatesText(subscription)),
                  ),
                  h(
                    'span',
                    { class: subscription.isActive ? 'badge badge-active' : 'badge badge-expired' },
                    subscription.isActive ? 'Active' : 'Expired',
                  ),
                ),
              ),
            );
      const entitlements =
        account.entitlements.length === 0
          ? h('p', { id: 'entitlements-value', class: 'muted' }, 'None')
          : h(
              'ul',
              {
                id: 'entitlements-value',
                class: 'chips',
                'aria-labelledby': 'entitlements-heading',
              },
              ...account.entitlements.map((code) =>
                h('li', {}, h('code', { class: 'chip wrap-anywhere' }, code)),
              ),
            );
      replaceChildren(
        body,
        subscriptions,
        h(
          'div',
          { class: 'entitlements' },
          h('h3', { id: 'entitlements-heading', class: 'subheading' }, 'Entitlements'),
          entitlements,
        ),
        ...usageSection(account),
      );
    },
  };
}

/** "Usage": each meter of the active plans, how much of it is used, and when it refills. */
function usageSection(account: PortalAccount): HTMLElement[] {
  if (account.meters.length === 0) return [];
  return [
    h(
      'div',
      { class: 'entitlements' },
      h('h3', { id: 'usage-heading', class: 'subheading' }, 'Usage'),
      h(
        'ul',
        { class: 'rows', 'aria-labelledby': 'usage-heading' },
        ...account.meters.map((meter) =>
          h(
            'li',
            { class: 'row', 'data-testid': `meter-${meter.name}` },
            h(
              'div',
              { class: 'row-main' },
              h('p', { class: 'row-title wrap-anywhere' }, meter.name),
              h('p', { class: 'row-meta' }, meterUsageText(meter)),
              h('p', { class: 'row-meta' }, meterResetText(meter.resetsAt)),
            ),
            h(
              'span',
              { class: meter.remaining > 0 ? 'badge badge-active' : 'badge badge-expired' },
              `${meter.remaining} left`,
            ),
          ),
        ),
      ),
    ),
  ];
}
