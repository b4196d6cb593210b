import type { EmulatorGoogleClaims } from './firebase.ts';

/** What the sign-in page's "Sign in with a test account" form asks for. */
export interface TestAccount {
  name: string;
  email: string;
}

export const TEST_ACCOUNT_NAME_REQUIRED = 'Please enter a name';
export const TEST_ACCOUNT_EMAIL_REQUIRED = 'Please enter an e-mail address';
export const TEST_ACCOUNT_EMAIL_INVALID = 'Please enter a valid e-mail address';
export const TEST_ACCOUNT_SIGN_IN_FAILED = 'Failed to sign in with the test account';

/** The server keeps a display name of at most 256 characters; e-mail addresses are at most 254. */
export const testAccountLimits = { name: 256, email: 254 } as const;

// Deliberately loose: something@domain.tld, nothing more. The emulator stores any address;
// this only catches a slip of the keyboard before the sign-in is tried.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type TestAccountProblems = Partial<Record<keyof TestAccount, string>>;

/** What stops the form from being sent, per field; empty when it may be sent. */
export function findTestAccountProblems({ name, email }: TestAccount): TestAccountProblems {
  const problems: TestAccountProblems = {};
  if (!name.trim()) problems.name = TEST_ACCOUNT_NAME_REQUIRED;
  const trimmedEmail = email.trim();
  if (!trimmedEmail) problems.email = TEST_ACCOUNT_EMAIL_REQUIRED;
  else if (trimmedEmail.length > testAccountLimits.email || !EMAIL_PATTERN.test(trimmedEmail)) {
    problems.email = TEST_ACCOUNT_EMAIL_INVALID;
  }
  return problems;
}

/**
 * The Google claims a test account signs in to the Auth emulator with. The `sub` (Google's
 * account id, which the emulator maps to one Firebase user) is derived from the e-mail alone,
 * so the same address signs in as the same owner every time, whatever name is typed and
 * however the address is capitalised.
 */
export function testAccountClaims({ name, email }: TestAccount): EmulatorGoogleClaims {
  const normalizedEmail = email.trim().toLowerCase();
  return { sub: `test-account:${normalizedEmail}`, email: normalizedEmail, name: name.trim() };
}
