import { useState } from 'react';
import { useDebouncedValue } from './use-debounced-value.ts';

/**
 * The page and search of a server-searched list. A new search starts again from the first
 * page, since the page the owner was on may not exist among the matches; the server is asked
 * with `settledSearch`, once typing pauses, while the box shows `search` as typed.
 */
export function usePagedSearch() {
  const [page, setPage] = useState(1);
  const [search, setSearchAsTyped] = useState('');
  const settledSearch = useDebouncedValue(search);

  const setSearch = (value: string) => {
    setSearchAsTyped(value);
    setPage(1);
  };

  return { page, setPage, search, setSearch, settledSearch };
}
