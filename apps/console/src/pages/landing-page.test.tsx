import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  SPLASH_FADE_MS,
  SPLASH_PAUSE_MS,
  SPLASH_TICK_COUNT,
  SPLASH_TICK_MS,
} from '@/components/landing/splash-screen.tsx';
import { SPLASH_PLAYED_KEY } from '@/lib/splash-session.ts';
import { renderWithProviders } from '@/test/render-with-providers.tsx';
import { LandingPage } from './landing-page.tsx';

const SPLASH_RUN_MS = SPLASH_TICK_MS * SPLASH_TICK_COUNT + SPLASH_PAUSE_MS + SPLASH_FADE_MS;

function playSplash() {
  // One step per timer, so each tick's re-render schedules the next.
  for (let elapsed = 0; elapsed < SPLASH_RUN_MS + 100; elapsed += SPLASH_TICK_MS) {
    act(() => {
      vi.advanceTimersByTime(SPLASH_TICK_MS);
    });
  }
}

describe('LandingPage splash', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('plays once per browser session: not again after a logout or reload', () => {
    const first = renderWithProviders(<LandingPage />);
    expect(screen.getByTestId('splash-screen')).toBeTruthy();
    expect(sessionStorage.getItem(SPLASH_PLAYED_KEY)).toBeNull();
    playSplash();
    expect(screen.queryByTestId('splash-screen')).toBeNull();
    expect(sessionStorage.getItem(SPLASH_PLAYED_KEY)).toBe('true');
    first.unmount();

    // Back on the landing page in the same session (a logout lands here): content at once.
    renderWithProviders(<LandingPage />);
    expect(screen.queryByTestId('splash-screen')).toBeNull();
    expect(screen.getAllByRole('link', { name: 'Get Started' }).length).toBeGreaterThan(0);
  });

  it('plays in a new session', () => {
    sessionStorage.removeItem(SPLASH_PLAYED_KEY);
    renderWithProviders(<LandingPage />);
    expect(screen.getByTestId('splash-screen')).toBeTruthy();
  });
});
