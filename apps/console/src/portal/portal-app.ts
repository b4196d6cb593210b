import type { PortalAccount } from '@latchkey/contracts';
import { createAccountView } from './account-view.ts';
import { h, icon, replaceChildren } from './dom.ts';
import { errorText, PortalApiError, type PortalApi } from './portal-api.ts';
import type { Notice, PortalPage } from './portal-page.ts';
import { createForgotView } from './forgot-view.ts';
import { createSignInView } from './sign-in-view.ts';
import { createActivationCard } from './activation-card.ts';

export const PORTAL_NOT_AVAILABLE = 'This portal is not available';
export const SESSION_ENDED = 'Your session has ended: please sign in again';
export const SIGNED_OUT = 'You have signed out.';

const SIGN_OUT_ICON = ['M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4', 'M16 17l5-5-5-5', 'M21 12H9'];

export interface PortalElements {
  /** The page's <h1>: the portal's name. */
  title: HTMLElement;
  /** Beside the title: the theme toggle, and Sign out when signed in. */
  actions: HTMLElement;
  themeToggle: HTMLElement;
  main: HTMLElement;
}

/**
 * The portal page's states: not available (the API's 404), signed out (the sign-in form) and
 * signed in (the account). Any call that answers 401 goes back to the sign-in form, which
 * says the session has ended.
 */
export async function startPortal(elements: PortalElements, api: PortalApi | null): Promise<void> {
  if (!api) return showNotAvailable(elements);
  let portalName = '';
  let canResetPassword = false;

  const setPortalName = (name: string) => {
    portalName = name;
    elements.title.textContent = name;
  };
  const show = (pageTitle: string, content: Node, isSignedIn: boolean) => {
    document.title = `${pageTitle} · ${portalName}`;
    replaceChildren(elements.main, content);
    elements.main.removeAttribute('aria-busy');
    replaceChildren(elements.actions, isSignedIn ? signOutButton : null, elements.themeToggle);
  };

  let accountView: ReturnType<typeof createAccountView> | null = null;

  const showSignIn = (notice?: Notice, { moveFocus = true } = {}) => {
    accountView = null;
    const view = createSignInView({
      api,
      notice,
      onSignedIn: (account) => showAccount(account),
      ...(canResetPassword ? { onForgotPassword: showForgot } : {}),
    });
    const activation = createActivationCard({ api, isSignedIn: false, failureText: errorText });
    show('Sign in', h('div', { class: 'stack' }, view.element, activation), false);
    if (moveFocus) view.username.focus();
  };

  const showForgot = () => {
    const view = createForgotView({ api, onBack: () => showSignIn() });
    show('Forgot password', view.element, false);
    view.account.focus();
  };

  const showAccount = (account: PortalAccount, { moveFocus = true } = {}) => {
    const page: PortalPage = {
      api,
      accountChanged: (next) => {
        setPortalName(next.portalName);
        view.update(next);
      },
      failureText: (error) => {
        if (error instanceof PortalApiError && error.isSessionEnded) {
          showSignIn({ kind: 'error', text: SESSION_ENDED });
          return null;
        }
        return errorText(error);
      },
    };
    const view = createAccountView(page);
    accountView = view;
    page.accountChanged(account);
    show('Your account', view.element, true);
    if (moveFocus) view.heading.focus();
  };

  const signOutButton = h(
    'button',
    { type: 'button', class: 'button button-ghost' },
    icon(SIGN_OUT_ICON),
    h('span', {}, 'Sign out'),
  );
  signOutButton.addEventListener('click', () => {
    api.signOut().then(
      () => showSignIn({ kind: 'status', text: SIGNED_OUT }),
      (error: unknown) => {
        // Already signed out (the session had ended): the same outcome.
        if (error instanceof PortalApiError && error.isSessionEnded) {
          showSignIn({ kind: 'status', text: SIGNED_OUT });
        } else {
          accountView?.feedback.showError(errorText(error));
        }
      },
    );
  });

  // Both at once: the portal's name for the title, and the account if a session is open.
  const [info, account] = await Promise.allSettled([api.info(), api.account()]);
  if (info.status === 'rejected') {
    if (info.reason instanceof PortalApiError && info.reason.status === 404) {
      return showNotAvailable(elements);
    }
    return showLoadFailed(elements, errorText(info.reason));
  }
  setPortalName(info.value.name);
  canResetPassword = info.value.canResetPassword;
  if (account.status === 'fulfilled') return showAccount(account.value, { moveFocus: false });
  if (account.reason instanceof PortalApiError && account.reason.isSessionEnded) {
    return showSignIn(undefined, { moveFocus: false });
  }
  showLoadFailed(elements, errorText(account.reason));
}

function showNotAvailable(elements: PortalElements): void {
  document.title = PORTAL_NOT_AVAILABLE;
  elements.title.textContent = PORTAL_NOT_AVAILABLE;
  replaceChildren(
    elements.main,
    h(
      'section',
      { class: 'card card-narrow', 'aria-label': 'About this page' },
      h(
        'p',
        {},
        'There is no account portal at this address, or it has been switched off. Please check the link, or ask the vendor of your program for the right one.',
      ),
    ),
  );
  elements.main.removeAttribute('aria-busy');
  replaceChildren(elements.actions, elements.themeToggle);
}

function showLoadFailed(elements: PortalElements, message: string): void {
  document.title = 'Account portal';
  const retry = h('button', { type: 'button', class: 'button button-primary' }, 'Try again');
  retry.addEventListener('click', () => window.location.reload());
  replaceChildren(
    elements.main,
    h(
      'section',
      { class: 'card card-narrow', 'aria-label': 'Loading failed' },
      h('p', { role: 'alert' }, message),
      h('div', { class: 'form-actions' }, retry),
    ),
  );
  elements.main.removeAttribute('aria-busy');
  replaceChildren(elements.actions, elements.themeToggle);
}
