import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/test/render-with-providers.tsx';
import { NotFoundPage } from './not-found-page.tsx';

describe('NotFoundPage', () => {
  it('names the error and hints at the router', () => {
    renderWithProviders(<NotFoundPage />, { path: '/nowhere' });

    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('404 Page Not Found');
    expect(screen.getByText('Did you forget to add the page to the router?')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Home' }).getAttribute('href')).toBe('/');
  });
});
