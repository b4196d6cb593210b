import type { PortalAccount } from '@latchkey/contracts';
import type { PortalApi } from './portal-api.ts';

/** What a section of the signed-in page may ask of the page around it. */
export interface PortalPage {
  api: PortalApi;
  /** A newer account from the server: every section shows it. */
  accountChanged(account: PortalAccount): void;
  /**
   * The text to show for a failed call; null when the session had ended, in which case the
   * page has already gone back to the sign-in form, which says so.
   */
  failureText(error: unknown): string | null;
}

/** A message the sign-in form opens with. */
export interface Notice {
  kind: 'error' | 'status';
  text: string;
}
