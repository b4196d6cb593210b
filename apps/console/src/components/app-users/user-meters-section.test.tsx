import type { UserMeter } from '@latchkey/contracts';
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderSignedIn } from '@/test/render-with-providers.tsx';
import { resetEachTest } from '@/test/reset-each-test.ts';
import { stubResizeObserver, stubScrollIntoView } from '@/test/jsdom-stubs.ts';
import {
  jsonResponse,
  neverAnswered,
  recordOwnerApi,
  sectionUser,
  sectionUserPath,
  stubOwnerApi,
} from '@/test/stub-owner-api.ts';
import { UserMetersSection } from './user-meters-section.tsx';

const METERS = sectionUserPath('meters');

const meter = (overrides: Partial<UserMeter>): UserMeter => ({
  name: 'exports',
  allowance: 500,
  used: 120,
  remaining: 380,
  overage: 0,
  resetEvery: 'month',
  overageMode: 'refuse',
  periodStartedAt: '2030-01-01T00:00:00.000Z',
  resetsAt: '2030-02-01T00:00:00.000Z',
  ...overrides,
});

const renderSection = () => renderSignedIn(<UserMetersSection {...sectionUser} />);

describe('UserMetersSection', { timeout: 30_000 }, () => {
  resetEachTest(stubScrollIntoView, stubResizeObserver);

  it('shows skeletons while the usage loads', () => {
    stubOwnerApi(() => neverAnswered());
    renderSection();
    expect(screen.getByRole('status', { name: 'Loading usage' })).toBeTruthy();
  });

  it('says so when no active plan has a meter', async () => {
    stubOwnerApi(({ path }) => (path === METERS ? jsonResponse(200, []) : undefined));
    renderSection();
    expect(
      await screen.findByText("No usage meters: none of this user's active plans has one."),
    ).toBeTruthy();
  });

  it('shows each meter used against its allowance, with overage and when it resets', async () => {
    stubOwnerApi(({ path }) =>
      path === METERS
        ? jsonResponse(200, [
            meter({
              name: 'credits',
              allowance: 1_000,
              used: 1_250,
              remaining: 0,
              overage: 250,
              resetEvery: 'none',
              overageMode: 'count',
              periodStartedAt: null,
              resetsAt: null,
            }),
            meter({}),
          ])
        : undefined,
    );
    renderSection();
    const credits = within(await screen.findByTestId('meter-credits'));
    expect(credits.getByText('1,250 used: 1,000 included, 250 over')).toBeTruthy();
    expect(credits.getByText('Does not reset')).toBeTruthy();
    expect(credits.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    const exports = within(screen.getByTestId('meter-exports'));
    expect(exports.getByText('120 of 500 used')).toBeTruthy();
    expect(exports.getByText(/^Resets /)).toBeTruthy();
    expect(
      exports
        .getByRole('progressbar', { name: 'exports: 120 of 500 used' })
        .getAttribute('aria-valuenow'),
    ).toBe('24');
  });

  it('reads the usage again on Refresh, and offers Try Again when it fails', async () => {
    let used = 1;
    const api = recordOwnerApi(({ path }) =>
      path === METERS ? jsonResponse(200, [meter({ used, remaining: 500 - used })]) : undefined,
    );
    renderSection();
    expect(await screen.findByText('1 of 500 used')).toBeTruthy();
    used = 7;
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByText('7 of 500 used')).toBeTruthy();
    expect(api.sent('GET', METERS)).toHaveLength(2);
  });

  it('shows a load failure in the server’s words', async () => {
    stubOwnerApi(({ path }) =>
      path === METERS
        ? jsonResponse(500, { message: 'Database unavailable', code: 'INTERNAL' })
        : undefined,
    );
    renderSection();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Database unavailable');
    expect(within(alert).getByRole('button', { name: 'Try Again' })).toBeTruthy();
  });
});
