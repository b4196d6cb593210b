import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  applicationSchema,
  keyauthRequestTypes,
  keyauthUnsupportedTypes,
  type Application,
} from '@latchkey/contracts';
import { createApplicationViaApi, insertAppUserWithPassword } from '../../../test/factories.ts';
import { createKeyauthTestClient } from '../../../test/keyauth-test-client.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';
import { ownerRequests } from '../../../test/owner-requests.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_129);
const RUNS = Number(process.env.FUZZ_RUNS_PER_ROUTE ?? 160);
const FIELD_NAMES = [
  'type',
  'name',
  'ownerid',
  'sessionid',
  'username',
  'pass',
  'key',
  'hwid',
  'email',
  'ver',
  'enckey',
  'var',
  'data',
  'varid',
  'fileid',
  'message',
  'pcuser',
  'reason',
  'newUsername',
];

/**
 * Generated form bodies and query strings for both versions, with a live session and the real
 * application's owner id and name mixed in so the handlers are reached: no input may cause a
 * 5xx, and every answer is KeyAuth's: the bare `KeyAuth_Invalid`, or ASCII JSON with a boolean
 * `success` and a string `message`.
 */
describe('fuzzing the KeyAuth-compatible API', () => {
  const testApp = startTestAppForSuite({
    env: { CLIENT_API_IP_LIMIT_PER_MINUTE: '1000000', LOGIN_FAILURE_LIMIT: '1000' },
  });
  const owner = signInOwnerForSuite(testApp);
  let application: Application;
  let sessionId = '';

  beforeAll(async () => {
    const created = await createApplicationViaApi(testApp.app, owner);
    const response = await ownerRequests(testApp, owner)('PUT', `/api/applications/${created.id}`, {
      keyauthCompatibility: true,
    });
    application = applicationSchema.parse(response.json());
    const user = await insertAppUserWithPassword(testApp.database.db, application.id, 'pw-fuzz-1');
    const client = createKeyauthTestClient({
      app: testApp.app,
      version: '1.2',
      name: application.keyauthName!,
      ownerId: application.keyauthOwnerId!,
      secret: application.keyauthSecret!,
      nowSeconds: () => Math.floor(Date.now() / 1000),
    });
    await client.init();
    await client.request('login', { username: user.username, pass: 'pw-fuzz-1', hwid: '' });
    sessionId = client.sessionId;
  });

  const text = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.constantFrom('', ' ', '\u0000', '\ud800', 'a'.repeat(3000), '%', '&=&'),
  );
  const fields = fc.record(
    {
      type: fc.oneof(fc.constantFrom(...keyauthRequestTypes, ...keyauthUnsupportedTypes), text),
      name: fc.oneof(fc.constant('__name__'), text),
      ownerid: fc.oneof(fc.constant('__owner__'), text),
      sessionid: fc.oneof(fc.constant('__session__'), text),
      extra: fc.dictionary(fc.constantFrom(...FIELD_NAMES), text, { maxKeys: 6 }),
    },
    { requiredKeys: ['type'] },
  );

  for (const version of ['1.2', '1.3'] as const) {
    it(
      `answers any form body or query to /api/${version}/ without a 5xx, in KeyAuth's shape`,
      { timeout: 180_000 },
      async () => {
        await fc.assert(
          fc.asyncProperty(
            fields,
            fc.boolean(),
            fc.boolean(),
            async (generated, asQuery, rawBody) => {
              const values: Record<string, string> = { ...generated.extra };
              for (const key of ['type', 'name', 'ownerid', 'sessionid'] as const) {
                const value = generated[key];
                if (value === undefined) continue;
                values[key] =
                  value === '__name__'
                    ? application.keyauthName!
                    : value === '__owner__'
                      ? application.keyauthOwnerId!
                      : value === '__session__'
                        ? sessionId
                        : value;
              }
              const form = new URLSearchParams(values).toString();
              const response = await testApp.app.inject({
                method: asQuery ? 'GET' : 'POST',
                url: `/api/${version}/${asQuery ? `?${form}` : ''}`,
                ...(asQuery
                  ? {}
                  : {
                      headers: {
                        'content-type': rawBody
                          ? 'text/plain'
                          : 'application/x-www-form-urlencoded',
                      },
                      payload: form,
                    }),
              });
              expect(response.statusCode, response.body).toBeLessThan(500);
              if (response.body === 'KeyAuth_Invalid') return;
              expect([...response.rawPayload].every((byte) => byte < 0x80)).toBe(true);
              const answer = JSON.parse(response.body) as Record<string, unknown>;
              expect(typeof answer.success).toBe('boolean');
              expect(typeof answer.message).toBe('string');
            },
          ),
          { seed: SEED, numRuns: RUNS, endOnFailure: true },
        );
      },
    );
  }
});
