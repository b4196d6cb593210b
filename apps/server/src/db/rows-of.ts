/** The rows of a raw `execute`: node-postgres and PGlite both answer with `{ rows }`. */
export function rowsOf<Row>(result: unknown): Row[] {
  return ((result as { rows?: Row[] }).rows ?? []) as Row[];
}
