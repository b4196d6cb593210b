/**
 * A value made the first time it is asked for, then kept. For Intl formatters: building one
 * loads its locale's and time zone's data, milliseconds on a phone (a dashboard's two date
 * formatters were 25 ms of its first load's main thread on a CPU slowed 4×), and a module that
 * only might format a date should not charge that to every page that imports it.
 */
export function onFirstUse<T>(make: () => T): () => T {
  let value: { made: T } | null = null;
  return () => {
    value ??= { made: make() };
    return value.made;
  };
}
