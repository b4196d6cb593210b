import './portal.css';
import { createPortalApi } from './portal-api.ts';
import { startPortal } from './portal-app.ts';
import { portalAddressOf } from './public-id.ts';
import { startResetPage } from './reset-page.ts';
import { startStopRemindersPage } from './stop-reminders-page.ts';
import { applyStoredTheme, createThemeToggle } from './theme.ts';
import { startVerifyPage } from './verify-page.ts';

/**
 * The end-user portal's entry, `/portal/:publicId`: plain TypeScript and DOM, a few kilobytes,
 * nothing of the owner console (no React, no Firebase).
 */
applyStoredTheme();

const byId = (id: string) => document.getElementById(id)!;
const address = portalAddressOf(window.location.pathname);
const elements = {
  title: byId('portal-title'),
  actions: byId('topbar-actions'),
  themeToggle: createThemeToggle(),
  main: byId('portal-main'),
};

if (address?.page === 'reset') {
  startResetPage(elements, createPortalApi(address.publicId));
} else if (address?.page === 'verify') {
  startVerifyPage(elements, createPortalApi(address.publicId));
} else if (address?.page === 'unsubscribe') {
  startStopRemindersPage(elements, createPortalApi(address.publicId));
} else {
  void startPortal(elements, address === null ? null : createPortalApi(address.publicId));
}
