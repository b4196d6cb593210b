import { and, eq } from 'drizzle-orm';
import type { MailKind, MailTemplate as MailTemplateResponse } from '@latchkey/contracts';
import type { Database } from '../../db/client.ts';
import { mailTemplates } from '../../db/schema/index.ts';
import { defaultMailTemplates, type MailTemplate } from './default-mail-templates.ts';

/** The template the worker renders a kind of mail with: the application's, else the default. */
export async function templateFor(
  db: Database,
  applicationId: number,
  kind: MailKind,
): Promise<MailTemplate> {
  const [own] = await db
    .select({ subject: mailTemplates.subject, text: mailTemplates.text, html: mailTemplates.html })
    .from(mailTemplates)
    .where(and(eq(mailTemplates.applicationId, applicationId), eq(mailTemplates.kind, kind)));
  return own ?? defaultMailTemplates[kind];
}

/** Every kind, as the application words it now (the default where it kept it). */
export async function templatesOf(
  db: Database,
  applicationId: number,
): Promise<MailTemplateResponse[]> {
  const own = await db
    .select()
    .from(mailTemplates)
    .where(eq(mailTemplates.applicationId, applicationId));
  const byKind = new Map(own.map((row) => [row.kind, row]));
  return (Object.keys(defaultMailTemplates) as MailKind[]).map((kind) => {
    const row = byKind.get(kind);
    const template = row ?? defaultMailTemplates[kind];
    return {
      kind,
      subject: template.subject,
      text: template.text,
      html: template.html,
      isDefault: row === undefined,
    };
  });
}

/** Values that stand in for a real message's in a preview and a test mail. */
export function sampleValues(applicationName: string, linkOrigin: string): Record<string, string> {
  return {
    username: 'sample_user',
    app_name: applicationName,
    link: `${linkOrigin}/portal/00000000000000000000/reset?token=this-is-a-sample-link`,
    link_minutes: '30',
    key: 'SAMPLE-KEY00-00000-00000-00000',
    plan: 'Pro (sample)',
    order: 'ORDER-1001 (sample)',
    expires_on: new Date(Date.now() + 7 * 86_400_000).toDateString(),
    unsubscribe_link: `${linkOrigin}/portal/00000000000000000000/unsubscribe?token=sample`,
    device_name: 'Sample PC',
    time: new Date().toUTCString(),
  };
}
