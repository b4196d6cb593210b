import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, type Mock } from 'vitest';
import type { StatLoadState } from '@/components/ui/stat-grid.tsx';

/** A stat grid's figures in one of their load states, as a test renders them. */
export function statLoadState(
  state: 'loading' | 'loaded' | 'failed' | 'retrying',
  onRetry: () => void = () => {},
): StatLoadState {
  return {
    isLoading: state === 'loading',
    isError: state === 'failed' || state === 'retrying',
    isRetrying: state === 'retrying',
    onRetry,
  };
}

/** The failed read's alert says `message`, and its Retry calls `onRetry` once. */
export async function expectRetryFromAlert(message: string, onRetry: Mock): Promise<void> {
  const alert = screen.getByRole('alert');
  expect(alert.textContent).toContain(message);
  await userEvent.setup().click(within(alert).getByRole('button', { name: 'Retry' }));
  expect(onRetry).toHaveBeenCalledOnce();
}
