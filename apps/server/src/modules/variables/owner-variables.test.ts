import { describe, expect, it } from 'vitest';
import {
  USER_VARIABLE_LIMIT_REACHED,
  VARIABLE_NAME_INVALID,
  VARIABLE_NAME_TAKEN,
  VARIABLE_NOT_FOUND,
  applicationVariableListSchema,
  applicationVariableSchema,
  deletedResponseSchema,
  errorBodySchema,
  userVariableListSchema,
  userVariableSchema,
  variableLimits,
  type ApplicationVariable,
} from '@latchkey/contracts';
import { appUserVariables } from '../../db/schema/index.ts';
import { createManualClock } from '../../lib/clock.ts';
import { createAppUserViaApi, createApplicationViaApi } from '../../../test/factories.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';
import { ownerRequests } from '../../../test/owner-requests.ts';
import { type SignedInOwner } from '../../../test/test-app.ts';

describe('owner API: remote variables', () => {
  const clock = createManualClock(new Date('2026-07-01T09:00:00Z'));

  const testApp = startTestAppForSuite({ clock });
  const owner = signInOwnerForSuite(testApp);
  const otherOwner = signInOwnerForSuite(testApp);

  const request = ownerRequests(testApp, owner);

  const variablesUrl = (applicationId: number) => `/api/applications/${applicationId}/variables`;
  const userVariablesUrl = (applicationId: number, userId: string) =>
    `/api/applications/${applicationId}/users/${userId}/variables`;

  const expectError = async (
    response: Awaited<ReturnType<typeof request>>,
    status: number,
    message: string,
  ) => {
    expect(response.statusCode, response.body).toBe(status);
    expect(errorBodySchema.parse(response.json()).message).toBe(message);
  };

  const create = async (applicationId: number, body: Record<string, unknown>) => {
    const response = await request('POST', variablesUrl(applicationId), body);
    expect(response.statusCode, response.body).toBe(201);
    return applicationVariableSchema.parse(response.json());
  };
  const list = async (applicationId: number, search?: string) => {
    const query = search === undefined ? '' : `?search=${encodeURIComponent(search)}`;
    const response = await request('GET', `${variablesUrl(applicationId)}${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return applicationVariableListSchema.parse(response.json());
  };

  it('creates a variable that requires a session by default, and lists it', async () => {
    const application = await createApplicationViaApi(testApp.app, owner);
    const variable = await create(application.id, { name: 'download.mirror', value: 'eu-1' });
    expect(variable).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'download.mirror',
      value: 'eu-1',
      requiresSession: true,
      createdAt: '2026-07-01T09:00:00.000Z',
      updatedAt: '2026-07-01T09:00:00.000Z',
    });
    expect(await list(application.id)).toEqual([variable]);
  });

  it('lists by name and searches names and values in any case, wildcards taken literally', async () => {
    const application = await createApplicationViaApi(testApp.app, owner);
    await create(application.id, { name: 'zeta', value: 'contains 100% of it' });
    await create(application.id, { name: 'Alpha_1', value: 'nothing' });
    await create(application.id, { name: 'middle', value: 'ALPHA inside' });
    const names = (rows: ApplicationVariable[]) => rows.map((row) => row.name);
    expect(names(await list(application.id))).toEqual(['Alpha_1', 'middle', 'zeta']);
    expect(names(await list(application.id, 'alpha'))).toEqual(['Alpha_1', 'middle']);
    expect(names(await list(application.id, '0%'))).toEqual(['zeta']);
    expect(names(await list(application.id, 'a_1'))).toEqual(['Alpha_1']);
    expect(await list(application.id, 'no such text')).toEqual([]);
  });

  it('updates the given fields only, and deletes', async () => {
    const application = await createApplicationViaApi(testApp.app, owner);
    const variable = await create(application.id, { name: 'switch', value: 'off' });
    clock.advance(60_000);
    const updated = await request('PUT', `${variablesUrl(application.id)}/${variable.id}`, {
      value: 'on',
      requiresSession: false,
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(applicationVariableSchema.parse(updated.json())).toEqual({
      ...variable,
      value: 'on',
      requiresSession: false,
      updatedAt: '2026-07-01T09:01:00.000Z',
    });
    const deleted = await request('DELETE', `${variablesUrl(application.id)}/${variable.id}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deletedResponseSchema.parse(deleted.json()).success).toBe(true);
    expect(await list(application.id)).toEqual([]);
    await expectError(
      await request('DELETE', `${variablesUrl(application.id)}/${variable.id}`),
      404,
      VARIABLE_NOT_FOUND,
    );
  });

  it('refuses a name the application already has with a 409, on creation and on rename', async () => {
    const application = await createApplicationViaApi(testApp.app, owner);
    const other = await createApplicationViaApi(testApp.app, owner);
    await create(application.id, { name: 'taken', value: '1' });
    const second = await create(application.id, { name: 'free', value: '2' });
    // The same name in another application is another variable.
    await create(other.id, { name: 'taken', value: '3' });
    await expectError(
      await request('POST', variablesUrl(application.id), { name: 'taken', value: 'x' }),
      409,
      VARIABLE_NAME_TAKEN,
    );
    await expectError(
      await request('PUT', `${variablesUrl(application.id)}/${second.id}`, { name: 'taken' }),
      409,
      VARIABLE_NAME_TAKEN,
    );
  });

  it('takes values up to 64 KB of UTF-8 (beyond the default body limit), and refuses bad names', async () => {
    const application = await createApplicationViaApi(testApp.app, owner);
    const limit = variableLimits.applicationValueBytes;
    // Newlines escape to two bytes each: a 128 KB body for a value at the limit.
    const atLimit = '\n'.repeat(limit);
    expect((await create(application.id, { name: 'big', value: atLimit })).value).toHaveLength(
      limit,
    );
    const tooBig = await request('POST', variablesUrl(application.id), {
      name: 'bigger',
      value: `${'€'.repeat(limit / 3)}xx`,
    });
    expect(tooBig.statusCode, tooBig.body).toBe(400);
    for (const name of ['', 'has space', 'x'.repeat(65), 'ünïcode', 'semi;colon']) {
      await expectError(
        await request('POST', variablesUrl(application.id), { name, value: '1' }),
        400,
        `name: ${VARIABLE_NAME_INVALID}`,
      );
    }
  });

  it('keeps another owner out: their application and variable ids answer 404', async () => {
    const application = await createApplicationViaApi(testApp.app, owner);
    const variable = await create(application.id, { name: 'mine', value: 'private' });
    const theirs = await createApplicationViaApi(testApp.app, otherOwner);
    const asOther = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) =>
      request(method, url, body, otherOwner);
    for (const response of [
      await asOther('GET', variablesUrl(application.id)),
      await asOther('POST', variablesUrl(application.id), { name: 'planted', value: 'x' }),
      await asOther('PUT', `${variablesUrl(application.id)}/${variable.id}`, { value: 'x' }),
      await asOther('DELETE', `${variablesUrl(application.id)}/${variable.id}`),
    ]) {
      await expectError(response, 404, 'Application not found');
    }
    // Through their own application, the variable id finds nothing.
    await expectError(
      await asOther('PUT', `${variablesUrl(theirs.id)}/${variable.id}`, { value: 'x' }),
      404,
      VARIABLE_NOT_FOUND,
    );
    expect(await list(application.id)).toEqual([variable]);
  });

  describe('an end user’s variables', () => {
    const put = (
      applicationId: number,
      userId: string,
      name: string,
      body: unknown,
      who: SignedInOwner = owner,
    ) => request('PUT', `${userVariablesUrl(applicationId, userId)}/${name}`, body, who);

    it('creates or replaces with PUT, lists by name, and deletes', async () => {
      const application = await createApplicationViaApi(testApp.app, owner);
      const user = await createAppUserViaApi(testApp.app, owner, application.id);
      const listed = await request('GET', userVariablesUrl(application.id, user.id));
      expect(userVariableListSchema.parse(listed.json())).toEqual([]);

      const created = await put(application.id, user.id, 'seats', { value: '3' });
      expect(created.statusCode, created.body).toBe(200);
      expect(userVariableSchema.parse(created.json())).toEqual({
        name: 'seats',
        value: '3',
        readOnly: false,
        createdAt: clock.now().toISOString(),
        updatedAt: clock.now().toISOString(),
      });
      const createdAt = clock.now().toISOString();
      clock.advance(1000);
      const replaced = await put(application.id, user.id, 'seats', { value: '4', readOnly: true });
      expect(userVariableSchema.parse(replaced.json())).toEqual({
        name: 'seats',
        value: '4',
        readOnly: true,
        createdAt,
        updatedAt: clock.now().toISOString(),
      });
      await put(application.id, user.id, 'a.first', { value: '' });
      const all = await request('GET', userVariablesUrl(application.id, user.id));
      expect(userVariableListSchema.parse(all.json()).map((row) => row.name)).toEqual([
        'a.first',
        'seats',
      ]);
      const deleted = await request('DELETE', `${userVariablesUrl(application.id, user.id)}/seats`);
      expect(deleted.statusCode, deleted.body).toBe(200);
      await expectError(
        await request('DELETE', `${userVariablesUrl(application.id, user.id)}/seats`),
        404,
        VARIABLE_NOT_FOUND,
      );
    });

    it('answers which of application, user or variable is missing', async () => {
      const application = await createApplicationViaApi(testApp.app, owner);
      const user = await createAppUserViaApi(testApp.app, owner, application.id);
      const otherUser = '00000000-0000-4000-8000-000000000000';
      await expectError(
        await request('GET', userVariablesUrl(application.id, otherUser)),
        404,
        'User not found',
      );
      await expectError(
        await put(application.id, otherUser, 'x', { value: '1' }),
        404,
        'User not found',
      );
      await expectError(
        await request('DELETE', `${userVariablesUrl(application.id, user.id)}/never_set`),
        404,
        VARIABLE_NOT_FOUND,
      );
    });

    it('keeps another owner out of a user’s variables, even through their own application', async () => {
      const application = await createApplicationViaApi(testApp.app, owner);
      const user = await createAppUserViaApi(testApp.app, owner, application.id);
      await put(application.id, user.id, 'secret', { value: 'only mine' });
      const theirs = await createApplicationViaApi(testApp.app, otherOwner);
      const asOther = (method: 'GET' | 'PUT' | 'DELETE', applicationId: number, suffix = '') =>
        request(
          method,
          `${userVariablesUrl(applicationId, user.id)}${suffix}`,
          method === 'PUT' ? { value: 'planted' } : undefined,
          otherOwner,
        );
      for (const method of ['GET', 'PUT', 'DELETE'] as const) {
        const suffix = method === 'GET' ? '' : '/secret';
        await expectError(
          await asOther(method, application.id, suffix),
          404,
          'Application not found',
        );
        await expectError(await asOther(method, theirs.id, suffix), 404, 'User not found');
      }
      const rows = await testApp.database.db.select().from(appUserVariables);
      expect(rows.filter((row) => row.appUserId === user.id)).toMatchObject([
        { name: 'secret', value: 'only mine' },
      ]);
    });

    it('holds at most 100 per user (a new name past it is a 409) of at most 16 KB each', async () => {
      const application = await createApplicationViaApi(testApp.app, owner);
      const user = await createAppUserViaApi(testApp.app, owner, application.id);
      const limit = variableLimits.userVariablesPerUser;
      await testApp.database.db.insert(appUserVariables).values(
        Array.from({ length: limit }, (_, index) => ({
          appUserId: user.id,
          applicationId: application.id,
          name: `v${index}`,
          value: '',
        })),
      );
      await expectError(
        await put(application.id, user.id, 'one_more', { value: '1' }),
        409,
        USER_VARIABLE_LIMIT_REACHED,
      );
      expect((await put(application.id, user.id, 'v7', { value: 'replaced' })).statusCode).toBe(
        200,
      );
      const tooBig = await put(application.id, user.id, 'v7', {
        value: 'x'.repeat(variableLimits.userValueBytes + 1),
      });
      expect(tooBig.statusCode, tooBig.body).toBe(400);
    });
  });
});
