import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/**
 * The one channel between a language's conformance driver and the shared runner: a request is
 * one JSON line on the driver's stdin (`{"id", "op", ...}`), its answer one JSON line on stdout
 * (`{"id", "result"}`, or `{"id", "failure"}` with the driver's own account of what broke).
 */
export interface ConformanceDriver {
  /** Sends one request and resolves with the driver's result. */
  send<Result = unknown>(op: string, request?: Record<string, unknown>): Promise<Result>;
  /** Whatever the driver wrote that was not an answer (stderr included): an SDK never prints. */
  strayOutput(): string;
}

export interface DriverProcess extends ConformanceDriver {
  /** Ends the driver by closing its stdin, and resolves when it has exited. */
  close(): Promise<void>;
}

/**
 * Starts a long-lived driver process. Any line that is not an answer to a pending request, and
 * everything on stderr, is kept as stray output, which fails the run: the library under test
 * must never write to the console.
 */
export function startDriverProcess(
  command: string,
  args: string[],
  options: { cwd: string; label: string; env?: NodeJS.ProcessEnv },
): DriverProcess {
  const child = spawn(command, args, {
    cwd: options.cwd,
    stdio: ['pipe', 'pipe', 'pipe'],
    ...(options.env ? { env: options.env } : {}),
  });
  const pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void }
  >();
  const strayOutput: string[] = [];
  let nextId = 0;
  let exitReason: string | null = null;
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => strayOutput.push(text));
  createInterface({ input: child.stdout }).on('line', (line) => {
    let answer: { id?: number; result?: unknown; failure?: string };
    try {
      answer = JSON.parse(line) as typeof answer;
    } catch {
      strayOutput.push(line);
      return;
    }
    const waiting = answer.id === undefined ? undefined : pending.get(answer.id);
    if (!waiting) {
      strayOutput.push(line);
      return;
    }
    pending.delete(answer.id!);
    if (answer.failure !== undefined) {
      waiting.reject(new Error(`${options.label}:\n${answer.failure}`));
    } else waiting.resolve(answer.result);
  });
  child.on('error', (error) => {
    exitReason = `${options.label} could not start: ${error.message}`;
  });
  child.on('exit', (code, signal) => {
    exitReason = `${options.label} exited (${code ?? signal}): ${strayOutput.join('')}`;
    for (const waiting of pending.values()) waiting.reject(new Error(exitReason));
    pending.clear();
  });
  return {
    send<Result = unknown>(op: string, request: Record<string, unknown> = {}): Promise<Result> {
      if (exitReason) return Promise.reject(new Error(exitReason));
      nextId += 1;
      const id = nextId;
      return new Promise<Result>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
        child.stdin.write(`${JSON.stringify({ ...request, id, op })}\n`);
      });
    },
    strayOutput: () => strayOutput.join(''),
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) {
          resolve();
          return;
        }
        child.once('exit', () => resolve());
        child.stdin.end();
      }),
  };
}
