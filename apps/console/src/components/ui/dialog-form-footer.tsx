import { Button } from './button.tsx';
import { DialogFooter } from './dialog.tsx';
import { Spinner } from './spinner.tsx';

/** A dialog form's Cancel and submit buttons; submit waits, with a spinner, while it is sending. */
export function DialogFormFooter({
  submitLabel,
  isSubmitting,
  onCancel,
}: {
  submitLabel: string;
  isSubmitting: boolean;
  onCancel: () => void;
}) {
  return (
    <DialogFooter>
      <Button variant="outline" onClick={onCancel}>
        Cancel
      </Button>
      <Button type="submit" disabled={isSubmitting}>
        {isSubmitting && <Spinner />}
        {submitLabel}
      </Button>
    </DialogFooter>
  );
}
