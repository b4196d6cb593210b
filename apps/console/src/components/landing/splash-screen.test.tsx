import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  SPLASH_STATUS_TEXTS,
  SPLASH_TICK_MS,
  SplashScreen,
  getSplashProgress,
} from './splash-screen.tsx';

function advance(milliseconds: number) {
  act(() => {
    vi.advanceTimersByTime(milliseconds);
  });
}

function progressValue(): number {
  return Number(screen.getByRole('progressbar').getAttribute('aria-valuenow'));
}

describe('SplashScreen', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('eases out: fast at first, exactly 100% at the last tick', () => {
    expect(getSplashProgress(0)).toBe(0);
    expect(getSplashProgress(50)).toBeGreaterThan(50);
    expect(getSplashProgress(100)).toBe(100);
  });

  it('rotates the status texts in order while the bar fills', () => {
    render(<SplashScreen onFinished={() => {}} />);
    const seen: string[] = [screen.getByRole('status').textContent ?? ''];
    let lastProgress = progressValue();

    for (let tick = 0; tick < 100; tick++) {
      advance(SPLASH_TICK_MS);
      const text = screen.getByRole('status').textContent ?? '';
      if (text !== seen.at(-1)) seen.push(text);
      expect(progressValue()).toBeGreaterThanOrEqual(lastProgress);
      lastProgress = progressValue();
    }

    expect(seen).toEqual([...SPLASH_STATUS_TEXTS]);
    expect(progressValue()).toBe(100);
  });

  it('pauses 300 ms, fades for 300 ms, then finishes', () => {
    const onFinished = vi.fn();
    render(<SplashScreen onFinished={onFinished} />);

    advance(SPLASH_TICK_MS * 100);
    expect(progressValue()).toBe(100);
    expect(screen.getByTestId('splash-screen').className).not.toContain('opacity-0');

    advance(300);
    expect(screen.getByTestId('splash-screen').className).toContain('opacity-0');
    expect(onFinished).not.toHaveBeenCalled();

    advance(299);
    expect(onFinished).not.toHaveBeenCalled();
    advance(1);
    expect(onFinished).toHaveBeenCalledOnce();
  });
});
