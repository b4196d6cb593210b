import { screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import { DashboardNavigation } from '@/components/dashboard/dashboard-navigation.tsx';
import { DocsNavigation } from '@/components/docs/docs-navigation.tsx';
import { HomeNavigation } from '@/components/home/home-navigation.tsx';
import {
  createAuthValue,
  renderWithProviders,
  signedInAuth,
} from '@/test/render-with-providers.tsx';
import { brandName } from './brand-logo.tsx';
import { SignedInHeader } from './signed-in-header.tsx';
import { SignedOutHeader } from './signed-out-header.tsx';

function brandOf(header: ReactElement, { isSignedIn }: { isSignedIn: boolean }): string {
  const { unmount } = renderWithProviders(header, {
    auth: isSignedIn ? signedInAuth() : createAuthValue(),
  });
  const text = screen.getByTestId('brand-logo').textContent!;
  unmount();
  return text;
}

describe('the header brand', () => {
  it('differs between signed out and signed in, and the docs page has a third', () => {
    const signedOut = brandOf(<SignedOutHeader />, { isSignedIn: false });
    const signedIn = [<SignedInHeader />, <HomeNavigation />, <DashboardNavigation />].map(
      (header) => brandOf(header, { isSignedIn: true }),
    );
    const docs = brandOf(<DocsNavigation />, { isSignedIn: true });

    expect(signedOut).toBe(brandName('signed-out'));
    expect(new Set(signedIn)).toEqual(new Set([brandName('signed-in')]));
    expect(docs).toBe(brandName('docs'));
    expect(new Set([signedOut, signedIn[0], docs]).size).toBe(3);
  });
});
