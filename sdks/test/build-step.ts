import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { DriverProcess } from './driver-process.ts';

/** What every language's installer shares: its build steps and its folder outside the repository. */

const execFileAsync = promisify(execFile);

/**
 * Runs one build step without blocking the event loop (the live server starts meanwhile) and
 * answers its standard output; a failure carries the step's own output.
 */
export async function runBuildStep(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<string> {
  try {
    const { stdout } = await execFileAsync(command, args, {
      cwd: options.cwd,
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
      ...(options.timeoutMs ? { timeout: options.timeoutMs } : {}),
      ...(options.env ? { env: options.env } : {}),
    });
    return stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed:\n${stdout}\n${stderr}`);
  }
}

/**
 * Builds and installs a package in a fresh folder under the system's temporary directory, the
 * way a vendor would, outside the repository: `install` does the work there and starts the
 * driver. `remove` stops the driver and deletes the folder; a failed install deletes it at once.
 */
export async function installInTemporaryFolder<Installed extends { driver: DriverProcess }>(
  prefix: string,
  install: (workDir: string) => Promise<Installed>,
): Promise<Installed & { workDir: string; remove(): Promise<void> }> {
  const workDir = mkdtempSync(join(tmpdir(), prefix));
  try {
    const installed = await install(workDir);
    return {
      ...installed,
      workDir,
      async remove() {
        await installed.driver.close();
        rmSync(workDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(workDir, { recursive: true, force: true });
    throw error;
  }
}
