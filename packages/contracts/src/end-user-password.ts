/** The minimum length of an end user's password when the installation does not choose one. */
export const DEFAULT_END_USER_PASSWORD_MIN_LENGTH = 8;

/**
 * Why a new end-user password is refused, or null when it is acceptable. The minimum is an
 * installation setting (END_USER_PASSWORD_MIN_LENGTH), so it cannot live in a static schema:
 * the server checks it after parsing, and the console learns it from GET /api/config. Only
 * new passwords are checked; a login with an older, shorter password still works.
 */
export function endUserPasswordProblem(password: string, minLength: number): string | null {
  if (password.trim() === '') return 'Password must not be only spaces';
  // Code points, not UTF-16 units: an emoji is one character to the person typing it.
  if ([...password].length < minLength) {
    return `Password must be at least ${minLength} characters`;
  }
  return null;
}
