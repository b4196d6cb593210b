import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { expectRetryFromAlert, statLoadState } from '@/test/stat-load-state.ts';
import { BLACKLIST_COUNTS_LOAD_ERROR, BlacklistCountCards } from './blacklist-count-cards.tsx';

describe('BlacklistCountCards: honest figures', () => {
  it('shows failed counts as unknown, with the error and a Retry', async () => {
    const onRetry = vi.fn();
    render(<BlacklistCountCards counts={undefined} {...statLoadState('failed', onRetry)} />);
    expect(screen.getByTestId('blacklist-count-hwid').textContent).toBe('—Unknown');
    expect(screen.queryByText('0')).toBeNull();
    await expectRetryFromAlert(BLACKLIST_COUNTS_LOAD_ERROR, onRetry);
  });

  it('shows loading counts as loading', () => {
    render(<BlacklistCountCards counts={undefined} {...statLoadState('loading')} />);
    expect(screen.getAllByText('Loading')).toHaveLength(4);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
