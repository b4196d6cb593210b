import {
  sampleLanguageCatalogue,
  sampleLanguages,
  type Application,
  type SampleLanguage,
} from '@latchkey/contracts';
import { AppWindow, Plus } from 'lucide-react';
import { useEffect, useId } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { toApplicationOptions } from '@/components/applications/application-scope-select.tsx';
import { ConnectionDetails } from '@/components/integration/connection-details.tsx';
import { SamplePanel } from '@/components/integration/sample-panel.tsx';
import { SdkInstall } from '@/components/integration/sdk-install.tsx';
import { PageHeading } from '@/components/layout/page-heading.tsx';
import { SignedInLayout } from '@/components/layout/signed-in-layout.tsx';
import { Button } from '@/components/ui/button.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { Label } from '@/components/ui/label.tsx';
import { LoadErrorState } from '@/components/ui/load-error-state.tsx';
import { OptionSelect } from '@/components/ui/option-select.tsx';
import { SectionCard } from '@/components/ui/section-card.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs.tsx';
import { useApplications } from '@/hooks/use-applications.ts';
import { useAuth } from '@/hooks/use-auth.ts';
import { getErrorToastMessage } from '@/hooks/use-owner-mutation.ts';
import { useSample } from '@/hooks/use-samples.ts';
import { canEditCode } from '@/lib/can-edit-code.ts';
import {
  buildIntegrationPath,
  readIntegrationSearch,
  readRememberedApplicationId,
  rememberApplicationId,
} from '@/lib/integration-search.ts';
import { selectedOrOnlyApplication } from '@/lib/selected-or-only-application.ts';

export const APPLICATIONS_FETCH_ERROR = 'Failed to fetch applications';

/** /integration (Integration Examples, nav label Code). */
export function IntegrationPage() {
  const id = useId();
  const { user } = useAuth();
  const search = useSearch();
  const [, navigate] = useLocation();
  const applicationsQuery = useApplications({ isRefreshedOnMount: true });
  const selection = readIntegrationSearch(search);
  const applications = applicationsQuery.data ?? [];
  // The address decides (a deep link, or the back button); else the last choice on this
  // browser; else the account's only application.
  const chosenId = selection.applicationId ?? readRememberedApplicationId();
  const application = selectedOrOnlyApplication(applications, chosenId);

  const select = (next: Partial<typeof selection>) =>
    navigate(
      buildIntegrationPath({ ...selection, applicationId: application?.id ?? chosenId, ...next }),
      { replace: true },
    );

  // Only a choice is remembered (the address names it: a deep link, or the selector), never
  // the account's only application taken for the owner: once a second one exists, the owner
  // is asked instead of being held to one they never picked.
  const addressedId = application?.id === selection.applicationId ? application.id : null;
  useEffect(() => {
    if (addressedId !== null) rememberApplicationId(addressedId);
  }, [addressedId]);

  return (
    <SignedInLayout>
      <div className="flex flex-col gap-8">
        <PageHeading
          title="Integration Examples"
          description="Client code for your programs in four languages, with your application's API key, base URL and version already in it."
        />

        <SectionCard
          title="Application"
          description="The samples are rendered for the application you choose."
          contentClassName="grid gap-6"
        >
          {applicationsQuery.isPending ? (
            <div role="status" aria-busy="true">
              <span className="sr-only">Loading applications…</span>
              <Skeleton className="h-9 w-full max-w-sm" />
            </div>
          ) : applicationsQuery.isError ? (
            <LoadErrorState
              title="Error loading applications"
              description={getErrorToastMessage(applicationsQuery.error, APPLICATIONS_FETCH_ERROR)}
              isRetrying={applicationsQuery.isFetching}
              onRetry={() => void applicationsQuery.refetch()}
            />
          ) : applications.length === 0 ? (
            <EmptyState
              icon={AppWindow}
              title="No Applications"
              description="Create an application first: its samples come with its own API key."
              action={
                <Button asChild>
                  <Link href="/dashboard">
                    <Plus aria-hidden="true" />
                    Create an application
                  </Link>
                </Button>
              }
            />
          ) : (
            <>
              <div className="grid max-w-sm gap-1.5">
                <Label htmlFor={`${id}-application`}>Application</Label>
                <OptionSelect
                  id={`${id}-application`}
                  value={application ? String(application.id) : ''}
                  onValueChange={(value) => select({ applicationId: Number(value) })}
                  options={toApplicationOptions(applications)}
                  placeholder="Select an application"
                />
              </div>
              {application ? (
                <SelectedConnectionDetails application={application} />
              ) : (
                <p className="text-sm text-muted-foreground">
                  Select an application to see its API key, base URL and code samples.
                </p>
              )}
            </>
          )}
        </SectionCard>

        {application && (
          <Tabs
            value={selection.language}
            onValueChange={(value) => select({ language: value as SampleLanguage })}
            className="flex flex-col gap-4"
          >
            <TabsList aria-label="Language">
              {sampleLanguages.map((language) => (
                <TabsTrigger key={language} value={language}>
                  {sampleLanguageCatalogue[language].label}
                </TabsTrigger>
              ))}
            </TabsList>
            {sampleLanguages.map((language) => (
              <TabsContent
                key={language}
                value={language}
                // Kept mounted while hidden, so an unsaved edit survives a look at another tab.
                forceMount
                className="data-[state=inactive]:hidden"
              >
                <div className="grid gap-4">
                  <SdkInstall language={language} />
                  <SamplePanel
                    applicationId={application.id}
                    language={language}
                    canEdit={canEditCode(user)}
                  />
                </div>
              </TabsContent>
            ))}
          </Tabs>
        )}
      </div>
    </SignedInLayout>
  );
}

/** The base URL comes with a sample: only the server knows the public address. */
function SelectedConnectionDetails({ application }: { application: Application }) {
  const sampleQuery = useSample(application.id, 'csharp');
  return (
    <ConnectionDetails application={application} baseUrl={sampleQuery.data?.baseUrl ?? undefined} />
  );
}
