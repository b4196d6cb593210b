import { createSecretSealer } from '../../lib/secret-sealing.ts';
import type { RenderedMail } from './render-mail.ts';

/**
 * The local mailbox's copy of a delivered message (development without SMTP): sealed like
 * the secrets it may show, since a reset link in it is one.
 */
const mailContentSealer = createSecretSealer('latchkey mail content v1', 'mail content');

export const sealMailContent = (mail: RenderedMail, serverSecret: string): string =>
  mailContentSealer.seal(JSON.stringify(mail), serverSecret);

export const unsealMailContent = (sealed: string, serverSecret: string): RenderedMail =>
  JSON.parse(mailContentSealer.unseal(sealed, serverSecret)) as RenderedMail;
