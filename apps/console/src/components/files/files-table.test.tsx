import type { AppFile } from '@latchkey/contracts';
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { DataTable } from '@/components/ui/data-table.tsx';
import { renderWithProviders } from '@/test/render-with-providers.tsx';
import { filesTable } from './files-table.tsx';

const file = (id: string, requiresSession: boolean): AppFile => ({
  id,
  name: `${id}.zip`,
  version: '2.0.0',
  platform: null,
  size: 1024,
  sha256: 'a'.repeat(64),
  requiresSession,
  downloadCount: 0,
  createdAt: '2025-03-14T12:00:00.000Z',
});
const open = file('11111111-1111-4111-8111-111111111111', false);
const gated = file('22222222-2222-4222-8222-222222222222', true);

describe('filesTable', () => {
  it('offers only a session-free file as the current release, and says why not', () => {
    const onToggleRelease = vi.fn();
    const onReleaseRefused = vi.fn();
    renderWithProviders(
      <DataTable
        table={filesTable({
          currentReleaseFileId: null,
          busyFileId: null,
          onToggleRelease,
          onReleaseRefused,
          onDelete: vi.fn(),
        })}
        rows={[open, gated]}
      />,
    );
    const openRow = within(screen.getByTestId(`file-row-${open.id}`));
    expect(openRow.queryByText('Requires a session')).toBeNull();
    fireEvent.click(openRow.getByRole('button', { name: 'Set as current release' }));
    expect(onToggleRelease).toHaveBeenCalledWith(open);

    const gatedRow = within(screen.getByTestId(`file-row-${gated.id}`));
    expect(gatedRow.getByText('Requires a session')).toBeTruthy();
    const refused = gatedRow.getByRole('button', {
      name: 'Requires a session, so it cannot be the current release',
    });
    // Refused, but still focusable and hoverable so its tooltip says why; a click says so too.
    expect(refused.getAttribute('aria-disabled')).toBe('true');
    expect((refused as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(refused);
    expect(onReleaseRefused).toHaveBeenCalledWith(gated);
    expect(onToggleRelease).toHaveBeenCalledTimes(1);
  });

  it('still lets a gated file that is the release be cleared', () => {
    const onToggleRelease = vi.fn();
    renderWithProviders(
      <DataTable
        table={filesTable({
          currentReleaseFileId: gated.id,
          busyFileId: null,
          onToggleRelease,
          onReleaseRefused: vi.fn(),
          onDelete: vi.fn(),
        })}
        rows={[gated]}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Clear current release' }));
    expect(onToggleRelease).toHaveBeenCalledWith(gated);
  });
});
