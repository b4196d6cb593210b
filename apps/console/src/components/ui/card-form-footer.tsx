import { Button } from './button.tsx';
import { Spinner } from './spinner.tsx';

/**
 * The end of a form in a card: the server's refusal, if any, read out as an alert, and the
 * submit button, which waits with a spinner while the form is being saved.
 */
export function CardFormFooter({
  problem,
  submitLabel,
  isSubmitting,
}: {
  problem: string | null;
  submitLabel: string;
  isSubmitting: boolean;
}) {
  return (
    <>
      {problem && (
        <p role="alert" className="text-sm text-destructive">
          {problem}
        </p>
      )}
      <div className="flex justify-end">
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting && <Spinner />}
          {submitLabel}
        </Button>
      </div>
    </>
  );
}
