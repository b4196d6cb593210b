/**
 * The landing page's splash plays once per browser session: not again after a logout, a reload
 * or a visit back. sessionStorage ends with the tab, so a new session still gets it.
 */
export const SPLASH_PLAYED_KEY = 'latchkey_splash_played';

// Storage can throw (privacy modes, disabled storage): then the splash simply plays again.
export function hasSplashPlayedThisSession(): boolean {
  try {
    return sessionStorage.getItem(SPLASH_PLAYED_KEY) === 'true';
  } catch {
    return false;
  }
}

export function markSplashPlayed(): void {
  try {
    sessionStorage.setItem(SPLASH_PLAYED_KEY, 'true');
  } catch {
    // ignored on purpose: see above
  }
}
