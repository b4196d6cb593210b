import type { ApiToken, CreatedApiToken } from '@latchkey/contracts';
import { KeyRound, Plus, ShieldAlert } from 'lucide-react';
import { useState } from 'react';
import { ApiTokenCards } from '@/components/api-tokens/api-token-cards.tsx';
import { ApiTokenUsageCard } from '@/components/api-tokens/api-token-usage-card.tsx';
import { apiTokensTable } from '@/components/api-tokens/api-tokens-table.tsx';
import {
  CREATE_TOKEN_LABEL,
  CreateApiTokenDialog,
} from '@/components/api-tokens/create-api-token-dialog.tsx';
import { CreatedApiTokenDialog } from '@/components/api-tokens/created-api-token-dialog.tsx';
import { PageHeading } from '@/components/layout/page-heading.tsx';
import { SignedInLayout } from '@/components/layout/signed-in-layout.tsx';
import { Button } from '@/components/ui/button.tsx';
import { ConfirmTargetDialog } from '@/components/ui/confirm-dialog.tsx';
import { DataTable } from '@/components/ui/data-table.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { PagedQueryView } from '@/components/ui/paged-query-view.tsx';
import { SectionCard } from '@/components/ui/section-card.tsx';
import { API_TOKENS_FETCH_ERROR, useApiTokens, useRevokeApiToken } from '@/hooks/use-api-tokens.ts';
import { useApplications } from '@/hooks/use-applications.ts';
import { useAuth } from '@/hooks/use-auth.ts';
import { useDialogTarget } from '@/hooks/use-dialog-target.ts';
import { useMediaQuery } from '@/hooks/use-media-query.ts';
import { getErrorToastMessage } from '@/hooks/use-owner-mutation.ts';
import { canManageApiTokens } from '@/lib/can-manage-api-tokens.ts';

export const NO_API_TOKENS_PERMISSION =
  "You don't have permission to manage API tokens. This feature is restricted to users with the Manage API Tokens permission.";

/** Below Tailwind's lg breakpoint the eight columns do not fit: each token is a card instead. */
export const TOKEN_CARDS_MEDIA_QUERY = '(max-width: 1023.98px)';

/**
 * /api-tokens, the management API's tokens of the signed-in account. Without Manage API Tokens
 * the page says so and asks the server for nothing (it would refuse).
 */
export function ApiTokensPage() {
  const { user } = useAuth();
  const canManage = canManageApiTokens(user);
  const [isCreating, setIsCreating] = useState(false);

  return (
    <SignedInLayout>
      <div className="flex min-w-0 flex-col gap-8">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <PageHeading
            title="API Tokens"
            description="Let your own scripts, shops and bots manage your applications, end users and licence keys without signing in."
          />
          {canManage && (
            <Button onClick={() => setIsCreating(true)}>
              <Plus aria-hidden="true" />
              {CREATE_TOKEN_LABEL}
            </Button>
          )}
        </div>

        {canManage ? (
          <ApiTokensSection isCreating={isCreating} setIsCreating={setIsCreating} />
        ) : (
          <div
            role="alert"
            className="flex items-start gap-3 rounded-lg border border-destructive/40 bg-destructive/10 px-4 py-3 text-sm text-destructive"
          >
            <ShieldAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
            <p>{NO_API_TOKENS_PERMISSION}</p>
          </div>
        )}
      </div>
    </SignedInLayout>
  );
}

function ApiTokensSection({
  isCreating,
  setIsCreating,
}: {
  isCreating: boolean;
  setIsCreating: (isCreating: boolean) => void;
}) {
  const tokens = useApiTokens();
  const applications = useApplications();
  const revokeToken = useRevokeApiToken();
  // The new token's text lives here only while its dialog is shown, then is forgotten.
  const [createdToken, setCreatedToken] = useState<CreatedApiToken | null>(null);
  const [isShowingCreated, setIsShowingCreated] = useState(false);
  const revoking = useDialogTarget<ApiToken>();
  const isPhoneLayout = useMediaQuery(TOKEN_CARDS_MEDIA_QUERY);

  const listProps = {
    applications: applications.data,
    busyTokenId: revokeToken.isPending ? (revokeToken.variables ?? null) : null,
    now: Date.now(),
    onRevoke: revoking.open,
  };

  return (
    <>
      <SectionCard
        title="Your Tokens"
        description={
          <>
            Each token works until it expires or is revoked, only within its scopes and
            applications, and never beyond what your own account may do.
          </>
        }
      >
        <PagedQueryView
          query={tokens}
          loadingLabel="Loading API tokens"
          errorTitle="Error loading API tokens"
          describeError={(error) => getErrorToastMessage(error, API_TOKENS_FETCH_ERROR)}
          empty={
            <EmptyState
              icon={KeyRound}
              title="No API tokens yet"
              description="A token lets your scripts, shops and bots call the management API on your behalf, limited to the scopes and applications you choose."
              action={
                <Button onClick={() => setIsCreating(true)}>
                  <Plus aria-hidden="true" />
                  {CREATE_TOKEN_LABEL}
                </Button>
              }
            />
          }
        >
          {(rows) =>
            isPhoneLayout ? (
              <ApiTokenCards tokens={rows} {...listProps} />
            ) : (
              <DataTable table={apiTokensTable(listProps)} rows={rows} />
            )
          }
        </PagedQueryView>
      </SectionCard>

      <ApiTokenUsageCard />

      <CreateApiTokenDialog
        open={isCreating}
        onOpenChange={setIsCreating}
        onCreated={(created) => {
          setCreatedToken(created);
          setIsShowingCreated(true);
        }}
      />
      <CreatedApiTokenDialog
        created={createdToken}
        open={isShowingCreated}
        onOpenChange={setIsShowingCreated}
        onClosed={() => setCreatedToken(null)}
      />
      <ConfirmTargetDialog
        dialog={revoking}
        title="Revoke API token?"
        description={(token) => (
          <>
            <strong className="font-medium break-words text-foreground">{token.name}</strong> (
            <code className="font-mono text-xs">{token.prefix}…</code>) stops working at once: every
            script, shop or bot that uses it is refused from its next call. This cannot be undone.
          </>
        )}
        confirmLabel="Revoke Token"
        onConfirm={(token) => revokeToken.mutate(token.id)}
      />
    </>
  );
}
