import { useState } from 'react';

/**
 * The users ticked in a users table: some ids, or every user matching the list's search
 * ("Select all N matching this search", which may span pages never loaded). A new search
 * starts with nothing selected, since what was ticked may no longer be listed.
 */
export interface AppUserSelection {
  /** The ids ticked; empty while `isAllMatching`. */
  selectedIds: ReadonlySet<string>;
  isAllMatching: boolean;
  /** The search the selection belongs to (the list's settled search). */
  search: string;
  isSelected: (userId: string) => boolean;
  /** Ticks or unticks one row; unticking one while all match keeps the rest of the page. */
  toggle: (userId: string, isChecked: boolean, pageIds: readonly string[]) => void;
  /** The heading's checkbox: the whole page on or off. */
  setPage: (pageIds: readonly string[], isChecked: boolean) => void;
  selectAllMatching: () => void;
  clear: () => void;
}

interface SelectionState {
  search: string;
  ids: ReadonlySet<string>;
  isAllMatching: boolean;
}

const nothingFor = (search: string): SelectionState => ({
  search,
  ids: new Set(),
  isAllMatching: false,
});

export function useAppUserSelection(search: string): AppUserSelection {
  const [stored, setStored] = useState<SelectionState>(() => nothingFor(search));
  const state = stored.search === search ? stored : nothingFor(search);
  const update = (change: (current: SelectionState) => SelectionState) =>
    setStored((previous) => change(previous.search === search ? previous : nothingFor(search)));

  return {
    selectedIds: state.ids,
    isAllMatching: state.isAllMatching,
    search,
    isSelected: (userId) => state.isAllMatching || state.ids.has(userId),
    toggle: (userId, isChecked, pageIds) =>
      update((current) => {
        const ids = new Set(current.isAllMatching ? pageIds : current.ids);
        if (isChecked) ids.add(userId);
        else ids.delete(userId);
        return { search, ids, isAllMatching: false };
      }),
    setPage: (pageIds, isChecked) =>
      update((current) => {
        if (!isChecked && current.isAllMatching) return nothingFor(search);
        const ids = new Set(current.ids);
        for (const id of pageIds) {
          if (isChecked) ids.add(id);
          else ids.delete(id);
        }
        return { search, ids, isAllMatching: false };
      }),
    selectAllMatching: () => update(() => ({ search, ids: new Set(), isAllMatching: true })),
    clear: () => update(() => nothingFor(search)),
  };
}
