import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from './App.tsx';
import {
  createAuthValue,
  createCurrentUser,
  renderWithProviders,
} from './test/render-with-providers.tsx';

const signedIn = () => createAuthValue({ isAuthenticated: true, user: createCurrentUser() });

describe('AppRoutes', () => {
  it('shows only a spinner while the authentication state loads', () => {
    renderWithProviders(<AppRoutes />, { auth: createAuthValue({ isLoading: true }) });

    expect(screen.getByRole('status').textContent).toBe('Loading...');
    expect(screen.queryByRole('heading')).toBeNull();
  });

  it('offers the sign-in page to visitors', () => {
    renderWithProviders(<AppRoutes />, { path: '/firebase-login' });

    expect(screen.getByRole('heading', { name: 'Create Your Account' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Continue with Google' })).toBeTruthy();
  });

  it('shows the busy label while signing in', () => {
    renderWithProviders(<AppRoutes />, {
      path: '/firebase-login',
      auth: createAuthValue({ isSigningIn: true }),
    });

    const button = screen.getByRole('button', { name: 'Authenticating...' });
    expect(button.hasAttribute('disabled')).toBe(true);
  });

  it('keeps signed-in pages from visitors', () => {
    renderWithProviders(<AppRoutes />, { path: '/dashboard' });

    expect(screen.getByRole('heading', { name: '404 Page Not Found' })).toBeTruthy();
  });

  it('routes a signed-in owner to the pages (loaded on demand) and unknown paths to 404', async () => {
    renderWithProviders(<AppRoutes />, { path: '/activity-logs', auth: signedIn() });
    expect(await screen.findByRole('heading', { level: 1, name: 'Activity Logs' })).toBeTruthy();
  });

  it('greets a signed-in owner by first name on the home page', () => {
    renderWithProviders(<AppRoutes />, { path: '/', auth: signedIn() });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Welcome back, Ada!');
  });

  it('shows 404 for an unknown signed-in path', () => {
    renderWithProviders(<AppRoutes />, { path: '/nope', auth: signedIn() });
    expect(screen.getByRole('heading', { name: '404 Page Not Found' })).toBeTruthy();
  });
});
