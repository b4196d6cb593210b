/**
 * The application a page acts on: the one the owner selected, if it is still theirs; else,
 * when the account has exactly one application, that one, since asking the owner to pick the
 * only choice there is is a step for nothing; else none, and the page asks.
 */
export function selectedOrOnlyApplication<Candidate extends { id: number }>(
  applications: readonly Candidate[] | undefined,
  selectedId: number | null | undefined,
): Candidate | null {
  if (!applications) return null;
  const selected = applications.find((application) => application.id === selectedId);
  if (selected) return selected;
  return applications.length === 1 ? applications[0]! : null;
}
