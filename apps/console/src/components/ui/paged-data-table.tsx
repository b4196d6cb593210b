import { pagingLimits } from '@latchkey/contracts';
import { DataTable, type DataTableDefinition } from '@/components/ui/data-table.tsx';
import { PagedQueryView, type PagedQueryViewProps } from '@/components/ui/paged-query-view.tsx';
import { SearchInput } from '@/components/ui/search-input.tsx';

/** What the search box above a server-searched table holds; the table names the box. */
export interface TableSearch {
  value: string;
  onChange: (value: string) => void;
}

/**
 * A server list shown as a table: PagedQueryView's states (skeleton, error with Try Again,
 * empty state, pager) around a DataTable drawn from `table`, with the list's search box above
 * it when it has one. The console's tables are built on this, so they load, fail, page and
 * search alike.
 */
export function PagedDataTable<Row>({
  table,
  search,
  ...queryView
}: PagedQueryViewProps<Row> & {
  table: DataTableDefinition<Row>;
  search?: TableSearch;
}) {
  const view = (
    <PagedQueryView<Row> {...queryView}>
      {(rows) => <DataTable table={table} rows={rows} />}
    </PagedQueryView>
  );
  if (!search) return view;
  return (
    // Spaced as the lists' cards space their content, whatever lays out the parent.
    <div className="flex min-w-0 flex-col gap-4">
      <SearchInput
        value={search.value}
        onChange={search.onChange}
        label={table.searchBox?.label ?? `Search ${table.label.toLowerCase()}`}
        placeholder={table.searchBox?.placeholder ?? ''}
        maxLength={pagingLimits.search}
      />
      {view}
    </div>
  );
}
