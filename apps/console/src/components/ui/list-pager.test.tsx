import { describe, expect, it } from 'vitest';
import { describePage } from './list-pager.tsx';

describe('describePage', () => {
  it('counts from the page position and the rows on the page', () => {
    expect(describePage({ page: 1, pageSize: 50, rowCount: 50, totalCount: 120 })).toBe(
      'Showing 1–50 of 120',
    );
    expect(describePage({ page: 3, pageSize: 50, rowCount: 20, totalCount: 120 })).toBe(
      'Showing 101–120 of 120',
    );
    expect(describePage({ page: 1, pageSize: 50, rowCount: 0, totalCount: 0 })).toBe(
      'Showing 0 of 0',
    );
    // Past the end (the list shrank while paging): nothing shown, the total still said.
    expect(describePage({ page: 4, pageSize: 50, rowCount: 0, totalCount: 120 })).toBe(
      'Showing 0 of 120',
    );
  });

  it('says a capped total is a floor', () => {
    expect(
      describePage({
        page: 2,
        pageSize: 50,
        rowCount: 50,
        totalCount: 10_000,
        isTotalCapped: true,
      }),
    ).toBe('Showing 51–100 of 10000+');
  });
});
