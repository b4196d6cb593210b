import type { ReactNode } from 'react';
import { SignedInHeader } from './signed-in-header.tsx';

/** The frame of every signed-in page that uses the shared header. */
export function SignedInLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col bg-background">
      <SignedInHeader />
      <main className="mx-auto w-full max-w-7xl flex-1 px-4 py-8 sm:px-6 lg:px-8">{children}</main>
    </div>
  );
}
