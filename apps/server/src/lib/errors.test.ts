import { describe, expect, it } from 'vitest';
import { clientErrorAnswerOf } from '../modules/client-api/client-api-error.ts';
import { AppError, DATABASE_RETRY_AFTER_SECONDS, errorAnswerOf, httpStatusOf } from './errors.ts';

const lostConnection = () =>
  Object.assign(new Error('Failed query: update app_users\nparams: secret'), {
    cause: Object.assign(new Error('terminating connection due to administrator command'), {
      code: '57P01',
    }),
  });

describe('the answer to a lost database connection', () => {
  it('is a 503 to retry, in the owner and management shapes, with nothing of the statement', () => {
    const answer = errorAnswerOf(lostConnection());
    expect(answer).toEqual({
      code: 'UNAVAILABLE',
      message: 'The database is unavailable for a moment. Try again in a few seconds.',
      isUnexpected: false,
      retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS,
    });
    expect(httpStatusOf(answer.code)).toBe(503);
  });

  it('is a 503 with Retry-After in the client API, under its server-error code', () => {
    const answer = clientErrorAnswerOf(lostConnection());
    expect(answer).toMatchObject({
      status: 503,
      body: { success: false, code: 'INTERNAL_ERROR' },
      retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS,
      isUnexpected: false,
    });
    expect(JSON.stringify(answer)).not.toContain('secret');
  });

  it('leaves every other failure as it was: our refusals by code, anything else a 500', () => {
    expect(errorAnswerOf(new AppError('CONFLICT', 'Taken')).code).toBe('CONFLICT');
    expect(errorAnswerOf(new Error('boom'))).toMatchObject({
      code: 'INTERNAL',
      isUnexpected: true,
    });
    expect(clientErrorAnswerOf(new Error('boom'))).toMatchObject({ status: 500 });
    const unique = Object.assign(new Error('duplicate key'), { code: '23505' });
    expect(errorAnswerOf(unique).code).toBe('INTERNAL');
  });
});
