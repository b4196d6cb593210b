import './portal.css';
import { createPortalApi } from './portal-api.ts';
import { startPortal } from './portal-app.ts';
import { publicIdFromPath } from './public-id.ts';
import { applyStoredTheme, createThemeToggle } from './theme.ts';

/**
 * The end-user portal's entry, `/portal/:publicId`: plain TypeScript and DOM, a few kilobytes,
 * nothing of the owner console (no React, no Firebase).
 */
applyStoredTheme();

const byId = (id: string) => document.getElementById(id)!;
const publicId = publicIdFromPath(window.location.pathname);

void startPortal(
  {
    title: byId('portal-title'),
    actions: byId('topbar-actions'),
    themeToggle: createThemeToggle(),
    main: byId('portal-main'),
  },
  publicId === null ? null : createPortalApi(publicId),
);
