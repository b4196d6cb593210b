import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  applicationSchema,
  errorBodySchema,
  sampleLanguageCatalogue,
  sampleLanguages,
  samplePlaceholders,
  sampleSchema,
  type Application,
} from '@latchkey/contracts';
import { ownerAccounts } from '../../db/schema/index.ts';
import { createApplicationViaApi } from '../../../test/factories.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';
import { ownerRequests } from '../../../test/owner-requests.ts';
import { toSampleLiteral } from './sample-literal.ts';

describe('owner API: client samples', () => {
  let application: Application;

  const testApp = startTestAppForSuite();
  const owner = signInOwnerForSuite(testApp);
  const otherOwner = signInOwnerForSuite(testApp);

  beforeAll(async () => {
    // A vendor allowed to edit code: what stops them below is the scoping of the data.
    await testApp.database.db
      .update(ownerAccounts)
      .set({ permissions: ['manage_applications', 'edit_code'] })
      .where(eq(ownerAccounts.id, otherOwner.accountId));
    const created = await createApplicationViaApi(testApp.app, owner, { name: 'Sampled' });
    const updated = await request('PUT', `/api/applications/${created.id}`, {
      version: '2.1.0 "beta"\\next',
    });
    application = applicationSchema.parse(updated.json());
  });

  const request = ownerRequests(testApp, owner);

  it.each(sampleLanguages)(
    'renders the %s sample with the application key, base URL, version and public key',
    async (language) => {
      // Without PUBLIC_ORIGIN, the base URL is the origin the request reached.
      const response = await testApp.app.inject({
        method: 'GET',
        url: `/api/applications/${application.id}/samples/${language}`,
        headers: { ...owner.headers, host: 'auth.vendor.example:8443' },
      });
      expect(response.statusCode, response.body).toBe(200);
      const sample = sampleSchema.parse(response.json());
      expect(sample).toMatchObject({
        language,
        filename: sampleLanguageCatalogue[language].filename,
        baseUrl: 'http://auth.vendor.example:8443',
        isCustomized: false,
        updatedAt: null,
      });
      expect(sample.code).toContain(`"${application.apiKey}"`);
      expect(sample.code).toContain('"http://auth.vendor.example:8443"');
      expect(sample.code).toContain(`"${application.signingPublicKey}"`);
      // The owner's version text is one escaped literal: its quote cannot end the string.
      expect(sample.code).toContain('"2.1.0 \\"beta\\"\\\\next"');
      for (const placeholder of Object.values(samplePlaceholders)) {
        expect(sample.code).not.toContain(placeholder);
      }
    },
  );

  it('serves the bare template, placeholders unfilled, with no application', async () => {
    const response = await request('GET', '/api/samples/python');
    expect(response.statusCode, response.body).toBe(200);
    const sample = sampleSchema.parse(response.json());
    expect(sample.baseUrl).toBeNull();
    for (const placeholder of Object.values(samplePlaceholders)) {
      expect(sample.code).toContain(placeholder);
    }
  });

  it('keeps an edited sample per application and language, and resets it', async () => {
    const url = `/api/applications/${application.id}/samples/nodejs`;
    const saved = await request('PUT', url, { code: 'console.log("edited");\n' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(sampleSchema.parse(saved.json())).toMatchObject({
      code: 'console.log("edited");\n',
      isCustomized: true,
      // The page still shows where the program should point, edited code or not.
      baseUrl: expect.stringMatching(/^http:\/\//) as unknown,
    });

    const served = sampleSchema.parse((await request('GET', url)).json());
    expect(served.code).toBe('console.log("edited");\n');
    expect(served.updatedAt).not.toBeNull();
    // Other languages of the same application are untouched.
    const python = sampleSchema.parse(
      (await request('GET', `/api/applications/${application.id}/samples/python`)).json(),
    );
    expect(python.isCustomized).toBe(false);

    const reset = await request('DELETE', url);
    expect(reset.statusCode, reset.body).toBe(200);
    const defaultSample = sampleSchema.parse(reset.json());
    expect(defaultSample.isCustomized).toBe(false);
    expect(defaultSample.code).toContain(`"${application.apiKey}"`);
    expect(sampleSchema.parse((await request('GET', url)).json()).isCustomized).toBe(false);
  });

  it('saves every sample as served, however large (the C# one is beyond the default body limit)', async () => {
    for (const language of ['csharp', 'python', 'nodejs', 'cpp'] as const) {
      const url = `/api/applications/${application.id}/samples/${language}`;
      const served = sampleSchema.parse((await request('GET', url)).json());
      const saved = await request('PUT', url, { code: `${served.code}// edited\n` });
      expect(saved.statusCode, `${language}: ${saved.body.slice(0, 200)}`).toBe(200);
      await request('DELETE', url);
    }
    // A sample as large as a valid one may be, escaped as JSON's longest form, still fits.
    const largest = await request('PUT', `/api/applications/${application.id}/samples/cpp`, {
      code: '\u0001'.repeat(200_000),
    });
    expect(largest.statusCode, largest.body.slice(0, 200)).toBe(200);
    await request('DELETE', `/api/applications/${application.id}/samples/cpp`);
  });

  it("answers 404 for another owner's application, and stores nothing for them", async () => {
    const url = `/api/applications/${application.id}/samples/cpp`;
    const read = await request('GET', url, undefined, otherOwner);
    expect(read.statusCode).toBe(404);
    expect(errorBodySchema.parse(read.json()).message).toBe('Application not found');
    const write = await request('PUT', url, { code: 'planted' }, otherOwner);
    expect(write.statusCode).toBe(404);
    expect(sampleSchema.parse((await request('GET', url)).json()).isCustomized).toBe(false);
  });

  it('refuses an unknown language and a body without code', async () => {
    const unknown = await request('GET', `/api/applications/${application.id}/samples/rust`);
    expect(unknown.statusCode).toBe(400);
    expect(errorBodySchema.parse(unknown.json()).message).toContain('Unknown language: rust');
    const noCode = await request('PUT', `/api/applications/${application.id}/samples/cpp`, {});
    expect(noCode.statusCode).toBe(400);
  });
});

describe('toSampleLiteral', () => {
  it('writes a literal that reads back as the same text (JSON string syntax, shared by all four)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (value) => {
        expect(JSON.parse(toSampleLiteral(value))).toBe(value);
      }),
      { seed: 20_261_123, numRuns: 500 },
    );
    expect(toSampleLiteral('a"b\\c\n\u0001')).toBe('"a\\"b\\\\c\\n\\u0001"');
  });
});
