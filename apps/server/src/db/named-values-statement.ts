import { Placeholder, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { DatabaseConnection, RawQueryResult } from './client.ts';

/** Where a statement built by `build` takes a value: bound now, or a prepared parameter. */
export type BindValue<Name extends string> = (name: Name) => SQL;

/**
 * A statement written with the query builder as a function of named values, prepared once per
 * connection under `name` and run with positional parameters. Preparing matters on hot paths:
 * PostgreSQL otherwise plans a data-modifying CTE chain on every call, which can cost more than
 * running it. The same `build` can bind values at once for a transaction (`tx.execute`) by
 * passing a `bind` of its own. A value used twice in the text is two parameters, each given the
 * same value.
 */
export function namedValuesStatement<Values extends object>(
  name: string,
  build: (bind: BindValue<Extract<keyof Values, string>>) => SQL,
) {
  type Name = Extract<keyof Values, string>;
  const compiled = new PgDialect().sqlToQuery(build((value) => sql`${sql.placeholder(value)}`));
  const parameterNames = compiled.params.map((param) => {
    if (!(param instanceof Placeholder)) {
      throw new Error(`statement ${name}: every value must come through bind()`);
    }
    return param.name as Name;
  });
  return {
    /** The prepared text and which value each positional parameter is (tests read them). */
    text: compiled.sql,
    parameterNames,
    /** Runs the prepared statement on one of the pool's connections. */
    run(connection: DatabaseConnection, values: Values): Promise<RawQueryResult> {
      return connection.query({
        name,
        text: compiled.sql,
        values: parameterNames.map((value) => values[value]),
      });
    },
  };
}
