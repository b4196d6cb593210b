import { screen } from '@testing-library/react';

/**
 * A toast by its text, once it shows. Found by markup (a toast is a list item of the toaster):
 * it is portaled, and stays in the DOM while a modal dialog hides the rest from the
 * accessibility tree.
 */
export function findToast(text: string): Promise<HTMLElement> {
  return screen.findByText(text, { selector: 'li *' });
}
