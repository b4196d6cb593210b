import { appFileLimits } from '@latchkey/contracts';

const UNITS = ['KB', 'MB', 'GB', 'TB'] as const;

/** Sizes as people read them: "512 bytes", "1.5 MB" (1,024 per step, as file managers do). */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return bytes === 1 ? '1 byte' : `${bytes} bytes`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value >= 100 ? Math.round(value) : value.toFixed(1).replace(/\.0$/, '')} ${UNITS[unit]}`;
}

/** The first and last characters of a SHA-256, enough to tell files apart at a glance. */
export function shortenSha256(sha256: string): string {
  return `${sha256.slice(0, 8)}…${sha256.slice(-4)}`;
}

export interface UploadFields {
  file: File | null;
  name: string;
  version: string;
  platform: string;
  requiresSession: boolean;
}

export const EMPTY_UPLOAD_FIELDS: UploadFields = {
  file: null,
  name: '',
  version: '',
  platform: '',
  requiresSession: true,
};

/** The message that stops the upload, or null; the server's limit (MAX_UPLOAD_MB) is its own. */
export function validateUpload(fields: UploadFields): string | null {
  if (!fields.file) return 'Please choose a file';
  if (fields.name.trim() === '') return 'Please enter a file name';
  if (fields.name.trim().length > appFileLimits.name) {
    return `Name must be at most ${appFileLimits.name} characters`;
  }
  if (fields.version.trim() === '') return 'Please enter a version';
  if (fields.version.trim().length > appFileLimits.version) {
    return `Version must be at most ${appFileLimits.version} characters`;
  }
  if (fields.platform.trim().length > appFileLimits.platform) {
    return `Platform must be at most ${appFileLimits.platform} characters`;
  }
  return null;
}
