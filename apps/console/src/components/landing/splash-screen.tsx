import { KeyRound } from 'lucide-react';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { BRAND_NAME } from '@/components/layout/brand-logo.tsx';
import { cn } from '@/lib/utils.ts';

/** The splash: 100 ticks of 28 ms, then a 300 ms pause and a 300 ms fade. */
export const SPLASH_TICK_MS = 28;
export const SPLASH_TICK_COUNT = 100;
export const SPLASH_PAUSE_MS = 300;
export const SPLASH_FADE_MS = 300;

export const SPLASH_STATUS_TEXTS = [
  'Initializing',
  'Loading Security Protocols',
  'Establishing Secure Connection',
  'Authenticating Systems',
  'Finalizing Setup',
] as const;

/** Fast at first, settling gently at 100%. */
export function easeOutCubic(fraction: number): number {
  return 1 - (1 - fraction) ** 3;
}

export function getSplashProgress(tick: number): number {
  return easeOutCubic(Math.min(tick, SPLASH_TICK_COUNT) / SPLASH_TICK_COUNT) * 100;
}

/** The status texts share the run evenly by elapsed time, so each stays up ~560 ms. */
export function getSplashStatusText(tick: number): string {
  const index = Math.floor((tick / SPLASH_TICK_COUNT) * SPLASH_STATUS_TEXTS.length);
  return SPLASH_STATUS_TEXTS[Math.min(index, SPLASH_STATUS_TEXTS.length - 1)] ?? '';
}

/**
 * The bar, its value and the percentage are written straight to the page on each tick rather
 * than rendered: a hundred renders in under three seconds, on a phone, are main-thread work
 * the page's first seconds cannot spare. React renders only when the status text changes,
 * and at the end.
 */
function paintProgress(bar: HTMLElement | null, percent: HTMLElement | null, tick: number) {
  const progress = getSplashProgress(tick);
  bar?.setAttribute('aria-valuenow', String(Math.round(progress)));
  const indicator = bar?.firstElementChild;
  if (indicator instanceof HTMLElement) indicator.style.transform = `scaleX(${progress / 100})`;
  if (percent) percent.textContent = `${Math.round(progress)}%`;
}

export function SplashScreen({ onFinished }: { onFinished: () => void }) {
  const [statusText, setStatusText] = useState(() => getSplashStatusText(0));
  const [isComplete, setIsComplete] = useState(false);
  const [isFading, setIsFading] = useState(false);
  const barRef = useRef<HTMLDivElement>(null);
  const percentRef = useRef<HTMLParagraphElement>(null);
  const onFinishedRef = useRef(onFinished);
  useEffect(() => {
    onFinishedRef.current = onFinished;
  }, [onFinished]);

  // One interval rather than a timeout per tick, so ticks keep a steady 28 ms cadence.
  useLayoutEffect(() => {
    let tick = 0;
    paintProgress(barRef.current, percentRef.current, tick);
    const interval = setInterval(() => {
      tick = Math.min(tick + 1, SPLASH_TICK_COUNT);
      paintProgress(barRef.current, percentRef.current, tick);
      setStatusText(getSplashStatusText(tick));
      if (tick >= SPLASH_TICK_COUNT) {
        clearInterval(interval);
        setIsComplete(true);
      }
    }, SPLASH_TICK_MS);
    return () => clearInterval(interval);
  }, []);

  useEffect(() => {
    if (!isComplete) return;
    const timer = isFading
      ? setTimeout(() => onFinishedRef.current(), SPLASH_FADE_MS)
      : setTimeout(() => setIsFading(true), SPLASH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [isComplete, isFading]);

  return (
    <div
      data-testid="splash-screen"
      className={cn(
        'fixed inset-0 z-50 flex items-center justify-center bg-background transition-opacity duration-300 ease-out',
        isFading && 'opacity-0',
      )}
    >
      <div aria-hidden="true" className="absolute inset-0 overflow-hidden">
        <div className="absolute top-1/2 left-1/2 size-[36rem] -translate-x-1/2 -translate-y-1/2 rounded-full bg-primary/10 blur-3xl" />
      </div>
      <div className="relative flex w-full max-w-sm flex-col items-center gap-8 px-6">
        <div className="flex flex-col items-center gap-4">
          <span className="flex size-16 items-center justify-center rounded-2xl bg-primary text-primary-foreground shadow-lg ring-8 shadow-primary/30 ring-primary/10">
            <KeyRound className="size-8" aria-hidden="true" />
          </span>
          <p className="text-2xl font-semibold tracking-tight">{BRAND_NAME}</p>
        </div>
        <div className="flex w-full flex-col gap-3">
          <div
            ref={barRef}
            role="progressbar"
            aria-label="Loading"
            aria-valuemin={0}
            aria-valuemax={100}
            className="relative h-1.5 w-full overflow-hidden rounded-full bg-primary/15"
          >
            <div className="h-full w-full origin-left rounded-full bg-primary" />
          </div>
          <div className="flex items-center justify-between text-sm">
            <p role="status" className="font-medium text-muted-foreground">
              {statusText}
            </p>
            <p
              ref={percentRef}
              aria-hidden="true"
              className="font-mono text-xs text-muted-foreground tabular-nums"
            />
          </div>
        </div>
      </div>
    </div>
  );
}
