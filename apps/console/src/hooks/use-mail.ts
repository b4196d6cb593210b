import {
  mailMessageSchema,
  mailQueuedSchema,
  mailTemplateSchema,
  renderedMailSchema,
  type MailKind,
  type MailTemplate,
  type MailTemplateRequest,
  openedMailMessageSchema,
  type MailMessage,
  type MailStatus,
  type OpenedMailMessage,
} from '@latchkey/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api.ts';
import { toPagedList, toPageQueryString, type PagedList } from '@/lib/paged-list.ts';
import { useOwnerMutation } from './use-owner-mutation.ts';

export const MAIL_LOG_PAGE_SIZE = 20;
export const MAIL_LOG_FETCH_ERROR = 'Failed to fetch mail';
export const MAIL_MESSAGE_FETCH_ERROR = 'Failed to open the message';

const mailUrl = (applicationId: number) => `/api/applications/${applicationId}/mail`;

/** Everything about one application's mail sits under its log's URL. */
export function mailQueryKey(applicationId: number) {
  return [mailUrl(applicationId)] as const;
}

/** One page of the application's mail log (GET /api/applications/:id/mail), newest first. */
export function useMailLog({
  applicationId,
  page,
  search,
  status,
}: {
  applicationId: number;
  page: number;
  search: string;
  status: MailStatus | null;
}) {
  return useQuery({
    queryKey: [...mailQueryKey(applicationId), { page, search, status }],
    queryFn: async (): Promise<PagedList<MailMessage>> => {
      const query = toPageQueryString({
        page,
        pageSize: MAIL_LOG_PAGE_SIZE,
        search,
        status: status ?? undefined,
      });
      const response = await apiRequest('GET', `${mailUrl(applicationId)}${query}`);
      return toPagedList(response, mailMessageSchema.array().parse(await response.json()));
    },
    placeholderData: keepPreviousData,
    // The worker changes the log on its own: a revisit shows where it is now.
    refetchOnMount: 'always',
  });
}

/** One message as the local mailbox kept it; only while `messageId` is set (a dialog open). */
export function useMailMessage(applicationId: number, messageId: string | null) {
  return useQuery({
    queryKey: [...mailQueryKey(applicationId), 'message', messageId],
    queryFn: async (): Promise<OpenedMailMessage> =>
      openedMailMessageSchema.parse(
        await (await apiRequest('GET', `${mailUrl(applicationId)}/${messageId}`)).json(),
      ),
    enabled: messageId !== null,
  });
}

/** POST …/mail/:messageId/resend: a failed message queued again, the log re-read. */
export function useResendMail(applicationId: number) {
  const queryClient = useQueryClient();
  return useOwnerMutation({
    mutationFn: async (messageId: string) => {
      try {
        await apiRequest('POST', `${mailUrl(applicationId)}/${messageId}/resend`);
      } finally {
        await queryClient.invalidateQueries({ queryKey: mailQueryKey(applicationId) });
      }
    },
    successMessage: 'Mail queued to be sent again',
    errorMessage: 'Failed to send the mail again',
  });
}

/** POST …/users/:userId/password-reset: the user is mailed a link; the log re-read. */
export function useSendPasswordReset(applicationId: number) {
  const queryClient = useQueryClient();
  return useOwnerMutation({
    mutationFn: async (userId: string) => {
      const response = await apiRequest(
        'POST',
        `/api/applications/${applicationId}/users/${userId}/password-reset`,
      );
      await queryClient.invalidateQueries({ queryKey: mailQueryKey(applicationId) });
      return mailQueuedSchema.parse(await response.json());
    },
    successMessage: (sent) => sent.message,
    errorMessage: 'Failed to send the password reset',
  });
}

const templatesUrl = (applicationId: number) => `/api/applications/${applicationId}/mail-templates`;

/** Apart from the log's: re-reading the log must not wait for the templates, nor reset them. */
const templatesQueryKey = (applicationId: number) => [templatesUrl(applicationId)] as const;

/** Each kind of mail as the application words it (GET …/mail-templates). */
export function useMailTemplates(applicationId: number) {
  return useQuery({
    queryKey: templatesQueryKey(applicationId),
    queryFn: async (): Promise<MailTemplate[]> =>
      mailTemplateSchema
        .array()
        .parse(await (await apiRequest('GET', templatesUrl(applicationId))).json()),
  });
}

/** Saves one kind's wording (PUT), or goes back to the built-in one (`null`: DELETE). */
export function useSaveMailTemplate(applicationId: number) {
  const queryClient = useQueryClient();
  return useOwnerMutation({
    mutationFn: async ({
      kind,
      template,
    }: {
      kind: MailKind;
      template: MailTemplateRequest | null;
    }): Promise<MailTemplate> => {
      const response = await apiRequest(
        template === null ? 'DELETE' : 'PUT',
        `${templatesUrl(applicationId)}/${kind}`,
        template ?? undefined,
      );
      const saved = mailTemplateSchema.parse(await response.json());
      await queryClient.invalidateQueries({ queryKey: templatesQueryKey(applicationId) });
      return saved;
    },
    successMessage: (saved) =>
      saved.isDefault ? 'Template reset to the default' : 'Template saved successfully',
    errorMessage: 'Failed to save the template',
  });
}

/** A draft filled in with sample values (POST …/preview): nothing is saved. */
export function usePreviewMailTemplate(applicationId: number) {
  return useMutation({
    mutationFn: async ({ kind, template }: { kind: MailKind; template: MailTemplateRequest }) =>
      renderedMailSchema.parse(
        await (
          await apiRequest('POST', `${templatesUrl(applicationId)}/${kind}/preview`, template)
        ).json(),
      ),
  });
}

/** The saved wording, with sample values, to the owner's own address (POST …/test). */
export function useSendTestMail(applicationId: number) {
  const queryClient = useQueryClient();
  return useOwnerMutation({
    mutationFn: async (kind: MailKind) => {
      const response = await apiRequest('POST', `${templatesUrl(applicationId)}/${kind}/test`);
      await queryClient.invalidateQueries({ queryKey: mailQueryKey(applicationId) });
      return mailQueuedSchema.parse(await response.json());
    },
    successMessage: (queued) => queued.message,
    errorMessage: 'Failed to send the test mail',
  });
}
