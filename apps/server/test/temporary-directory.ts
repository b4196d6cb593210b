import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

/** A new, empty folder under the system's temporary directory, named `<prefix>XXXXXX`. */
export function makeTemporaryDirectory(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function removeDirectory(path: string): void {
  rmSync(path, { recursive: true, force: true });
}

/**
 * A folder for the running test only: removed when the test ends, pass or fail, so a suite
 * run thousands of times does not fill the machine's temporary directory.
 */
export function temporaryDirectoryForTest(prefix: string): string {
  const path = makeTemporaryDirectory(prefix);
  onTestFinished(() => removeDirectory(path));
  return path;
}
