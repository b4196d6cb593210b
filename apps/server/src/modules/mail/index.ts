export { createMailDispatcher } from './mail-dispatcher.ts';
export { createMailTransport } from './mail-transport.ts';
export type { MailOutbox } from './mail-outbox.ts';
export { createMailRequestThrottles, type MailRequestThrottles } from './mail-request-throttles.ts';
export { queuePasswordResetMail } from './queue-password-reset.ts';
export { queueEmailVerificationMail } from './queue-email-verification.ts';
export {
  requestPasswordResetMail,
  type PasswordResetRequestResult,
} from './request-password-reset-mail.ts';
export { mailRoutes, registerMailRoutes } from './routes.ts';
export { mailTemplateRoutes } from './mail-template-routes.ts';
export { mailLinkOrigin } from './mail-link-origin.ts';
export { queueMail } from './queue-mail.ts';
export { queueExpiryReminders } from './queue-expiry-reminders.ts';
export { startExpiryReminderSweep } from './expiry-reminder-sweep.ts';
export { reminderStopToken } from './reminder-stop-links.ts';
