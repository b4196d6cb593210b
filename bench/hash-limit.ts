// The ceiling for login: argon2id hashes a second at the project's parameters, as the server
// runs them: through password-hashing.ts, which runs one per core at a time (more at once
// made fewer a second here). Four are asked for at a time, as many as libuv's pool could run.
import { hashPassword } from '../apps/server/src/lib/password-hashing.ts';

const durationMs = Number(process.env.BENCH_DURATION_MS ?? 5000);
const concurrency = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
await hashPassword('warm-up');
let done = 0;
const cpuBefore = process.cpuUsage();
const deadline = Date.now() + durationMs;
const started = Date.now();
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (Date.now() < deadline) {
      await hashPassword('benchmark password');
      done += 1;
    }
  }),
);
const cpu = process.cpuUsage(cpuBefore);
process.stdout.write(
  `${JSON.stringify({
    hashesPerSecond: (done * 1000) / (Date.now() - started),
    // The process's CPU (every thread) per hash: what a login's hash costs when nothing else
    // runs beside it, to set against the server's CPU per login.
    cpuPerHashUs: (cpu.user + cpu.system) / done,
  })}\n`,
);
