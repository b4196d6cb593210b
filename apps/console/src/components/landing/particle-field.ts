import type { Theme } from '@/lib/theme.ts';

/** 60 particles at up to 60 fps, linked within 80 px, fleeing the pointer within 100 px. */
export const PARTICLE_COUNT = 60;
export const PARTICLE_FRAME_INTERVAL_MS = 1000 / 60;
export const PARTICLE_LINK_DISTANCE_PX = 80;
export const PARTICLE_REPULSION_RADIUS_PX = 100;

const MAX_SPEED = 0.6;
const REPULSION_STRENGTH = 2.4;

interface Particle {
  x: number;
  y: number;
  velocityX: number;
  velocityY: number;
  radius: number;
}

/** RGB triples matching the theme's primary accent (indigo-600 light, indigo-300 dark). */
const PARTICLE_COLORS: Record<Theme, { rgb: string; particleAlpha: number; linkAlpha: number }> = {
  light: { rgb: '79, 70, 229', particleAlpha: 0.45, linkAlpha: 0.22 },
  dark: { rgb: '165, 180, 252', particleAlpha: 0.6, linkAlpha: 0.25 },
};

/** What the field is told from the page: its size, the theme, the pointer and motion. */
export type ParticleFieldMessage =
  | { type: 'resize'; width: number; height: number; pixelRatio: number }
  | { type: 'theme'; theme: Theme }
  | { type: 'pointer'; x: number; y: number }
  | { type: 'motion'; isAnimated: boolean };

/** The 2D context of an on-page canvas, or of one handed to a worker. */
type Canvas2D = CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;

function createParticle(width: number, height: number): Particle {
  return {
    x: Math.random() * width,
    y: Math.random() * height,
    velocityX: (Math.random() - 0.5) * MAX_SPEED,
    velocityY: (Math.random() - 0.5) * MAX_SPEED,
    radius: 1 + Math.random() * 1.5,
  };
}

/**
 * The particle field: moves and draws the particles on `context`, at about 60 fps while
 * animated, once per change while still. The same code runs in a worker (the page's main
 * thread then does no per-frame work at all) or, where a canvas cannot be handed to a worker,
 * on the page. Particles persist across theme changes: a new theme recolours the field rather
 * than reshuffling it.
 */
export function createParticleField(context: Canvas2D, initialTheme: Theme) {
  const canvas = context.canvas;
  let particles: Particle[] = [];
  let colors = PARTICLE_COLORS[initialTheme];
  let width = 0;
  let height = 0;
  let isAnimated = false;
  let animationFrame = 0;
  let lastFrameTime = 0;
  const pointer = { x: Number.NEGATIVE_INFINITY, y: Number.NEGATIVE_INFINITY };

  const draw = () => {
    context.clearRect(0, 0, width, height);
    context.lineWidth = 1;
    for (let first = 0; first < particles.length; first++) {
      const a = particles[first]!;
      for (let second = first + 1; second < particles.length; second++) {
        const b = particles[second]!;
        const distance = Math.hypot(a.x - b.x, a.y - b.y);
        if (distance >= PARTICLE_LINK_DISTANCE_PX) continue;
        const alpha = colors.linkAlpha * (1 - distance / PARTICLE_LINK_DISTANCE_PX);
        context.strokeStyle = `rgba(${colors.rgb}, ${alpha.toFixed(3)})`;
        context.beginPath();
        context.moveTo(a.x, a.y);
        context.lineTo(b.x, b.y);
        context.stroke();
      }
    }
    context.fillStyle = `rgba(${colors.rgb}, ${colors.particleAlpha})`;
    context.beginPath();
    for (const particle of particles) {
      context.moveTo(particle.x + particle.radius, particle.y);
      context.arc(particle.x, particle.y, particle.radius, 0, Math.PI * 2);
    }
    context.fill();
  };

  const step = () => {
    for (const particle of particles) {
      const offsetX = particle.x - pointer.x;
      const offsetY = particle.y - pointer.y;
      const distance = Math.hypot(offsetX, offsetY);
      if (distance > 0 && distance < PARTICLE_REPULSION_RADIUS_PX) {
        const push = (1 - distance / PARTICLE_REPULSION_RADIUS_PX) * REPULSION_STRENGTH;
        particle.x += (offsetX / distance) * push;
        particle.y += (offsetY / distance) * push;
      }
      particle.x += particle.velocityX;
      particle.y += particle.velocityY;
      if (particle.x < 0 || particle.x > width) particle.velocityX *= -1;
      if (particle.y < 0 || particle.y > height) particle.velocityY *= -1;
      particle.x = Math.min(Math.max(particle.x, 0), width);
      particle.y = Math.min(Math.max(particle.y, 0), height);
    }
  };

  // requestAnimationFrame runs at the display's rate (120 Hz and up on some screens);
  // skipping early frames caps the work at about 60 fps.
  const animate = (time: number) => {
    animationFrame = requestAnimationFrame(animate);
    if (time - lastFrameTime < PARTICLE_FRAME_INTERVAL_MS - 1) return;
    lastFrameTime = time;
    step();
    draw();
  };

  const update = (message: ParticleFieldMessage) => {
    switch (message.type) {
      case 'resize': {
        width = message.width;
        height = message.height;
        canvas.width = Math.round(width * message.pixelRatio);
        canvas.height = Math.round(height * message.pixelRatio);
        context.setTransform(message.pixelRatio, 0, 0, message.pixelRatio, 0, 0);
        if (particles.length === 0 && width > 0 && height > 0) {
          particles = Array.from({ length: PARTICLE_COUNT }, () => createParticle(width, height));
        }
        break;
      }
      case 'theme':
        colors = PARTICLE_COLORS[message.theme];
        break;
      case 'pointer':
        pointer.x = message.x;
        pointer.y = message.y;
        break;
      case 'motion':
        if (message.isAnimated === isAnimated) return;
        isAnimated = message.isAnimated;
        if (isAnimated) animationFrame = requestAnimationFrame(animate);
        else cancelAnimationFrame(animationFrame);
        break;
    }
    // A still field is drawn again for what changes its picture; a moving one on its next frame.
    if (!isAnimated && message.type !== 'pointer') draw();
  };

  return {
    update,
    stop: () => cancelAnimationFrame(animationFrame),
  };
}
