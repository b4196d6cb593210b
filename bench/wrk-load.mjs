// Saturation through wrk (Debian's `wrk`), a load generator in C: bench-kit's `saturate` uses it
// where it is installed, since on a machine whose cores the server shares with its load every
// microsecond the generator spends is one the server and the database cannot.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSyncSafe } from './process-cpu.mjs';

export const hasWrk = () => execFileSyncSafe('sh', ['-c', 'command -v wrk']) !== '';

/**
 * Every request is built once, before the run, from one line of the bodies file; wrk's
 * `request` then hands out the next one, so each request names another user at the cost of a
 * table read.
 */
const SCRIPT = `
local requests = {}
local next_index = 0
function init(args)
  local method, path, headers = "POST", args[2], {}
  for header in string.gmatch(args[3], "[^\\n]+") do
    local name, value = header:match("^([^:]+): (.*)$")
    headers[name] = value
  end
  for body in io.lines(args[1]) do
    requests[#requests + 1] = wrk.format(method, path, headers, body)
  end
  next_index = tonumber(args[4]) % #requests
end
function request()
  next_index = next_index % #requests + 1
  return requests[next_index]
end
`;

/** wrk's "1.23k", "456.78" and "2.00M" as numbers. */
function count(text) {
  const match = /^([\d.]+)([kMG]?)$/.exec(text);
  if (!match) throw new Error(`wrk printed an unreadable count: ${text}`);
  return Number(match[1]) * { '': 1, k: 1e3, M: 1e6, G: 1e9 }[match[2]];
}

/** wrk's "635.91us", "1.20ms" and "2.01s" in milliseconds. */
function milliseconds(text) {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(text);
  if (!match) throw new Error(`wrk printed an unreadable duration: ${text}`);
  return Number(match[1]) * { us: 1e-3, ms: 1, s: 1e3, m: 6e4 }[match[2]];
}

/** POSIX `times` output's second line (the reaped children's user and system time) in µs. */
function childrenCpuUs(timesOutput) {
  const line = timesOutput.trim().split('\n').at(-1) ?? '';
  const parts = [...line.matchAll(/(\d+)m([\d.]+)s/g)];
  if (parts.length !== 2) throw new Error(`unreadable output of times: ${timesOutput}`);
  return parts.reduce(
    (sum, [, minutes, seconds]) => sum + (Number(minutes) * 60 + Number(seconds)) * 1e6,
    0,
  );
}

/**
 * One wrk run of `duration` seconds over `connections` keep-alive connections on one thread,
 * POSTing `bodies` in turn from `cursor.next`. Answers requests a second, the total answered,
 * p50 and p99 (ms), the failures (non-2xx or 3xx answers, socket errors and timeouts, apart and
 * summed) and the CPU wrk itself used (µs), read by the shell that ran it.
 */
export async function saturateWithWrk({
  port,
  path,
  headers = {},
  bodies,
  connections,
  duration,
  cursor = { next: 0 },
}) {
  const dir = mkdtempSync(join(tmpdir(), 'latchkey-wrk-'));
  try {
    const bodiesFile = join(dir, 'bodies');
    const scriptFile = join(dir, 'load.lua');
    writeFileSync(bodiesFile, `${bodies.join('\n')}\n`);
    writeFileSync(scriptFile, SCRIPT);
    const headerLines = Object.entries({ 'content-type': 'application/json', ...headers })
      .map(([name, value]) => `${name}: ${value}`)
      .join('\n');
    const args = [
      '-t1',
      '--latency',
      `-c${connections}`,
      `-d${duration}s`,
      '-s',
      scriptFile,
      `http://127.0.0.1:${port}`,
      '--',
      bodiesFile,
      path,
      headerLines,
      String(cursor.next),
    ];
    const output = await new Promise((resolve, reject) => {
      // The shell reports wrk's CPU once it has reaped it: nothing else it runs costs any.
      const child = spawn('sh', ['-c', 'wrk "$@" && echo "--times--" && times', 'sh', ...args], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let text = '';
      child.stdout.on('data', (chunk) => (text += chunk));
      child.once('error', reject);
      child.once('exit', (code) =>
        code === 0 ? resolve(text) : reject(new Error(`wrk exited with ${code}:\n${text}`)),
      );
    });
    const [report, times] = output.split('--times--');
    const total = count(/(\S+) requests in/.exec(report)?.[1] ?? 'NaN');
    const rps = count(/Requests\/sec:\s+(\S+)/.exec(report)?.[1] ?? 'NaN');
    const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(report)?.[1] ?? 0);
    const [connect = 0, read = 0, write = 0, timeouts = 0] =
      /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/
        .exec(report)
        ?.slice(1)
        .map(Number) ?? [];
    const errors = connect + read + write;
    const percentile = (label) => {
      const line = new RegExp(`^\\s+${label}%\\s+(\\S+)$`, 'm').exec(report);
      // Whole, so that the next reader sees what wrk printed instead of a bare NaN.
      if (!line) throw new Error(`wrk's report has no ${label}% latency line:\n${report}`);
      return milliseconds(line[1]);
    };
    // The requests still in flight when wrk stopped (at most one a connection) were sent too:
    // the next run starts after them, so a body that may be used once is not sent twice.
    cursor.next += total + connections;
    return {
      rps,
      total,
      p50: percentile('50'),
      p99: percentile('99'),
      non2xx,
      errors,
      timeouts,
      failures: non2xx + errors + timeouts,
      loadCpuUs: childrenCpuUs(times),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
