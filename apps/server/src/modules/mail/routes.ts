import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  appUserParamsSchema,
  applicationParamsSchema,
  mailQueuedSchema,
  mailListQuerySchema,
  mailMessageParamsSchema,
  mailMessageSchema,
  openedMailMessageSchema,
  type MailMessage,
  type OpenedMailMessage,
} from '@latchkey/contracts';
import type { AppDependencies } from '../../http/app-dependencies.ts';
import { setPagingHeaders } from '../../http/paging-headers.ts';
import { ok, paged } from '../../http/route-contract.ts';
import { registerRoutes, routeDefiner } from '../../http/route-definition.ts';
import { listMailMessages } from './list-mail-messages.ts';
import { openMailMessage } from './open-mail-message.ts';
import { resendMailMessage } from './resend-mail-message.ts';
import { sendPasswordResetAsOwner } from './send-password-reset-as-owner.ts';
import { mailTemplateRoutes } from './mail-template-routes.ts';
import { mailLinkOrigin } from './mail-link-origin.ts';
import type { MailOutbox } from './mail-outbox.ts';

const defineRoute = routeDefiner<{
  serverSecret: string;
  mail: MailOutbox;
  /** Has this instance's mail worker (if it runs one) send what was queued now. */
  wakeDispatcher: () => void;
}>();

/** An application's mail log, and the owner's own mail to an end user. */
export const mailRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/applications/:id/mail',
    permission: 'signed_in',
    caller: 'owner',
    tag: 'Mail',
    summary: 'An application\u2019s mail log',
    description:
      'Every message to its end users, newest first: to whom, which kind, its status and attempts, the last error. `status` keeps one status; `search` looks in the address and the subject.',
    params: applicationParamsSchema,
    query: mailListQuerySchema,
    responses: { 200: paged(z.array(mailMessageSchema), 'Messages, newest first.') },
    handle: async ({ params, query, request, reply }): Promise<MailMessage[]> => {
      const page = await listMailMessages({
        ctx: request.owner!,
        input: { ...query, applicationId: params.id },
      });
      setPagingHeaders(reply, query, page);
      return page.rows;
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/applications/:id/mail/:messageId',
    permission: 'signed_in',
    caller: 'owner',
    tag: 'Mail',
    summary: 'One message, with its text where the local mailbox kept it',
    description:
      'In development without SMTP_URL, mail goes to a local mailbox: `content` is the message as it would be read. Elsewhere `content` is null (the mail server has it; nothing of its text is kept).',
    params: mailMessageParamsSchema,
    responses: { 200: ok(openedMailMessageSchema) },
    handle: async ({ params, request }, { serverSecret }): Promise<OpenedMailMessage> =>
      openMailMessage({
        ctx: request.owner!,
        input: { applicationId: params.id, messageId: params.messageId },
        serverSecret,
      }),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/applications/:id/mail/:messageId/resend',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'Mail',
    summary: 'Send a failed message again (409 unless it failed)',
    params: mailMessageParamsSchema,
    responses: { 200: ok(mailMessageSchema) },
    errors: [409],
    handle: async ({ params, request }, { wakeDispatcher }): Promise<MailMessage> => {
      const message = await resendMailMessage({
        ctx: request.owner!,
        input: { applicationId: params.id, messageId: params.messageId },
      });
      wakeDispatcher();
      return message;
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/applications/:appId/users/:userId/password-reset',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'Mail',
    summary: 'Mail an end user a link to choose a new password',
    description:
      'The link password/forgot mails (30 minutes, once). 409 when the user has no e-mail address or the server sends no mail.',
    params: appUserParamsSchema,
    responses: { 202: ok(mailQueuedSchema, 'Queued.') },
    errors: [409],
    handle: async ({ params, request, reply }, { mail, serverSecret }) => {
      const sent = await sendPasswordResetAsOwner({
        ctx: request.owner!,
        input: { applicationId: params.appId, userId: params.userId },
        mail,
        serverSecret,
      });
      return reply.status(202).send(sent);
    },
  }),
];

/** The mail log's routes, inside the owner scope. */
export function registerMailRoutes(
  app: FastifyInstance,
  deps: Pick<AppDependencies, 'config'> & { mail: MailOutbox },
) {
  const { config } = deps;
  registerRoutes(app, mailTemplateRoutes, {
    serverSecret: config.serverSecret,
    mail: deps.mail,
    linkOrigin: mailLinkOrigin(config),
  });
  registerRoutes(app, mailRoutes, {
    serverSecret: config.serverSecret,
    mail: deps.mail,
    wakeDispatcher: () => app.mailDispatcher?.wake(),
  });
}
