import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render-with-providers.tsx';
import { SignedOutHeader } from './signed-out-header.tsx';

describe('SignedOutHeader', () => {
  it('opens the section menu tapped before its code had loaded, once it arrives', async () => {
    vi.spyOn(document, 'readyState', 'get').mockReturnValue('loading');
    renderWithProviders(<SignedOutHeader />);

    fireEvent.click(screen.getByRole('button', { name: 'Open menu' }));

    expect(await screen.findByRole('menuitem', { name: 'Features' })).toBeTruthy();
  });
});
