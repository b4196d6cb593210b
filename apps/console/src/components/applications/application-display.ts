import { API_KEY_PREFIX } from '@latchkey/contracts';
import { onFirstUse } from '@/lib/on-first-use.ts';

/** The dashboard's key mask: the first 12 characters, 20 bullets, then the last 8. */
export const API_KEY_MASK_PREFIX_LENGTH = 12;
export const API_KEY_MASK_BULLET_COUNT = 20;
export const API_KEY_MASK_SUFFIX_LENGTH = 8;

/** The management page and the HWID column show the first 8 characters. */
export const SHORT_PREVIEW_LENGTH = 8;

/**
 * The dashboard's masked API key. Enough of both ends stays visible to tell keys apart at a
 * glance, while the middle (most of the secret) stays off screen until revealed.
 */
export function maskApiKey(apiKey: string): string {
  return (
    apiKey.slice(0, API_KEY_MASK_PREFIX_LENGTH) +
    '•'.repeat(API_KEY_MASK_BULLET_COUNT) +
    apiKey.slice(-API_KEY_MASK_SUFFIX_LENGTH)
  );
}

/** The first 8 characters, with an ellipsis when something was cut off. */
export function truncateForPreview(value: string): string {
  return value.length > SHORT_PREVIEW_LENGTH ? `${value.slice(0, SHORT_PREVIEW_LENGTH)}...` : value;
}

/**
 * The overview's API key preview (the first 8 characters). Every key starts with the same
 * `lk_live_`, so its first 8 characters would name no key in particular: the preview keeps the
 * prefix and shows the first 8 characters after it, the part that tells keys apart (and the
 * start of what the dashboard's mask shows). The key format itself stays, since clients and
 * samples depend on it.
 */
export function previewApiKey(apiKey: string): string {
  return apiKey.startsWith(API_KEY_PREFIX)
    ? API_KEY_PREFIX + truncateForPreview(apiKey.slice(API_KEY_PREFIX.length))
    : truncateForPreview(apiKey);
}

const dateTimeFormat = onFirstUse(
  () => new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }),
);

/**
 * "Created" is a short en-US date in the viewer's time zone, e.g. 3/14/2025: what
 * `Intl.DateTimeFormat('en-US')` writes, put together by hand so that the dashboard's table
 * does not build a formatter (see on-first-use.ts) for three numbers.
 */
export function formatShortDate(isoDateTime: string): string {
  const date = new Date(isoDateTime);
  return `${date.getMonth() + 1}/${date.getDate()}/${date.getFullYear()}`;
}

/** A date and time in the viewer's own time zone, e.g. "Mar 14, 2025, 4:05 PM". */
export function formatDateTime(isoDateTime: string): string {
  return dateTimeFormat().format(new Date(isoDateTime));
}
