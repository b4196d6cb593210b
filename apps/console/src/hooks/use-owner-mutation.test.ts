import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api.ts';
import { toStatsFetchError } from './use-application-stats.ts';
import { toUsersFetchError } from './use-app-users.ts';
import { ConsoleInputError, getErrorToastMessage, getServerMessage } from './use-owner-mutation.ts';

const NOT_FOUND_BODY = '{"message":"Application not found","code":"NOT_FOUND"}';

describe('getServerMessage', () => {
  it("reads the message of the server's { message, code } body", () => {
    expect(getServerMessage(new ApiError(404, 'Not Found', NOT_FOUND_BODY))).toBe(
      'Application not found',
    );
  });

  it('also reads a plain Error in the "{status}: {body}" form', () => {
    expect(getServerMessage(new Error(`409: {"message":"Username already exists"}`))).toBe(
      'Username already exists',
    );
  });

  it('finds nothing in a body that is not JSON, lacks a message, or in other errors', () => {
    expect(getServerMessage(new ApiError(502, 'Bad Gateway', '<html>oops</html>'))).toBeNull();
    expect(getServerMessage(new ApiError(500, 'Internal Server Error', ''))).toBeNull();
    expect(getServerMessage(new Error('400: {"code":"BAD_REQUEST"}'))).toBeNull();
    expect(getServerMessage(new Error('400: {"message":""}'))).toBeNull();
    expect(getServerMessage(new TypeError('Failed to fetch'))).toBeNull();
    expect(getServerMessage('404: {"message":"x"}')).toBeNull();
  });
});

describe('getErrorToastMessage', () => {
  it("prefers the server's words, else the fallback", () => {
    const error = new ApiError(400, 'Bad Request', '{"message":"Please enter a version"}');
    expect(getErrorToastMessage(error, 'Failed to update application')).toBe(
      'Please enter a version',
    );
    expect(getErrorToastMessage(new TypeError('Failed to fetch'), 'Failed to create user')).toBe(
      'Failed to create user',
    );
  });

  it("shows the console's own input errors as they are", () => {
    expect(
      getErrorToastMessage(
        new ConsoleInputError('No application selected'),
        'Failed to create user',
      ),
    ).toBe('No application selected');
  });
});

describe('toUsersFetchError', () => {
  it("is the server's message, else HTTP {status}, else 'Failed to fetch users'", () => {
    expect(toUsersFetchError(new ApiError(404, 'Not Found', NOT_FOUND_BODY)).message).toBe(
      'Application not found',
    );
    expect(toUsersFetchError(new ApiError(503, 'Service Unavailable', '')).message).toBe(
      'HTTP 503',
    );
    expect(toUsersFetchError(new TypeError('Failed to fetch')).message).toBe(
      'Failed to fetch users',
    );
  });
});

describe('toStatsFetchError', () => {
  it("is 'Failed to fetch stats: {status}'", () => {
    expect(toStatsFetchError(new ApiError(500, 'Internal Server Error', '')).message).toBe(
      'Failed to fetch stats: 500',
    );
  });
});
