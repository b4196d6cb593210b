import { describe, expect, it } from 'vitest';
import {
  EMPTY_UPLOAD_FIELDS,
  formatFileSize,
  shortenSha256,
  validateUpload,
} from './file-display.ts';

describe('file display', () => {
  it('formats sizes as file managers do', () => {
    expect(formatFileSize(0)).toBe('0 bytes');
    expect(formatFileSize(1)).toBe('1 byte');
    expect(formatFileSize(1023)).toBe('1023 bytes');
    expect(formatFileSize(1024)).toBe('1 KB');
    expect(formatFileSize(1536)).toBe('1.5 KB');
    expect(formatFileSize(6 * 1024 * 1024)).toBe('6 MB');
    expect(formatFileSize(512 * 1024 * 1024)).toBe('512 MB');
    expect(formatFileSize(1.25 * 1024 ** 3)).toBe('1.3 GB');
  });

  it('shortens a SHA-256 to its ends', () => {
    expect(shortenSha256('a'.repeat(8) + 'b'.repeat(52) + 'cdef')).toBe('aaaaaaaa…cdef');
  });

  it('asks for a file, a name and a version before uploading', () => {
    const file = new File(['x'], 'a.bin');
    expect(validateUpload(EMPTY_UPLOAD_FIELDS)).toBe('Please choose a file');
    expect(validateUpload({ ...EMPTY_UPLOAD_FIELDS, file, name: ' ' })).toBe(
      'Please enter a file name',
    );
    expect(validateUpload({ ...EMPTY_UPLOAD_FIELDS, file, name: 'a.bin' })).toBe(
      'Please enter a version',
    );
    expect(
      validateUpload({ ...EMPTY_UPLOAD_FIELDS, file, name: 'a.bin', version: 'x'.repeat(65) }),
    ).toBe('Version must be at most 64 characters');
    expect(
      validateUpload({ ...EMPTY_UPLOAD_FIELDS, file, name: 'a.bin', version: '1' }),
    ).toBeNull();
  });
});
