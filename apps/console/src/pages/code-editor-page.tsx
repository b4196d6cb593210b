import { ShieldAlert, Crown } from 'lucide-react';
import { CodeTemplateCard } from '@/components/code-editor/code-template-card.tsx';
import { ReferenceDocuments } from '@/components/code-editor/reference-documents.tsx';
import { YourPermissionsCard } from '@/components/code-editor/your-permissions-card.tsx';
import { PageHeading } from '@/components/layout/page-heading.tsx';
import { SignedInLayout } from '@/components/layout/signed-in-layout.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { useAuth } from '@/hooks/use-auth.ts';
import { canEditCode } from '@/lib/can-edit-code.ts';

export const NO_PERMISSION_MESSAGE =
  "You don't have permission to access the code editor. This feature is restricted to users with code editing privileges.";

/**
 * /code-editor: the code template, the account's reference documents with their history, and
 * the Your Permissions card. Without edit_code the page says so in its fixed words; the
 * documents stay readable, read-only, since they are the account's own (the server refuses
 * every write the same way).
 */
export function CodeEditorPage() {
  const { user } = useAuth();
  const canEdit = canEditCode(user);
  return (
    <SignedInLayout>
      <div className="flex min-w-0 flex-col gap-8">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <PageHeading
            title="Code Editor"
            description="Your client code template and reference documents, with a history of every save."
          />
          {user?.userPermissions.role === 'owner' && (
            <Badge variant="warning" className="text-sm">
              <Crown aria-hidden="true" />
              Site Owner
            </Badge>
          )}
        </div>

        {!canEdit && (
          <div
            role="alert"
            className="flex items-start gap-3 rounded-lg border border-destructive/40 bg-destructive/10 px-4 py-3 text-sm text-destructive"
          >
            <ShieldAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
            <p>{NO_PERMISSION_MESSAGE}</p>
          </div>
        )}

        {canEdit && <CodeTemplateCard />}
        <ReferenceDocuments canEdit={canEdit} />
        {user && <YourPermissionsCard user={user} />}
      </div>
    </SignedInLayout>
  );
}
