import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MANAGEMENT_API_PREFIX } from '@latchkey/contracts';
import {
  createApiTokenViaApi,
  createApplicationViaApi,
  createPlanViaApi,
  generateLicensesViaApi,
} from '../../test/factories.ts';
import { createTestApp, signInOwner, type TestApp } from '../../test/test-app.ts';
import { loggableUrl } from './request-log-serializer.ts';

describe('loggableUrl: bearer secrets cut from a logged URL, the rest kept', () => {
  it('redacts the values of query parameters named like secrets, whatever their case or spelling', () => {
    expect(loggableUrl('/api/x?token=abc&page=2')).toBe('/api/x?token=[redacted]&page=2');
    expect(
      loggableUrl(
        '/api/x?api_key=k1&licenseKey=k2&key=k3&secret=s&password=p&pass=p2&signature=sig&code=123456&sessionid=s2',
      ),
    ).toBe(
      '/api/x?api_key=[redacted]&licenseKey=[redacted]&key=[redacted]&secret=[redacted]&password=[redacted]&pass=[redacted]&signature=[redacted]&code=[redacted]&sessionid=[redacted]',
    );
    expect(loggableUrl('/api/x?ACCESS_TOKEN=a&Authorization=b&sig=c')).toBe(
      '/api/x?ACCESS_TOKEN=[redacted]&Authorization=[redacted]&sig=[redacted]',
    );
    // Percent-encoded names are read as the query parser reads them.
    expect(loggableUrl('/api/x?%74oken=abc&to%6Ben=def')).toBe(
      '/api/x?%74oken=[redacted]&to%6Ben=[redacted]',
    );
    // A repeated parameter is redacted each time, an empty one too.
    expect(loggableUrl('/api/x?token=a&token=b&token=')).toBe(
      '/api/x?token=[redacted]&token=[redacted]&token=[redacted]',
    );
  });

  it('keeps every other parameter as it came, so a log line still says what was asked', () => {
    const asked =
      '/api/applications/7/users?page=3&pageSize=50&search=alice%40example.com&status=used';
    expect(loggableUrl(asked)).toBe(asked);
    expect(
      loggableUrl('/api/applications/7/files?name=a.bin&version=1&requiresSession=false'),
    ).toBe('/api/applications/7/files?name=a.bin&version=1&requiresSession=false');
    expect(loggableUrl('/api/health')).toBe('/api/health');
    expect(loggableUrl('/api/x?flag&=v&')).toBe('/api/x?flag&=v&');
    // A malformed escape in a name is not a reason to drop the line.
    expect(loggableUrl('/api/x?%E0%A4%A=1&%zz=2')).toBe('/api/x?%E0%A4%A=1&%zz=2');
  });

  it("redacts a licence list's search (it may be a whole key), on the owner and management APIs", () => {
    const key = 'ABCDE-FGHIJ-KLMNO-PQRST';
    for (const path of [
      '/api/applications/7/licenses',
      '/api/applications/7/licenses/export.csv',
      `${MANAGEMENT_API_PREFIX}/applications/7/licenses`,
      `${MANAGEMENT_API_PREFIX}/applications/7/licenses/export.csv`,
    ]) {
      expect(loggableUrl(`${path}?search=${key}&status=unused`)).toBe(
        `${path}?search=[redacted]&status=unused`,
      );
    }
  });

  it('cuts a download token from the path, with or without a query', () => {
    expect(loggableUrl('/api/v1/downloads/abc.def')).toBe('/api/v1/downloads/[redacted]');
    expect(loggableUrl('/api/v1/downloads/abc.def?token=x&part=1')).toBe(
      '/api/v1/downloads/[redacted]?token=[redacted]&part=1',
    );
  });
});

describe('the request log holds no licence key searched for, nor a token in a query string', () => {
  const lines: string[] = [];
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp({
      logger: { level: 'info', stream: { write: (line: string) => lines.push(line) } },
    });
  });
  afterAll(() => testApp.close());

  it('logs the searches and calls with those values replaced and the rest kept', async () => {
    const owner = await signInOwner(testApp.app);
    const application = await createApplicationViaApi(testApp.app, owner);
    const plan = await createPlanViaApi(testApp.app, owner, application.id);
    const [generated] = await generateLicensesViaApi(testApp.app, owner, application.id, {
      planId: plan.id,
    });
    const apiToken = await createApiTokenViaApi(testApp.app, owner);
    lines.length = 0;

    const search = `search=${encodeURIComponent(generated!.key)}&status=unused`;
    const owned = `/api/applications/${application.id}/licenses`;
    const managed = `${MANAGEMENT_API_PREFIX}/applications/${application.id}/licenses`;
    const bearer = { authorization: `Bearer ${apiToken.token}` };
    const answers = await Promise.all([
      testApp.app.inject({ url: `${owned}?${search}`, headers: owner.headers }),
      testApp.app.inject({ url: `${owned}/export.csv?${search}`, headers: owner.headers }),
      testApp.app.inject({ url: `${managed}?${search}`, headers: bearer }),
      testApp.app.inject({ url: `/api/applications?token=${apiToken.token}&page=1` }),
      testApp.app.inject({ url: `/api/nowhere?api_key=${apiToken.token}` }),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 401, 404]);
    // The search found the key (by its digest): what is kept out of the log was a real key.
    expect(answers[0]!.json()).toHaveLength(1);

    const log = lines.join('');
    expect(log).toContain(`"url":"${owned}?search=[redacted]&status=unused"`);
    expect(log).toContain(`"url":"${owned}/export.csv?search=[redacted]&status=unused"`);
    expect(log).toContain(`"url":"${managed}?search=[redacted]&status=unused"`);
    expect(log).toContain('"url":"/api/applications?token=[redacted]&page=1"');
    expect(log).toContain('"url":"/api/nowhere?api_key=[redacted]"');
    expect(log).not.toContain(generated!.key);
    expect(log).not.toContain(encodeURIComponent(generated!.key));
    expect(log).not.toContain(apiToken.token);
  });
});
