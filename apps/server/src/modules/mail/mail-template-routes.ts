import {
  applicationParamsSchema,
  MAIL_OFF_FOR_OWNER,
  mailQueuedSchema,
  mailTemplateParamsSchema,
  mailTemplateRequestSchema,
  mailTemplateSchema,
  renderedMailSchema,
  type MailKind,
  type MailTemplate,
  type RenderedMail,
} from '@latchkey/contracts';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { recordOwnerWrite } from '../../audit/record-owner-write.ts';
import { mailTemplates } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { ok } from '../../http/route-contract.ts';
import { routeDefiner } from '../../http/route-definition.ts';
import { AppError, badRequest } from '../../lib/errors.ts';
import { loadOwnedApplication } from '../../ownership/load-owned-application.ts';
import type { MailOutbox } from './mail-outbox.ts';
import { sampleValues, templatesOf } from './mail-templates.ts';
import { queueMail } from './queue-mail.ts';
import { mailTemplateProblem, renderMail } from './render-mail.ts';

export interface MailTemplateServices {
  serverSecret: string;
  mail: MailOutbox;
  /** Where links in mail point (PUBLIC_ORIGIN, or this server in development). */
  linkOrigin: string;
}

const defineRoute = routeDefiner<MailTemplateServices>();

/** The template as sent, or a 400 naming the part and what is wrong with it. */
function checkedTemplate(body: z.output<typeof mailTemplateRequestSchema>) {
  for (const part of ['subject', 'text', 'html'] as const) {
    const problem = mailTemplateProblem(body[part]);
    if (problem) throw badRequest(`${part}: ${problem}`);
  }
  return body;
}

const templateOf = async (ctx: OwnerContext, applicationId: number, kind: MailKind) =>
  (await templatesOf(ctx.db, applicationId)).find((template) => template.kind === kind)!;

async function saveTemplate(
  ctx: OwnerContext,
  input: {
    applicationId: number;
    kind: MailKind;
    template: z.output<typeof mailTemplateRequestSchema> | null;
  },
): Promise<MailTemplate> {
  const application = await loadOwnedApplication({ ctx, input });
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    if (input.template === null) {
      await tx
        .delete(mailTemplates)
        .where(
          and(eq(mailTemplates.applicationId, application.id), eq(mailTemplates.kind, input.kind)),
        );
    } else {
      await tx
        .insert(mailTemplates)
        .values({
          applicationId: application.id,
          kind: input.kind,
          ...input.template,
          updatedAt: now,
        })
        .onConflictDoUpdate({
          target: [mailTemplates.applicationId, mailTemplates.kind],
          set: { ...input.template, updatedAt: now },
        });
    }
    await recordOwnerWrite({
      ctx: { ...ctx, db: tx },
      input: {
        action: input.template === null ? 'mail_template_reset' : 'mail_template_saved',
        application: { id: application.id, name: application.name },
        target: { kind: 'mail_template', id: input.kind, label: input.kind },
        ...(input.template === null ? {} : { change: { subject: input.template.subject } }),
      },
    });
  });
  return templateOf(ctx, application.id, input.kind);
}

/** An application's mail templates: each kind's wording, a preview, a test to oneself. */
export const mailTemplateRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/applications/:id/mail-templates',
    permission: 'signed_in',
    caller: 'owner',
    tag: 'Mail',
    summary: 'Each kind of mail as the application words it',
    description:
      'Every kind (password_reset, email_verification, license_key, expiry_reminder, new_device), the built-in wording where the application kept it (`isDefault`).',
    params: applicationParamsSchema,
    responses: { 200: ok(z.array(mailTemplateSchema)) },
    handle: async ({ params, request }): Promise<MailTemplate[]> => {
      const ctx = request.owner!;
      await loadOwnedApplication({ ctx, input: { applicationId: params.id } });
      return templatesOf(ctx.db, params.id);
    },
  }),
  defineRoute({
    method: 'PUT',
    path: '/api/applications/:id/mail-templates/:kind',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'Mail',
    summary: 'Word one kind of mail',
    description:
      'Mustache: `{{name}}` for each value the kind offers. Values are escaped in the HTML body; `{{{name}}}`, `{{&name}}` and partials are refused (400), as is a subject of more than one line.',
    params: mailTemplateParamsSchema,
    body: mailTemplateRequestSchema,
    responses: { 200: ok(mailTemplateSchema) },
    handle: async ({ params, body, request }): Promise<MailTemplate> =>
      saveTemplate(request.owner!, {
        applicationId: params.id,
        kind: params.kind,
        template: checkedTemplate(body),
      }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/applications/:id/mail-templates/:kind',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'Mail',
    summary: 'Go back to the built-in wording of one kind of mail',
    params: mailTemplateParamsSchema,
    responses: { 200: ok(mailTemplateSchema, 'The built-in wording, now in use.') },
    handle: async ({ params, request }): Promise<MailTemplate> =>
      saveTemplate(request.owner!, { applicationId: params.id, kind: params.kind, template: null }),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/applications/:id/mail-templates/:kind/preview',
    permission: 'signed_in',
    caller: 'owner',
    tag: 'Mail',
    summary: 'A template filled in with sample values (nothing is saved or sent)',
    params: mailTemplateParamsSchema,
    body: mailTemplateRequestSchema,
    responses: { 200: ok(renderedMailSchema) },
    handle: async ({ params, body, request }, { linkOrigin }): Promise<RenderedMail> => {
      const application = await loadOwnedApplication({
        ctx: request.owner!,
        input: { applicationId: params.id },
      });
      return renderMail(checkedTemplate(body), sampleValues(application.name, linkOrigin));
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/applications/:id/mail-templates/:kind/test',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'Mail',
    summary: 'Send the saved wording, with sample values, to your own address',
    description:
      'To the signed-in account\u2019s e-mail address; 409 when the server sends no mail.',
    params: mailTemplateParamsSchema,
    responses: { 202: ok(mailQueuedSchema, 'Queued.') },
    errors: [409],
    handle: async ({ params, request, reply }, { mail, serverSecret, linkOrigin }) => {
      const ctx = request.owner!;
      const application = await loadOwnedApplication({ ctx, input: { applicationId: params.id } });
      if (!mail.isAvailable) throw new AppError('CONFLICT', MAIL_OFF_FOR_OWNER);
      await queueMail(ctx.db, {
        applicationId: application.id,
        kind: params.kind,
        recipient: ctx.account.email,
        values: sampleValues(application.name, linkOrigin),
        serverSecret,
      });
      mail.wake();
      return reply
        .status(202)
        .send({ message: `A test mail is on its way to ${ctx.account.email}` });
    },
  }),
];
