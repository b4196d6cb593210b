import { describe, expect, it } from 'vitest';
import { clientFileResponseSchema } from '@latchkey/contracts';
import { callClientApi, createApplicationViaApi } from '../../../test/factories.ts';
import { startTestAppForSuite } from '../../../test/suite-test-app.ts';
import { signInOwner } from '../../../test/test-app.ts';

describe('a download URL is a bearer secret: the request log never holds its token', () => {
  const lines: string[] = [];

  const testApp = startTestAppForSuite({
    logger: { level: 'info', stream: { write: (line: string) => lines.push(line) } },
  });

  it('logs the download request with its token replaced', async () => {
    const owner = await signInOwner(testApp.app);
    const application = await createApplicationViaApi(testApp.app, owner);
    const uploaded = await testApp.app.inject({
      method: 'POST',
      url: `/api/applications/${application.id}/files?name=a.bin&version=1&requiresSession=false`,
      headers: { ...owner.headers, 'content-type': 'application/octet-stream' },
      payload: Buffer.from('bytes'),
    });
    const file = uploaded.json() as { id: string };
    const answer = clientFileResponseSchema.parse(
      (
        await callClientApi(testApp.app, 'file', {
          apiKey: application.apiKey,
          body: { file_id: file.id },
        })
      ).json(),
    );
    const token = new URL(answer.url!).pathname.split('/').at(-1)!;
    lines.length = 0;
    const downloaded = await testApp.app.inject({ url: `/api/v1/downloads/${token}` });
    expect(downloaded.body).toBe('bytes');
    const tampered = await testApp.app.inject({ url: `/api/v1/downloads/${token}x` });
    expect(tampered.statusCode).toBe(403);
    const log = lines.join('');
    expect(log).toContain('/api/v1/downloads/[redacted]');
    // Neither the token nor its MAC, in any request of either answer.
    expect(log).not.toContain(token.split('.').at(-1)!);
  });
});
