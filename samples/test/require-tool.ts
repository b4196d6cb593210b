import { spawnSync } from 'node:child_process';

/**
 * Whether a compiler or program the sample tests need is installed. On a developer machine a
 * missing one skips that language's tests (with the apt package to install); with CI=true it
 * is a failure, because CI must prove every sample.
 */
export function hasTool(command: string, versionArgs: string[], aptPackages: string): boolean {
  const result = spawnSync(command, versionArgs, { stdio: 'ignore' });
  const isInstalled = !result.error && result.status === 0;
  if (!isInstalled) {
    const message = `${command} is not installed (apt-get install ${aptPackages})`;
    if (process.env.CI === 'true') throw new Error(`${message}: CI cannot skip the sample tests`);
    console.warn(`${message}: skipping`);
  }
  return isInstalled;
}
