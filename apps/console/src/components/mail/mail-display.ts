import type { MailStatus } from '@latchkey/contracts';
import type { BadgeVariant } from '@/components/ui/badge.tsx';

export const mailStatusLabels: Record<MailStatus, string> = {
  queued: 'Queued',
  sending: 'Sending',
  sent: 'Sent',
  retrying: 'Retrying',
  failed: 'Failed',
};

export const mailStatusVariants: Record<MailStatus, BadgeVariant> = {
  queued: 'secondary',
  sending: 'outline',
  sent: 'success',
  retrying: 'warning',
  failed: 'danger',
};

/** The pieces of a plain-text body: text, and the web addresses in it (shown as links). */
export function textWithLinks(text: string): { text: string; isLink: boolean }[] {
  const pieces: { text: string; isLink: boolean }[] = [];
  let last = 0;
  for (const match of text.matchAll(/https?:\/\/[^\s<>"]+/g)) {
    if (match.index > last) pieces.push({ text: text.slice(last, match.index), isLink: false });
    pieces.push({ text: match[0], isLink: true });
    last = match.index + match[0].length;
  }
  if (last < text.length) pieces.push({ text: text.slice(last), isLink: false });
  return pieces;
}
