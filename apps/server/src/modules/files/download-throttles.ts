import { AppError } from '../../lib/errors.ts';
import type { ThrottleStore } from '../../lib/failure-throttle.ts';
import { createGuessThrottles, type Guess } from '../../lib/guess-throttles.ts';
import { keyedDigest } from '../../lib/keyed-digest.ts';

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

/** A request for a download link: from where, the token as sent, and the file it names. */
export interface DownloadAttempt {
  ipAddress: string;
  token: string;
  /** The token's first segment, whatever it is: the file it claims. */
  fileId: string;
}

/**
 * Refused download tokens (tampered, forged or expired), counted like licence-key guesses
 * (guess-throttles.ts, with the licence limits): per address, per address range and per link
 * tried (a keyed digest of the token), so a client hammering the database with bad links is
 * stopped; a 256-bit MAC is never guessed. The file a token names only slows addresses that
 * already failed once many links naming it were refused: counting forged links per file for
 * everyone would let a stranger stop every valid link of a release.
 */
export function createDownloadThrottles(options: {
  store: ThrottleStore;
  limits: Parameters<typeof createGuessThrottles>[0]['limits'];
  /** Derives the key of the links' counter digests. */
  serverSecret: string;
  sleep?: (ms: number) => Promise<unknown>;
}) {
  const throttles = createGuessThrottles({
    store: options.store,
    // The address and file counters keep the names (and rows) they had.
    names: {
      address: 'download-ip',
      range: 'download-range',
      secret: 'download-link',
      scope: 'download-file',
    },
    limits: options.limits,
    ...(options.sleep ? { sleep: options.sleep } : {}),
  });
  const guessOf = (attempt: DownloadAttempt): Guess => ({
    ipAddress: attempt.ipAddress,
    secretDigest: keyedDigest(attempt.token, 'guess-throttle', options.serverSecret),
    scope: attempt.fileId,
  });
  return {
    /** Throws DownloadThrottled once a counter is spent; may wait first (see above). */
    async admit(attempt: DownloadAttempt): Promise<void> {
      const decision = await throttles.admit(guessOf(attempt));
      if (!decision.isAllowed) throw new DownloadThrottled(decision.retryAfterSeconds);
    },
    async recordFailure(attempt: DownloadAttempt): Promise<void> {
      await throttles.recordFailure(guessOf(attempt));
    },
  };
}
