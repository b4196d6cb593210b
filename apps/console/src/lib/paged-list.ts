import { pagingHeaders } from '@latchkey/contracts';

/**
 * One page of a server list, and how many rows match in all (the X-Total-Count header); a
 * floor when `isTotalCapped` (a search matched more than the server counts).
 */
export interface PagedList<Row> {
  rows: Row[];
  totalCount: number;
  isTotalCapped?: boolean;
  page: number;
  pageSize: number;
}

/** The query string of a paged list; empty for the first page of everything, as before paging. */
export function toPageQueryString(query: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === '') continue;
    if (name === 'page' && value === 1) continue;
    params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Reads the paging headers; an answer without them (an older server) is one whole page. */
export function toPagedList<Row>(response: Response, rows: Row[]): PagedList<Row> {
  const header = (name: string) => {
    const value = Number(response.headers.get(name));
    return Number.isSafeInteger(value) && value > 0 ? value : null;
  };
  return {
    rows,
    totalCount: header(pagingHeaders.totalCount) ?? rows.length,
    isTotalCapped: response.headers.get(pagingHeaders.totalCountCapped) === 'true',
    page: header(pagingHeaders.page) ?? 1,
    pageSize: header(pagingHeaders.pageSize) ?? Math.max(rows.length, 1),
  };
}
