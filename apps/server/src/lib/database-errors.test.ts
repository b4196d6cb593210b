import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import {
  isDatabaseUnavailable,
  isUniqueViolation,
  redactDatabaseError,
} from './database-errors.ts';

const driverError = (code: string, constraint?: string) =>
  Object.assign(new Error(`duplicate key value violates unique constraint "${constraint}"`), {
    code,
    constraint,
    table: 'app_users',
    detail: 'Failing row contains (alice, $argon2id$v=19$secret-hash)',
  });

describe('database errors', () => {
  it('recognises a unique violation of one constraint through the driver wrapper', () => {
    const wrapped = new DrizzleQueryError(
      'insert into app_users ...',
      ['alice'],
      driverError('23505', 'users_idx'),
    );
    expect(isUniqueViolation(wrapped, 'users_idx')).toBe(true);
    expect(isUniqueViolation(wrapped, 'other_idx')).toBe(false);
    expect(isUniqueViolation(driverError('23503', 'users_idx'), 'users_idx')).toBe(false);
    expect(isUniqueViolation(new Error('plain'), 'users_idx')).toBe(false);
    expect(isUniqueViolation(null, 'users_idx')).toBe(false);
  });

  it('drops query parameters and row details before the error can reach a log', () => {
    const wrapped = new DrizzleQueryError(
      'insert into app_users (username, password_hash) values ($1, $2)',
      ['alice', '$argon2id$v=19$secret-hash'],
      driverError('23514', 'some_check'),
    );
    expect(wrapped.message).toContain('secret-hash');
    const redacted = redactDatabaseError(wrapped);
    expect(JSON.stringify({ ...redacted, message: redacted.message })).not.toContain('secret-hash');
    expect(redacted.message).not.toContain('argon2');
    expect(redacted).toMatchObject({ code: '23514', constraint: 'some_check', table: 'app_users' });
    expect(redacted.cause).toBeUndefined();
  });
});

describe('isDatabaseUnavailable', () => {
  it('knows a lost or refused connection, wrapped or redacted, from a refused statement', () => {
    const lost = Object.assign(new Error('terminating connection due to administrator command'), {
      code: '57P01',
    });
    const wrapped = Object.assign(new Error('Failed query: begin\nparams: '), { cause: lost });
    const cut = new Error('Connection terminated unexpectedly');
    const wrappedCut = Object.assign(new Error('Failed query: select 1\nparams: '), { cause: cut });
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
      code: 'ECONNREFUSED',
    });
    const starting = Object.assign(new Error('the database system is starting up'), {
      code: '57P03',
    });
    for (const error of [lost, wrapped, cut, wrappedCut, refused, starting]) {
      expect(isDatabaseUnavailable(error), error.message).toBe(true);
      expect(isDatabaseUnavailable(redactDatabaseError(error)), error.message).toBe(true);
    }
    const unique = Object.assign(new Error('duplicate key'), { code: '23505' });
    for (const error of [unique, new Error('boom'), null, 'text']) {
      expect(isDatabaseUnavailable(error)).toBe(false);
    }
    // The ORM's message lists the parameters; the redacted one keeps only the driver's.
    const withSecret = Object.assign(new Error('Failed query: x\nparams: secret-hash'), {
      cause: cut,
    });
    expect(redactDatabaseError(withSecret).message).not.toContain('secret-hash');
  });
});

describe('redactDatabaseError on an error that is not the database’s', () => {
  it('keeps a programming error as it is, so the log says what went wrong', () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'token')");
    expect(redactDatabaseError(bug)).toBe(bug);
    const orm = new Error('Failed query: insert into app_users\nparams: secret-hash');
    expect(redactDatabaseError(orm).message).not.toContain('secret-hash');
  });
});
