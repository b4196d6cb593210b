import { keyedDigest } from '../../lib/keyed-digest.ts';

/**
 * The proof in a reminder's stop link: a keyed digest of the end user's id. It needs no
 * stored token and stays valid for as long as reminders come, and it stops reminders only,
 * for that user only.
 */
export const reminderStopToken = (appUserId: string, serverSecret: string): string =>
  keyedDigest(appUserId, 'reminder-stop', serverSecret);

/**
 * Where a reminder's reader stops them: the portal's page (the link in the text) and the
 * address a mail program posts to for a one-click unsubscribe (`List-Unsubscribe`).
 */
export function reminderStopLinks(input: {
  origin: string;
  portalPublicId: string;
  appUserId: string;
  serverSecret: string;
}): { page: string; oneClick: string } {
  const query = `user=${input.appUserId}&token=${reminderStopToken(input.appUserId, input.serverSecret)}`;
  return {
    page: `${input.origin}/portal/${input.portalPublicId}/unsubscribe?${query}`,
    oneClick: `${input.origin}/api/portal/${input.portalPublicId}/reminders/stop?${query}`,
  };
}
