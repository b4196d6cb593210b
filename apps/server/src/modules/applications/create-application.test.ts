import { beforeAll, describe, expect, it, vi } from 'vitest';
import { applicationSchema } from '@latchkey/contracts';
import type * as ApiKeys from '../../lib/api-keys.ts';
import { createApiKey } from '../../lib/api-keys.ts';
import { insertApplication } from '../../../test/factories.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';

vi.mock('../../lib/api-keys.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof ApiKeys>();
  return { ...actual, createApiKey: vi.fn(actual.createApiKey) };
});

describe('createApplication when an API key collides', () => {
  let takenKey: string;

  const testApp = startTestAppForSuite();
  const owner = signInOwnerForSuite(testApp);

  beforeAll(async () => {
    takenKey = (await insertApplication(testApp.database.db, owner.accountId)).apiKey;
  });

  const create = () =>
    testApp.app.inject({
      method: 'POST',
      url: '/api/applications',
      headers: owner.headers,
      payload: { name: 'Collider' },
    });

  it('retries with a fresh key', async () => {
    vi.mocked(createApiKey).mockClear().mockReturnValueOnce(takenKey);
    const response = await create();
    expect(response.statusCode).toBe(201);
    const application = applicationSchema.parse(response.json());
    expect(application.apiKey).not.toBe(takenKey);
    expect(createApiKey).toHaveBeenCalledTimes(2);
  });

  it('gives up after three collisions with a plain 500', async () => {
    vi.mocked(createApiKey).mockClear().mockReturnValue(takenKey);
    const response = await create();
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ message: 'Internal server error', code: 'INTERNAL' });
    expect(createApiKey).toHaveBeenCalledTimes(3);
    vi.mocked(createApiKey).mockReset();
  });
});
