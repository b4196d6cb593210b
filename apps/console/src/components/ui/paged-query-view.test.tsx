import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import type { PagedList } from '@/lib/paged-list.ts';
import { PagedQueryView } from './paged-query-view.tsx';

const emptyPage: PagedList<string> = { rows: [], totalCount: 0, page: 1, pageSize: 50 };
const twoRows: PagedList<string> = {
  rows: ['alpha', 'beta'],
  totalCount: 2,
  page: 1,
  pageSize: 50,
};

/** What every list in these tests calls its states. */
const thingsWords = {
  loadingLabel: 'Loading things',
  errorTitle: 'Error loading things',
  describeError: (error: Error) => error.message,
  empty: <p>Nothing here yet</p>,
};

/** A list whose one query answers with `load`'s page (or its failure, or never). */
function List({
  load,
  ...props
}: {
  load: () => Promise<PagedList<string>>;
  canShowEmptyState?: boolean;
  toolbar?: ReactNode;
}) {
  const query = useQuery({ queryKey: ['list'], queryFn: load });
  return (
    <PagedQueryView
      query={query}
      {...thingsWords}
      pagerLabel="Things pages"
      onPageChange={() => {}}
      {...props}
    >
      {(rows) => (
        <ul aria-label="Things">
          {rows.map((row) => (
            <li key={row}>{row}</li>
          ))}
        </ul>
      )}
    </PagedQueryView>
  );
}

function renderList(props: Parameters<typeof List>[0]) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <List {...props} />
    </QueryClientProvider>,
  );
}

const toolbar = <button type="button">Refresh things</button>;

describe('PagedQueryView', () => {
  it('draws the empty state when nothing matches at all, without rows or pager', async () => {
    renderList({ load: async () => emptyPage });
    expect(await screen.findByText('Nothing here yet')).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Things' })).toBeNull();
    expect(screen.queryByRole('navigation', { name: 'Things pages' })).toBeNull();
  });

  it('draws an empty page as no rows and "Showing 0 of 0" when the empty state may not show', async () => {
    renderList({ load: async () => emptyPage, canShowEmptyState: false });
    const list = await screen.findByRole('list', { name: 'Things' });
    expect(list.children).toHaveLength(0);
    expect(screen.getByRole('navigation', { name: 'Things pages' }).textContent).toContain(
      'Showing 0 of 0',
    );
    expect(screen.queryByText('Nothing here yet')).toBeNull();
  });

  it('still draws the rows, not the empty state, when there are rows and it may not show', async () => {
    renderList({ load: async () => twoRows, canShowEmptyState: false });
    expect(await screen.findByText('Showing 1–2 of 2')).toBeTruthy();
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'alpha',
      'beta',
    ]);
  });

  it('draws the toolbar above the rows and the pager once a page has loaded', async () => {
    renderList({ load: async () => twoRows, toolbar });
    const list = await screen.findByRole('list', { name: 'Things' });
    const button = screen.getByRole('button', { name: 'Refresh things' });
    expect(button.compareDocumentPosition(list) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    // The toolbar and its list share one box.
    expect(button.parentElement).toBe(list.parentElement);
  });

  it('draws the toolbar above the empty state too', async () => {
    renderList({ load: async () => emptyPage, toolbar });
    expect(await screen.findByText('Nothing here yet')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Refresh things' })).toBeTruthy();
  });

  it('leaves the toolbar out of the skeleton and of the error, which has its own Try Again', async () => {
    const { unmount } = renderList({ load: () => new Promise(() => {}), toolbar });
    expect(screen.getByRole('status', { name: 'Loading things' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Refresh things' })).toBeNull();
    unmount();

    renderList({ load: () => Promise.reject(new Error('The server said no')), toolbar });
    expect(await screen.findByText('Error loading things')).toBeTruthy();
    expect(screen.getByText('The server said no')).toBeTruthy();
    expect(screen.getByRole('button', { name: /Try Again/ })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Refresh things' })).toBeNull();
  });

  it('draws a list sent whole without a pager, and its empty state when it has no rows', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    function WholeList({ rows }: { rows: string[] }) {
      const query = useQuery({ queryKey: ['whole', rows], queryFn: async () => rows });
      return (
        <PagedQueryView query={query} {...thingsWords}>
          {(shown) => <p>{shown.join(', ')}</p>}
        </PagedQueryView>
      );
    }
    const { rerender } = render(
      <QueryClientProvider client={client}>
        <WholeList rows={['alpha', 'beta']} />
      </QueryClientProvider>,
    );
    expect(await screen.findByText('alpha, beta')).toBeTruthy();
    expect(screen.queryByRole('navigation')).toBeNull();

    rerender(
      <QueryClientProvider client={client}>
        <WholeList rows={[]} />
      </QueryClientProvider>,
    );
    expect(await screen.findByText('Nothing here yet')).toBeTruthy();
  });
});
