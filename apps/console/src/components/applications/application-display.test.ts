import { describe, expect, it } from 'vitest';
import {
  formatShortDate,
  maskApiKey,
  previewApiKey,
  truncateForPreview,
} from './application-display.ts';

const API_KEY = 'lk_live_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcdefgh';

describe('maskApiKey', () => {
  it('keeps the first 12 and last 8 characters around 20 bullets', () => {
    const masked = maskApiKey(API_KEY);

    expect(masked).toBe(`lk_live_AbCd${'•'.repeat(20)}abcdefgh`);
    expect(masked).toHaveLength(40);
    expect(masked).not.toContain('MnOpQrSt');
  });
});

describe('truncateForPreview', () => {
  it('shows the first 8 characters of a longer value', () => {
    expect(truncateForPreview(API_KEY)).toBe('lk_live_...');
    expect(truncateForPreview('HWID-1234-5678')).toBe('HWID-123...');
  });

  it('leaves a value of 8 characters or fewer whole', () => {
    expect(truncateForPreview('ABCDEFGH')).toBe('ABCDEFGH');
    expect(truncateForPreview('abc')).toBe('abc');
  });
});

describe('previewApiKey', () => {
  it('shows the first 8 characters after the prefix every key shares', () => {
    expect(previewApiKey(API_KEY)).toBe('lk_live_AbCdEfGh...');
    // Two keys the old preview showed alike ('lk_live_...') now read apart.
    const other = API_KEY.replace('AbCd', 'ZyXw');
    expect(previewApiKey(other)).not.toBe(previewApiKey(API_KEY));
    // It begins like the dashboard's mask, so a key is recognised from page to page.
    expect(maskApiKey(API_KEY).startsWith(previewApiKey(API_KEY).slice(0, 12))).toBe(true);
  });

  it('falls back to the first 8 characters of a key without the prefix', () => {
    expect(previewApiKey('legacy-key-0123')).toBe('legacy-k...');
  });
});

describe('formatShortDate', () => {
  it('is a short en-US date', () => {
    expect(formatShortDate('2025-03-14T12:00:00.000Z')).toBe('3/14/2025');
  });
});
