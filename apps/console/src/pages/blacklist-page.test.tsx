import type { BlacklistEntry, BlacklistType } from '@latchkey/contracts';
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders, signedInAuth } from '@/test/render-with-providers.tsx';
import { BlacklistPage } from './blacklist-page.tsx';

const entry = (index: number, type: BlacklistType = 'username'): BlacklistEntry => ({
  id: index,
  type,
  value: `cheater_${index}`,
  reason: null,
  applicationId: null,
  application: null,
  isActive: true,
  createdAt: '2025-03-14T12:00:00.000Z',
});

/** 60 entries, 20 of them HWIDs; answers pages of 50 with the server's paging headers. */
function stubBlacklistApi() {
  const all = Array.from({ length: 60 }, (_, index) =>
    entry(60 - index, index % 3 === 0 ? 'hwid' : 'username'),
  );
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://localhost');
    const page = Number(url.searchParams.get('page') ?? 1);
    const pageSize = Number(url.searchParams.get('pageSize') ?? 50);
    const type = url.searchParams.get('type');
    const search = url.searchParams.get('search') ?? '';
    const matching = all.filter(
      (candidate) => (!type || candidate.type === type) && candidate.value.includes(search),
    );
    return new Response(JSON.stringify(matching.slice((page - 1) * pageSize, page * pageSize)), {
      status: 200,
      headers: {
        'Content-Type': 'application/json',
        'X-Total-Count': String(matching.length),
        'X-Page': String(page),
        'X-Page-Size': String(pageSize),
      },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('BlacklistPage paging, search and counts', { timeout: 30_000 }, () => {
  it('counts per type from the server, not from the page, and pages and searches', async () => {
    const fetchMock = stubBlacklistApi();
    renderWithProviders(<BlacklistPage />, {
      path: '/blacklist',
      auth: signedInAuth(),
    });
    expect(await screen.findByText('Showing 1–50 of 60')).toBeTruthy();
    expect(await within(screen.getByTestId('blacklist-count-hwid')).findByText('20')).toBeTruthy();
    expect(within(screen.getByTestId('blacklist-count-username')).getByText('40')).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/blacklist?type=hwid&isActive=true&pageSize=1',
      expect.anything(),
    );

    fireEvent.click(screen.getByRole('button', { name: /Next/ }));
    expect(await screen.findByText('Showing 51–60 of 60')).toBeTruthy();

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search blacklist' }), {
      target: { value: 'cheater_5' },
    });
    expect(
      await screen.findByText('Showing 1–11 of 11', undefined, { timeout: 5000 }),
    ).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledWith('/api/blacklist?search=cheater_5', expect.anything());
  });
});
