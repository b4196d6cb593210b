import type { DashboardStats } from '@latchkey/contracts';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { parse as parsePattern } from 'regexparam';
import { matchRoute } from 'wouter';
import { consolePagePaths, isConsolePagePath } from '@latchkey/contracts/console-pages';
import { ACCOUNT_ID_KEY } from '@/lib/account-storage.ts';
import { AppRoutes, preloadSignedInVisit, SIGNED_IN_ROUTES } from './App.tsx';
import {
  createAuthValue,
  createCurrentUser,
  renderWithProviders,
  signedInAuth,
} from './test/render-with-providers.tsx';
import { createActivityChart, jsonResponse, stubOwnerApi } from './test/stub-owner-api.ts';

const dashboardStats: DashboardStats = {
  totalApplications: 0,
  activeApplications: 0,
  totalUsers: 0,
  totalActiveSessions: 0,
  unusedLicenses: 0,
  usedLicenses: 0,
  totalApiKeys: 0,
  activeApiKeys: 0,
  accountType: 'Enterprise',
};

describe('AppRoutes', () => {
  afterEach(() => localStorage.clear());

  it('shows only a spinner while the authentication state loads', () => {
    for (const path of ['/dashboard', '/firebase-login', '/nope']) {
      const { unmount } = renderWithProviders(<AppRoutes />, {
        path,
        auth: createAuthValue({ isLoading: true }),
      });
      expect(screen.getByRole('status').textContent, path).toBe('Loading...');
      expect(screen.queryByRole('heading'), path).toBeNull();
      unmount();
    }
  });

  it('paints the landing page at once for a browser that never signed in, while auth loads', () => {
    renderWithProviders(<AppRoutes />, { path: '/', auth: createAuthValue({ isLoading: true }) });

    expect(screen.getByRole('progressbar')).toBeTruthy();
    expect(screen.queryByText('Loading...')).toBeNull();
  });

  it('waits with a spinner on / when this browser has signed in before', () => {
    localStorage.setItem(ACCOUNT_ID_KEY, 'account-1');
    renderWithProviders(<AppRoutes />, { path: '/', auth: createAuthValue({ isLoading: true }) });

    expect(screen.getByRole('status').textContent).toBe('Loading...');
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('offers the sign-in page to visitors', async () => {
    renderWithProviders(<AppRoutes />, { path: '/firebase-login' });

    expect(await screen.findByRole('heading', { name: 'Create Your Account' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Continue with Google' })).toBeTruthy();
  });

  it('shows the busy label while signing in', async () => {
    renderWithProviders(<AppRoutes />, {
      path: '/firebase-login',
      auth: createAuthValue({ isSigningIn: true }),
    });

    const button = await screen.findByRole('button', { name: 'Authenticating...' });
    expect(button.hasAttribute('disabled')).toBe(true);
  });

  it.each([
    '/dashboard',
    '/app/3',
    '/app/',
    '/blacklist',
    '/activity-logs',
    '/webhooks',
    '/integration',
    '/docs',
    '/code-editor',
    '/user-management',
    '/api-tokens',
  ])('sends a visitor of %s to sign in first, remembering where they were going', async (path) => {
    const { location } = renderWithProviders(<AppRoutes />, { path });

    expect(await screen.findByRole('heading', { name: 'Sign In to Continue' })).toBeTruthy();
    expect(location.history?.at(-1)).toBe(`/firebase-login?next=${encodeURIComponent(path)}`);
    // Replaced, not pushed: Back leaves the site rather than bouncing to sign-in again.
    expect(location.history).toHaveLength(1);
  });

  it('keeps the query of a deep link', async () => {
    const { location } = renderWithProviders(<AppRoutes />, { path: '/app/3?tab=users' });

    await screen.findByRole('heading', { name: 'Sign In to Continue' });
    expect(location.history?.at(-1)).toBe('/firebase-login?next=%2Fapp%2F3%3Ftab%3Dusers');
  });

  it('has a page exactly where the server answers 200 (it answers 404 elsewhere)', () => {
    const paths = [
      '/',
      '/dashboard',
      '/Dashboard/',
      '/app',
      '/app/',
      '/app/3',
      '/app/3/x',
      '/docs',
    ];
    paths.push('/nope', '/dashboard/extra', '/firebase-login', '/firebase-login/x', '/api-tokens');
    for (const path of paths) {
      const isRouted = Object.values(consolePagePaths).some(
        (pattern) => matchRoute(parsePattern, pattern, path)[0],
      );
      expect(isConsolePagePath(path), path).toBe(isRouted);
    }
  });

  it('covers every signed-in page, so a new page is never a 404 for a visitor', () => {
    expect(SIGNED_IN_ROUTES.map(({ path }) => path)).toEqual(
      expect.arrayContaining(['/dashboard', '/app/:id?', '/blacklist', '/webhooks']),
    );
  });

  it('shows the 404 page only for unknown paths while signed out', async () => {
    for (const path of ['/nope', '/dashboard/extra', '/app/3/x']) {
      const { location, unmount } = renderWithProviders(<AppRoutes />, { path });
      expect(await screen.findByRole('heading', { name: '404 Page Not Found' }), path).toBeTruthy();
      expect(location.history, path).toEqual([path]);
      unmount();
    }
  });

  it("shows 'Invalid application ID' for /app without an id", async () => {
    for (const path of ['/app', '/app/', '/app/abc']) {
      const { unmount } = renderWithProviders(<AppRoutes />, { path, auth: signedInAuth() });
      expect(await screen.findByText('Invalid application ID'), path).toBeTruthy();
      unmount();
    }
  });

  it("asks for a revisited dashboard's first screen as the console starts, and only once", async () => {
    localStorage.setItem(ACCOUNT_ID_KEY, 'account-1');
    const sent = stubOwnerApi(({ url }) => {
      if (url.pathname === '/api/auth/user') return jsonResponse(200, createCurrentUser());
      if (url.pathname === '/api/dashboard/stats') return jsonResponse(200, dashboardStats);
      if (url.pathname === '/api/dashboard/activity-chart') {
        return jsonResponse(200, createActivityChart());
      }
      if (url.pathname === '/api/dashboard/sales') {
        return jsonResponse(200, { today: [], last30Days: [] });
      }
      if (url.pathname === '/api/applications') return jsonResponse(200, []);
      return undefined;
    });
    // As the console starts: the profile and the page's data are asked for already.
    preloadSignedInVisit('/dashboard');
    const asked = sent.map(({ path }) => path).sort();
    expect(asked).toEqual([
      '/api/applications',
      '/api/auth/user',
      '/api/dashboard/activity-chart?range=24h',
      '/api/dashboard/sales',
      '/api/dashboard/stats',
    ]);

    // Once signed in, the page reads those answers: it sends nothing it had not asked for
    // early (a page whose first screen changes must change its list), and nothing twice.
    renderWithProviders(<AppRoutes />, { path: '/dashboard', auth: signedInAuth() });
    expect(await screen.findByText('No Applications', {}, { timeout: 10_000 })).toBeTruthy();
    expect(await screen.findByText(/Nothing happened in the last 24 hours/)).toBeTruthy();
    expect(sent.map(({ path }) => path).sort()).toEqual(asked);
  });

  it('routes a signed-in owner to the pages (loaded on demand) and unknown paths to 404', async () => {
    renderWithProviders(<AppRoutes />, { path: '/activity-logs', auth: signedInAuth() });
    expect(await screen.findByRole('heading', { level: 1, name: 'Activity Logs' })).toBeTruthy();
  });

  it('greets a signed-in owner by first name on the home page', async () => {
    renderWithProviders(<AppRoutes />, { path: '/', auth: signedInAuth() });
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe(
      'Welcome back, Ada!',
    );
  });

  it('shows 404 for an unknown signed-in path', () => {
    renderWithProviders(<AppRoutes />, { path: '/nope', auth: signedInAuth() });
    expect(screen.getByRole('heading', { name: '404 Page Not Found' })).toBeTruthy();
  });
});
