import { mailKindLabels, type MailMessage } from '@latchkey/contracts';
import { formatDateTime } from '@/components/applications/application-display.ts';
import { ItemDialog } from '@/components/ui/item-dialog.tsx';
import { LoadErrorState } from '@/components/ui/load-error-state.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import type { DialogOpenState } from '@/hooks/use-dialog-target.ts';
import { MAIL_MESSAGE_FETCH_ERROR, useMailMessage } from '@/hooks/use-mail.ts';
import { getErrorToastMessage } from '@/hooks/use-owner-mutation.ts';
import { textWithLinks } from './mail-display.ts';

/**
 * One message of the local mailbox (development without an SMTP server), as its reader would
 * see it: the subject and the text body, its links live (a reset link opens the portal's page).
 */
export function MailMessageDialog({
  applicationId,
  message,
  ...openState
}: DialogOpenState & { applicationId: number; message: MailMessage | null }) {
  return (
    <ItemDialog
      item={message}
      {...openState}
      className="sm:max-w-2xl"
      title={message ? mailKindLabels[message.kind] : 'Message'}
      description={
        message ? (
          <>
            To {message.to}
            {message.sentAt ? `, ${formatDateTime(message.sentAt)}` : null}. Kept by the local
            mailbox: this server sends no mail out.
          </>
        ) : null
      }
      descriptionClassName="break-words"
    >
      {({ id }) => <MessageContent applicationId={applicationId} messageId={id} />}
    </ItemDialog>
  );
}

function MessageContent({
  applicationId,
  messageId,
}: {
  applicationId: number;
  messageId: string;
}) {
  const query = useMailMessage(applicationId, messageId);
  if (query.isPending) {
    return (
      <div role="status" aria-label="Loading the message" className="flex flex-col gap-2">
        <Skeleton className="h-5 w-2/3" />
        <Skeleton className="h-24 w-full" />
      </div>
    );
  }
  if (query.isError) {
    return (
      <LoadErrorState
        title="Error opening the message"
        description={getErrorToastMessage(query.error, MAIL_MESSAGE_FETCH_ERROR)}
        isRetrying={query.isFetching}
        onRetry={() => void query.refetch()}
      />
    );
  }
  const { content } = query.data;
  if (!content) {
    return (
      <p className="text-sm text-muted-foreground">
        The mail server has this message: nothing of its text is kept here.
      </p>
    );
  }
  return (
    <div className="flex min-w-0 flex-col gap-3">
      <p className="font-medium break-words">{content.subject}</p>
      <div
        className="max-h-[60vh] overflow-auto rounded-md border bg-muted/40 p-3 font-mono text-sm break-words whitespace-pre-wrap"
        aria-label="Message text"
        role="document"
      >
        {textWithLinks(content.text).map((piece, index) =>
          piece.isLink ? (
            <a
              key={index}
              href={piece.text}
              target="_blank"
              rel="noreferrer noopener"
              className="break-all text-primary underline underline-offset-2"
            >
              {piece.text}
            </a>
          ) : (
            <span key={index}>{piece.text}</span>
          ),
        )}
      </div>
    </div>
  );
}
