import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { useFormFields } from '@/hooks/use-form-fields.ts';
import { DialogForm, FormDialog } from './form-dialog.tsx';

/** A one-field form: a name is required; a valid one is handed to `onSend`. */
function NameForm({ onSend, onDone }: { onSend: (name: string) => void; onDone: () => void }) {
  const { fields, setField, validationError, submit } = useFormFields({
    initialFields: { name: '' },
    validate: ({ name }) => (name.trim() ? null : 'Please enter a name'),
    onValidSubmit: ({ name }) => {
      onSend(name.trim());
      onDone();
    },
  });
  return (
    <DialogForm
      title="Name Something"
      description="Give it a name."
      validationError={validationError}
      submitLabel="Save Name"
      isSubmitting={false}
      onSubmit={submit}
      onCancel={onDone}
    >
      <label>
        Name
        <input
          value={fields.name}
          onChange={(event) => setField('name', event.target.value)}
          autoFocus
        />
      </label>
    </DialogForm>
  );
}

function renderTriggered(onSend = vi.fn()) {
  render(
    <FormDialog trigger={<button type="button">Open Form</button>}>
      {(close) => <NameForm onSend={onSend} onDone={close} />}
    </FormDialog>,
  );
  return onSend;
}

const nameField = () => screen.getByRole('textbox', { name: 'Name' });

describe('FormDialog with DialogForm', () => {
  it('opens from its trigger, named by the form title and description', async () => {
    renderTriggered();
    fireEvent.click(screen.getByRole('button', { name: 'Open Form' }));
    const dialog = await screen.findByRole('dialog', { name: 'Name Something' });
    expect(dialog.getAttribute('aria-describedby')).toBeTruthy();
    expect(screen.getByText('Give it a name.')).toBeTruthy();
  });

  it('shows the validation message instead of sending, and clears it once the form is valid', async () => {
    const onSend = renderTriggered();
    fireEvent.click(screen.getByRole('button', { name: 'Open Form' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Save Name' }));
    expect(screen.getByRole('alert').textContent).toBe('Please enter a name');
    expect(onSend).not.toHaveBeenCalled();

    fireEvent.change(nameField(), { target: { value: '  Orbit  ' } });
    fireEvent.submit(nameField());
    expect(onSend).toHaveBeenCalledWith('Orbit');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('closes on Cancel and starts from empty fields when opened again', async () => {
    renderTriggered();
    fireEvent.click(screen.getByRole('button', { name: 'Open Form' }));
    fireEvent.change(await screen.findByRole('textbox', { name: 'Name' }), {
      target: { value: 'Draft' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(screen.getByRole('button', { name: 'Open Form' }));
    expect(((await screen.findByRole('textbox', { name: 'Name' })) as HTMLInputElement).value).toBe(
      '',
    );
  });

  it('is opened and closed by its parent when it has no trigger, and gives focus back', async () => {
    function Parent() {
      const [isOpen, setIsOpen] = useState(false);
      return (
        <>
          <button type="button" onClick={() => setIsOpen(true)}>
            Edit row
          </button>
          <p>{isOpen ? 'open' : 'closed'}</p>
          <FormDialog open={isOpen} onOpenChange={setIsOpen}>
            {(close) => <NameForm onSend={() => {}} onDone={close} />}
          </FormDialog>
        </>
      );
    }
    render(<Parent />);
    expect(screen.queryByRole('dialog')).toBeNull();
    const opener = screen.getByRole('button', { name: 'Edit row' });
    opener.focus();
    fireEvent.click(opener);
    await screen.findByRole('dialog', { name: 'Name Something' });
    // The form's first field took focus as it mounted, before the dialog looked for its opener.
    expect(document.activeElement).toBe(nameField());
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText('closed')).toBeTruthy();
    // Radix returns focus only to a trigger; this dialog has none, and focus still goes back.
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });
});
