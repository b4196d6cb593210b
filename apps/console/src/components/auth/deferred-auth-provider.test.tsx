import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { useAuth } from '@/hooks/use-auth.ts';
import { createQueryClient } from '@/lib/query-client.ts';
import { DeferredAuthProvider } from './deferred-auth-provider.tsx';

let mountCount = 0;

/** Lets React commit and run effects, and pending promises settle: a few ticks, no fixed wait. */
const settle = () =>
  act(async () => {
    for (let tick = 0; tick < 5; tick += 1) await new Promise((resolve) => setTimeout(resolve, 0));
  });

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
    // Loaded beforehand (the controller and the Firebase code it imports when it mounts), so a
    // mounted controller asks for the runtime config within the few ticks settle() waits,
    // rather than after however long the modules take to load.
    await Promise.all([import('./auth-provider.tsx'), import('@/lib/firebase.ts')]);

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
    await settle();
    expect(fetchSpy).not.toHaveBeenCalled();

    window.dispatchEvent(new Event('load'));
    // The same settling that saw no request before `load` sees one after it: so the absence
    // above means the controller was not mounted, not that it had not got round to asking.
    await settle();
    expect(fetchSpy).toHaveBeenCalled();
    expect(await screen.findByText('known, mount 1', {}, { timeout: 3_000 })).toBeTruthy();
  });
});
