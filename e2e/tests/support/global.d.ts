// The console's emulator-only sign-in hook (apps/console/src/lib/firebase.ts).
declare global {
  interface Window {
    __latchkeyEmulator?: {
      signInWithGoogleClaims(claims: { sub: string; email: string; name?: string }): Promise<void>;
    };
  }
}
export {};
