import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['apps/server', 'apps/console', 'samples', 'sdks'],
    // Vitest's default is one worker fewer than the cores: one on a two-core CI machine. Our
    // test files spend much of their time waiting (PostgreSQL, the emulator, argon2 on libuv's
    // pool, the samples' compilers and windows), so two files at a time on two cores cut the
    // PostgreSQL run from 362 s to 266 s with the same results.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
