// Latency at a fixed request rate, paced evenly: request i is started at i / rate seconds,
// whatever happened to the ones before it (an open loop), over a pool of keep-alive
// connections. A request that finds every connection busy waits for one, and that wait
// counts in its latency: a stalled server shows up in the percentiles instead of slowing
// the generator down.
//
// Why not autocannon's `overallRate`: it lets each connection send its whole second's quota
// as fast as it can at the start of every second and then idle, so "1,000 requests a second"
// becomes a burst at saturation followed by silence, and its percentiles measure the burst.
import http from 'node:http';
import { performance } from 'node:perf_hooks';

/** Percentile (0–100) of sorted values, nearest rank. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

/**
 * Sends `rate` POST requests a second for `durationSeconds` to `path`, rotating `bodies`,
 * and resolves with the achieved rate and the latency percentiles in milliseconds.
 */
export async function loadAtFixedRate({
  port,
  path,
  headers = {},
  bodies,
  rate,
  durationSeconds,
  connections,
}) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const total = Math.round(rate * durationSeconds);
  const latencies = [];
  let non2xx = 0;
  let errors = 0;
  let started = 0;
  let finished = 0;
  let onAllFinished;
  const allFinished = new Promise((resolve) => (onAllFinished = resolve));
  const settle = () => {
    finished += 1;
    if (finished === total) onAllFinished();
  };

  const send = (index) => {
    const body = bodies[index % bodies.length];
    const begunAt = performance.now();
    const request = http.request(
      {
        agent,
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          ...headers,
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => {
          latencies.push(performance.now() - begunAt);
          if (response.statusCode < 200 || response.statusCode > 299) non2xx += 1;
          settle();
        });
      },
    );
    request.on('error', () => {
      errors += 1;
      settle();
    });
    request.end(body);
  };

  const beganAt = performance.now();
  await new Promise((resolve) => {
    // Timers fire about once a millisecond; each tick starts every request now due.
    const tick = () => {
      const due = Math.min(total, Math.floor(((performance.now() - beganAt) * rate) / 1000) + 1);
      while (started < due) send(started++);
      if (started < total) setTimeout(tick, 1);
      else resolve();
    };
    tick();
  });
  await allFinished;
  const elapsedSeconds = (performance.now() - beganAt) / 1000;
  agent.destroy();

  latencies.sort((a, b) => a - b);
  return {
    rps: total / elapsedSeconds,
    total,
    non2xx,
    errors,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.at(-1) ?? NaN,
  };
}
