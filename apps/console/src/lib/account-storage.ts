/**
 * The identifiers kept in localStorage after a successful sign-in. The session itself lives in
 * an HttpOnly cookie; these only let the client tell the server which account it believes it
 * is using (the server never trusts them alone).
 */
export const ACCOUNT_ID_KEY = 'account_id';
export const ACCOUNT_EMAIL_KEY = 'account_email';
export const FIREBASE_UID_KEY = 'firebase_uid';

export interface StoredAccount {
  accountId: string | undefined;
  email: string | null;
  firebaseUid: string;
}

// Storage can throw (privacy modes, disabled storage); losing these keys is harmless.
function safely(action: () => void): void {
  try {
    action();
  } catch {
    // ignored on purpose: see above
  }
}

export function readStoredAccountId(): string | null {
  try {
    return localStorage.getItem(ACCOUNT_ID_KEY);
  } catch {
    return null;
  }
}

export function storeAccount({ accountId, email, firebaseUid }: StoredAccount): void {
  safely(() => {
    if (accountId) localStorage.setItem(ACCOUNT_ID_KEY, accountId);
    if (email) localStorage.setItem(ACCOUNT_EMAIL_KEY, email);
    localStorage.setItem(FIREBASE_UID_KEY, firebaseUid);
  });
}

export function clearStoredAccount(): void {
  safely(() => {
    localStorage.removeItem(ACCOUNT_ID_KEY);
    localStorage.removeItem(ACCOUNT_EMAIL_KEY);
    localStorage.removeItem(FIREBASE_UID_KEY);
  });
}
