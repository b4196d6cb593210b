import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePortBlock } from './free-port-block.ts';
import { startRealServer } from './real-server.ts';

/** `npm start` outside production: LOG_FORMAT=pretty, one readable line per request. */
describe('LOG_FORMAT=pretty', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'latchkey-pretty-log-'));
  let server: ChildProcess;
  let port: number;
  let output = '';

  beforeAll(async () => {
    port = await findFreePortBlock();
    server = await startRealServer({
      port,
      dataDir,
      firebaseProjectId: 'latchkey-pretty-log-test',
      env: { LOG_FORMAT: 'pretty', LOG_LEVEL: 'info' },
      onStdout: (text) => {
        output += text;
      },
    });
  }, 90_000);

  afterAll(() => {
    server?.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('logs each request as one line a person reads, without the JSON fields', async () => {
    await fetch(`http://127.0.0.1:${port}/api/health?probe=pretty`);
    const line = await new Promise<string>((resolve, reject) => {
      const deadline = Date.now() + 10_000;
      const look = () => {
        const found = output.split('\n').find((text) => text.includes('/api/health?probe=pretty'));
        if (found) return resolve(found);
        if (Date.now() > deadline) return reject(new Error(`no request line in:\n${output}`));
        setTimeout(look, 50);
      };
      look();
    });
    expect(line).toMatch(
      /INFO.*request completed GET \/api\/health\?probe=pretty → 200 \(\d+(\.\d)? ms\)$/,
    );
    expect(line.trimStart().startsWith('{')).toBe(false);
    // One line per request: Fastify's own "incoming request" line is off.
    expect(output).not.toContain('incoming request');
  });
});
