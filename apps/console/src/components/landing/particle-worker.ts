import type { Theme } from '@/lib/theme.ts';
import { createParticleField, type ParticleFieldMessage } from './particle-field.ts';

/** The first message: the canvas handed over by the page, and the field's starting state. */
export interface ParticleWorkerStart {
  type: 'start';
  canvas: OffscreenCanvas;
  theme: Theme;
}

// Workers of some browsers have no requestAnimationFrame: a timer at the frame rate stands in.
if (typeof globalThis.requestAnimationFrame !== 'function') {
  globalThis.requestAnimationFrame = (callback) =>
    setTimeout(() => callback(performance.now()), 1000 / 60) as unknown as number;
  globalThis.cancelAnimationFrame = (handle) => clearTimeout(handle);
}

let field: ReturnType<typeof createParticleField> | null = null;

globalThis.addEventListener('message', (event: MessageEvent) => {
  const message = event.data as ParticleWorkerStart | ParticleFieldMessage;
  if (message.type === 'start') {
    const context = message.canvas.getContext('2d');
    if (context) field = createParticleField(context, message.theme);
    return;
  }
  field?.update(message);
});
