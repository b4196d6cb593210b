import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { BLACKLIST_COUNTS_LOAD_ERROR, BlacklistCountCards } from './blacklist-count-cards.tsx';

describe('BlacklistCountCards: honest figures', () => {
  it('shows failed counts as unknown, with the error and a Retry', async () => {
    const onRetry = vi.fn();
    render(
      <BlacklistCountCards
        counts={undefined}
        isLoading={false}
        isError
        isRetrying={false}
        onRetry={onRetry}
      />,
    );
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain(BLACKLIST_COUNTS_LOAD_ERROR);
    expect(screen.getByTestId('blacklist-count-hwid').textContent).toBe('—Unknown');
    expect(screen.queryByText('0')).toBeNull();
    await userEvent.setup().click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it('shows loading counts as loading', () => {
    render(
      <BlacklistCountCards
        counts={undefined}
        isLoading
        isError={false}
        isRetrying={false}
        onRetry={() => {}}
      />,
    );
    expect(screen.getAllByText('Loading')).toHaveLength(4);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
