import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { useAuth } from '@/hooks/use-auth.ts';
import { createQueryClient } from '@/lib/query-client.ts';
import { DeferredAuthProvider } from './deferred-auth-provider.tsx';

let mountCount = 0;

function AuthStateProbe() {
  const { isLoading } = useAuth();
  const [mountNumber] = useState(() => ++mountCount);
  return (
    <p>
      {isLoading ? 'pending' : 'known'}, mount {mountNumber}
    </p>
  );
}

describe('DeferredAuthProvider', () => {
  it('loads the sign-in code only after the page has loaded, without remounting the page', async () => {
    vi.spyOn(document, 'readyState', 'get').mockReturnValue('loading');
    // The runtime config cannot be fetched here: the controller then settles as signed out.
    const fetchSpy = vi.fn(() => Promise.reject(new TypeError('offline')));
    vi.stubGlobal('fetch', fetchSpy);
    vi.spyOn(console, 'error').mockImplementation(() => {});

    render(
      <QueryClientProvider client={createQueryClient()}>
        <Router hook={memoryLocation().hook}>
          <DeferredAuthProvider>
            <AuthStateProbe />
          </DeferredAuthProvider>
        </Router>
      </QueryClientProvider>,
    );
    expect(screen.getByText('pending, mount 1')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(fetchSpy).not.toHaveBeenCalled();

    window.dispatchEvent(new Event('load'));

    expect(await screen.findByText('known, mount 1', {}, { timeout: 3_000 })).toBeTruthy();
    expect(fetchSpy).toHaveBeenCalled();
  });
});
