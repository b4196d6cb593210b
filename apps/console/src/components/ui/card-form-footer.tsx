import { Button } from './button.tsx';
import { Spinner } from './spinner.tsx';

/**
 * The end of a form in a card: the server's refusal, if any, read out as an alert, and the
 * submit button, which waits with a spinner while the form is being saved.
 */
export function CardFormFooter({
  problem,
  mutation,
  submitLabel,
}: {
  problem: string | null;
  /** What saves the form: the button waits while it is pending. */
  mutation: { isPending: boolean };
  submitLabel: string;
}) {
  return (
    <>
      {problem && (
        <p role="alert" className="text-sm text-destructive">
          {problem}
        </p>
      )}
      <div className="flex justify-end">
        <Button type="submit" disabled={mutation.isPending}>
          {mutation.isPending && <Spinner />}
          {submitLabel}
        </Button>
      </div>
    </>
  );
}
