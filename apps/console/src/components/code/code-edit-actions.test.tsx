import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/ui/toaster.tsx';
import { dismissToast } from '@/hooks/use-toast.ts';
import { CODE_COPIED_MESSAGE, CodeEditActions } from './code-edit-actions.tsx';

const buttonNames = () => screen.getAllByRole('button').map((button) => button.textContent);

describe('CodeEditActions', () => {
  afterEach(() => dismissToast());

  it('offers Copy Code, then the caller actions, while reading; Copy Code copies the code', async () => {
    const writeText = vi.fn(async () => {});
    // jsdom has no clipboard.
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(
      <>
        <CodeEditActions
          code="print('hello')"
          isEditing={false}
          isSaving={false}
          saveLabel="Save Template"
          onSave={() => {}}
          onCancel={() => {}}
        >
          <button type="button">Edit Template</button>
        </CodeEditActions>
        <Toaster />
      </>,
    );
    expect(buttonNames()).toEqual(['Copy Code', 'Edit Template']);

    fireEvent.click(screen.getByRole('button', { name: 'Copy Code' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith("print('hello')"));
    expect(await screen.findByText(CODE_COPIED_MESSAGE)).toBeTruthy();
  });

  it('offers only Save (with its label) and Cancel while editing, and calls back', () => {
    const onSave = vi.fn();
    const onCancel = vi.fn();
    render(
      <CodeEditActions
        code=""
        isEditing
        isSaving={false}
        saveLabel="Save Template"
        onSave={onSave}
        onCancel={onCancel}
      >
        <button type="button">Edit Template</button>
      </CodeEditActions>,
    );
    expect(buttonNames()).toEqual(['Save Template', 'Cancel']);
    fireEvent.click(screen.getByRole('button', { name: 'Save Template' }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onSave).toHaveBeenCalledOnce();
    expect(onCancel).toHaveBeenCalledOnce();
  });

  it("says 'Saving...' and holds both buttons while the save is on its way", () => {
    render(
      <CodeEditActions
        code=""
        isEditing
        isSaving
        saveLabel="Save"
        onSave={() => {}}
        onCancel={() => {}}
      />,
    );
    const save = screen.getByRole('button', { name: 'Saving...' }) as HTMLButtonElement;
    const cancel = screen.getByRole('button', { name: 'Cancel' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    expect(cancel.disabled).toBe(true);
  });
});
