import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render-with-providers.tsx';
import { CreateAppUserDialog } from './create-app-user-dialog.tsx';

/** The server's runtime config with an installation minimum of 12; any POST is recorded. */
function stubServer() {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const body =
      String(input) === '/api/config'
        ? {
            firebase: { apiKey: 'k', authDomain: 'd', projectId: 'demo-latchkey' },
            authEmulatorUrl: null,
            endUserPasswordMinLength: 12,
            mailDelivery: 'off',
          }
        : {};
    return new Response(JSON.stringify(body), {
      status: 200,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('CreateAppUserDialog and the installation password minimum', () => {
  it('says the minimum from /api/config and refuses a shorter password before sending', async () => {
    const fetchMock = stubServer();
    renderWithProviders(<CreateAppUserDialog applicationId={7} variant="application" />);
    fireEvent.click(screen.getByRole('button', { name: 'Add User' }));
    expect(await screen.findByText('At least 12 characters.')).toBeTruthy();

    fireEvent.change(screen.getByLabelText(/^Username/), { target: { value: 'bob' } });
    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'eleven char' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create User' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Password must be at least 12 characters',
    );
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toEqual(['/api/config']);
  });
});
