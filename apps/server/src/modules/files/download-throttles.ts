import type { Config } from '../../config.ts';
import { AppError } from '../../lib/errors.ts';
import { createFailureThrottle, type ThrottleStore } from '../../lib/failure-throttle.ts';

export const DOWNLOAD_GUESSES_THROTTLED = 'Too many refused download links';

/** A 429 with when to try again (the download route's error hook adds Retry-After). */
export class DownloadThrottled extends AppError {
  readonly retryAfterSeconds: number;

  constructor(retryAfterSeconds: number) {
    super(
      'RATE_LIMITED',
      `${DOWNLOAD_GUESSES_THROTTLED}. Try again in ${retryAfterSeconds} seconds.`,
    );
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/**
 * Refused download tokens (tampered, forged or expired), counted like licence-key guesses
 * (guide: a guess of a secret is throttled in the shared store, per IP and per target): per
 * IP address, and per file the token names, so many addresses guessing one file's MAC are
 * held too. With the licence limits (20 and 200 in the failure window by default): a 256-bit
 * MAC is never guessed, this only stops a client hammering the database with bad links.
 */
export function createDownloadThrottles(options: {
  store: ThrottleStore;
  limits: Pick<
    Config['clientApi'],
    'licenseIpFailureLimit' | 'licenseAppFailureLimit' | 'loginFailureWindowMs'
  >;
}) {
  const { store, limits } = options;
  const windowMs = limits.loginFailureWindowMs;
  const perIp = createFailureThrottle({
    store,
    name: 'download-ip',
    maxFailures: limits.licenseIpFailureLimit,
    windowMs,
  });
  const perFile = createFailureThrottle({
    store,
    name: 'download-file',
    maxFailures: limits.licenseAppFailureLimit,
    windowMs,
  });
  return {
    /** Throws DownloadThrottled once the address's or the file's counter is spent. */
    async admit(attempt: { ipAddress: string; fileId: string }): Promise<void> {
      const [ip, file] = await Promise.all([
        perIp.check(attempt.ipAddress),
        perFile.check(attempt.fileId),
      ]);
      if (!ip.isAllowed || !file.isAllowed) {
        throw new DownloadThrottled(Math.max(ip.retryAfterSeconds, file.retryAfterSeconds));
      }
    },
    async recordFailure(attempt: { ipAddress: string; fileId: string }): Promise<void> {
      await Promise.all([
        perIp.recordFailure(attempt.ipAddress),
        perFile.recordFailure(attempt.fileId),
      ]);
    },
  };
}
