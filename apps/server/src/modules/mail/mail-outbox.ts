/**
 * What a verb that queues mail needs of the outbox beyond the database: whether this server
 * sends mail at all, and a nudge so what it just queued goes out now rather than at the next
 * poll (other instances find it at theirs).
 */
export interface MailOutbox {
  /** false in production without SMTP_URL: nothing is queued, the caller says why. */
  isAvailable: boolean;
  wake(): void;
}
