import { useEffect, useRef } from 'react';
import { useTheme } from '@/hooks/use-theme.ts';
import { usePrefersReducedMotion } from '@/hooks/use-prefers-reduced-motion.ts';
import type { Theme } from '@/lib/theme.ts';
import { cn } from '@/lib/utils.ts';

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

function createParticle(width: number, height: number): Particle {
  return {
    x: Math.random() * width,
    y: Math.random() * height,
    velocityX: (Math.random() - 0.5) * MAX_SPEED,
    velocityY: (Math.random() - 0.5) * MAX_SPEED,
    radius: 1 + Math.random() * 1.5,
  };
}

export function ParticleBackground({ className }: { className?: string }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  // Kept across theme changes, so switching theme recolours the field instead of reshuffling it.
  const particlesRef = useRef<Particle[]>([]);
  const { theme } = useTheme();
  const isReducedMotion = usePrefersReducedMotion();

  useEffect(() => {
    const canvas = canvasRef.current;
    const context = canvas?.getContext('2d');
    if (!canvas || !context) return;

    const colors = PARTICLE_COLORS[theme];
    const pointer = { x: Number.NEGATIVE_INFINITY, y: Number.NEGATIVE_INFINITY };
    let width = 0;
    let height = 0;
    let animationFrame = 0;
    let lastFrameTime = 0;

    const draw = () => {
      context.clearRect(0, 0, width, height);
      const particles = particlesRef.current;
      for (let first = 0; first < particles.length; first++) {
        const a = particles[first]!;
        for (let second = first + 1; second < particles.length; second++) {
          const b = particles[second]!;
          const distance = Math.hypot(a.x - b.x, a.y - b.y);
          if (distance >= PARTICLE_LINK_DISTANCE_PX) continue;
          const alpha = colors.linkAlpha * (1 - distance / PARTICLE_LINK_DISTANCE_PX);
          context.strokeStyle = `rgba(${colors.rgb}, ${alpha.toFixed(3)})`;
          context.lineWidth = 1;
          context.beginPath();
          context.moveTo(a.x, a.y);
          context.lineTo(b.x, b.y);
          context.stroke();
        }
      }
      context.fillStyle = `rgba(${colors.rgb}, ${colors.particleAlpha})`;
      for (const particle of particles) {
        context.beginPath();
        context.arc(particle.x, particle.y, particle.radius, 0, Math.PI * 2);
        context.fill();
      }
    };

    const step = () => {
      for (const particle of particlesRef.current) {
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

    const resize = () => {
      const pixelRatio = Math.min(window.devicePixelRatio || 1, 2);
      width = canvas.clientWidth;
      height = canvas.clientHeight;
      canvas.width = Math.round(width * pixelRatio);
      canvas.height = Math.round(height * pixelRatio);
      context.setTransform(pixelRatio, 0, 0, pixelRatio, 0, 0);
      if (particlesRef.current.length === 0) {
        particlesRef.current = Array.from({ length: PARTICLE_COUNT }, () =>
          createParticle(width, height),
        );
      }
      draw();
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

    const handlePointerMove = (event: PointerEvent) => {
      const bounds = canvas.getBoundingClientRect();
      pointer.x = event.clientX - bounds.left;
      pointer.y = event.clientY - bounds.top;
    };
    const handlePointerLeave = () => {
      pointer.x = Number.NEGATIVE_INFINITY;
      pointer.y = Number.NEGATIVE_INFINITY;
    };

    resize();
    window.addEventListener('resize', resize);
    // With reduced motion the field is drawn once and stays still.
    if (!isReducedMotion) {
      window.addEventListener('pointermove', handlePointerMove);
      document.documentElement.addEventListener('pointerleave', handlePointerLeave);
      animationFrame = requestAnimationFrame(animate);
    }

    return () => {
      cancelAnimationFrame(animationFrame);
      window.removeEventListener('resize', resize);
      window.removeEventListener('pointermove', handlePointerMove);
      document.documentElement.removeEventListener('pointerleave', handlePointerLeave);
    };
  }, [theme, isReducedMotion]);

  return (
    <canvas
      ref={canvasRef}
      aria-hidden="true"
      className={cn('pointer-events-none fixed inset-0 h-full w-full', className)}
    />
  );
}
