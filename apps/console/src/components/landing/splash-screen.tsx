import { KeyRound } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { BRAND_NAME } from '@/components/layout/brand-logo.tsx';
import { Progress } from '@/components/ui/progress.tsx';
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

export function SplashScreen({ onFinished }: { onFinished: () => void }) {
  const [tick, setTick] = useState(0);
  const [isFading, setIsFading] = useState(false);
  const isComplete = tick >= SPLASH_TICK_COUNT;
  const onFinishedRef = useRef(onFinished);
  useEffect(() => {
    onFinishedRef.current = onFinished;
  }, [onFinished]);

  // One interval rather than a timeout per render, so ticks keep a steady 28 ms cadence.
  useEffect(() => {
    if (isComplete) return;
    const interval = setInterval(() => {
      setTick((current) => Math.min(current + 1, SPLASH_TICK_COUNT));
    }, SPLASH_TICK_MS);
    return () => clearInterval(interval);
  }, [isComplete]);

  useEffect(() => {
    if (!isComplete) return;
    const timer = isFading
      ? setTimeout(() => onFinishedRef.current(), SPLASH_FADE_MS)
      : setTimeout(() => setIsFading(true), SPLASH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [isComplete, isFading]);

  const progress = getSplashProgress(tick);
  const statusText = getSplashStatusText(tick);

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
          <Progress value={progress} aria-label="Loading" className="h-1.5" />
          <div className="flex items-center justify-between text-sm">
            <p role="status" className="font-medium text-muted-foreground">
              {statusText}
            </p>
            <p aria-hidden="true" className="font-mono text-xs text-muted-foreground tabular-nums">
              {Math.round(progress)}%
            </p>
          </div>
        </div>
      </div>
    </div>
  );
}
