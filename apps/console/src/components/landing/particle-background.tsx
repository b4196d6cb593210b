import { useEffect, useRef } from 'react';
import { useTheme } from '@/hooks/use-theme.ts';
import { usePrefersReducedMotion } from '@/hooks/use-prefers-reduced-motion.ts';
import type { Theme } from '@/lib/theme.ts';
import { cn } from '@/lib/utils.ts';
import { createParticleField, type ParticleFieldMessage } from './particle-field.ts';
import type { ParticleWorkerStart } from './particle-worker.ts';

interface RunningField {
  update: (message: ParticleFieldMessage) => void;
  stop: () => void;
}

/**
 * Runs the field in a worker when the canvas can be handed to one: 60 frames a second of
 * drawing then never compete with the page's own work (the landing page's first seconds are
 * when its code runs). Elsewhere it runs on the page, as it looks the same.
 */
function startField(canvas: HTMLCanvasElement, theme: Theme): RunningField | null {
  if (typeof canvas.transferControlToOffscreen === 'function' && typeof Worker === 'function') {
    const worker = new Worker(new URL('./particle-worker.ts', import.meta.url), {
      type: 'module',
      name: 'particle-background',
    });
    const offscreen = canvas.transferControlToOffscreen();
    const start: ParticleWorkerStart = { type: 'start', canvas: offscreen, theme };
    worker.postMessage(start, [offscreen]);
    return {
      update: (message) => worker.postMessage(message),
      stop: () => worker.terminate(),
    };
  }
  const context = canvas.getContext('2d');
  return context ? createParticleField(context, theme) : null;
}

export function ParticleBackground({ className }: { className?: string }) {
  const containerRef = useRef<HTMLDivElement>(null);
  const fieldRef = useRef<RunningField | null>(null);
  const { theme } = useTheme();
  const isReducedMotion = usePrefersReducedMotion();
  // The theme the field starts with; later changes reach it as messages.
  const themeRef = useRef(theme);

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    // A canvas of its own per mount: one handed to a worker cannot be handed over again.
    const canvas = document.createElement('canvas');
    canvas.className = 'h-full w-full';
    container.append(canvas);
    const field = startField(canvas, themeRef.current);
    if (!field) return () => canvas.remove();
    fieldRef.current = field;

    const resize = () =>
      field.update({
        type: 'resize',
        width: canvas.clientWidth,
        height: canvas.clientHeight,
        pixelRatio: Math.min(window.devicePixelRatio || 1, 2),
      });
    // The canvas covers the viewport from its top left corner: client coordinates are its own.
    const handlePointerMove = (event: PointerEvent) =>
      field.update({ type: 'pointer', x: event.clientX, y: event.clientY });
    const handlePointerLeave = () =>
      field.update({
        type: 'pointer',
        x: Number.NEGATIVE_INFINITY,
        y: Number.NEGATIVE_INFINITY,
      });

    resize();
    window.addEventListener('resize', resize);
    window.addEventListener('pointermove', handlePointerMove, { passive: true });
    document.documentElement.addEventListener('pointerleave', handlePointerLeave);
    return () => {
      fieldRef.current = null;
      field.stop();
      canvas.remove();
      window.removeEventListener('resize', resize);
      window.removeEventListener('pointermove', handlePointerMove);
      document.documentElement.removeEventListener('pointerleave', handlePointerLeave);
    };
  }, []);

  useEffect(() => {
    themeRef.current = theme;
    fieldRef.current?.update({ type: 'theme', theme });
  }, [theme]);

  // With reduced motion the field is drawn once and stays still.
  useEffect(() => {
    fieldRef.current?.update({ type: 'motion', isAnimated: !isReducedMotion });
  }, [isReducedMotion]);

  return (
    <div
      ref={containerRef}
      aria-hidden="true"
      className={cn('pointer-events-none fixed inset-0', className)}
    />
  );
}
