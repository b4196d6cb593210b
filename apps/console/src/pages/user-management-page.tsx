import { ShieldAlert } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { PageHeading } from '@/components/layout/page-heading.tsx';
import { SignedInLayout } from '@/components/layout/signed-in-layout.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs.tsx';
import { AuditTrailPanel } from '@/components/user-management/audit-trail-panel.tsx';
import { SiteAccountsPanel } from '@/components/user-management/site-accounts-panel.tsx';
import { SiteOverviewPanel } from '@/components/user-management/site-overview-panel.tsx';
import { useAuth } from '@/hooks/use-auth.ts';
import { getSiteAdminAccess } from '@/lib/site-admin-access.ts';

export const NO_USER_MANAGEMENT_PERMISSION =
  "You don't have permission to manage users. This feature is restricted to administrators and site owners.";

function NoPermissionAlert() {
  return (
    <div
      role="alert"
      className="flex items-start gap-3 rounded-lg border border-destructive/30 bg-destructive/10 p-4 text-sm text-destructive"
    >
      <ShieldAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <p>{NO_USER_MANAGEMENT_PERMISSION}</p>
    </div>
  );
}

type Section = 'users' | 'overview' | 'audit';

/**
 * A tab's panel, mounted on its first visit and then kept (hidden while another tab shows),
 * so a search typed in one tab, or the page reached in it, is still there on coming back;
 * a tab never opened costs no request.
 */
function KeptTabContent({
  value,
  active,
  visited,
  children,
}: {
  value: Section;
  active: Section;
  visited: ReadonlySet<Section>;
  children: ReactNode;
}) {
  if (!visited.has(value)) return null;
  return (
    <TabsContent value={value} forceMount hidden={value !== active}>
      {children}
    </TabsContent>
  );
}

/**
 * /user-management: the site's accounts, plus the site overview and the audit trail, each
 * shown only to those allowed; the server refuses the others' calls anyway.
 */
export function UserManagementPage() {
  const { user } = useAuth();
  const access = getSiteAdminAccess(user);
  const usersSection = access.canManageUsers ? <SiteAccountsPanel /> : <NoPermissionAlert />;
  const hasMoreSections = access.canViewOverview || access.canViewAuditTrail;
  const [active, setActive] = useState<Section>('users');
  const [visited, setVisited] = useState<ReadonlySet<Section>>(() => new Set(['users']));
  const visit = (value: string) => {
    const section = value as Section;
    setActive(section);
    setVisited((before) => new Set(before).add(section));
  };

  return (
    <SignedInLayout>
      <div className="flex flex-col gap-8">
        <PageHeading
          title="User Management"
          description="The accounts of this installation: their roles, permissions and status."
        />
        {hasMoreSections ? (
          <Tabs value={active} onValueChange={visit} className="flex flex-col gap-4">
            <TabsList aria-label="User management sections">
              <TabsTrigger value="users">Users</TabsTrigger>
              {access.canViewOverview && <TabsTrigger value="overview">Site Overview</TabsTrigger>}
              {access.canViewAuditTrail && <TabsTrigger value="audit">Audit Trail</TabsTrigger>}
            </TabsList>
            <KeptTabContent value="users" active={active} visited={visited}>
              {usersSection}
            </KeptTabContent>
            {access.canViewOverview && (
              <KeptTabContent value="overview" active={active} visited={visited}>
                <SiteOverviewPanel />
              </KeptTabContent>
            )}
            {access.canViewAuditTrail && (
              <KeptTabContent value="audit" active={active} visited={visited}>
                <AuditTrailPanel />
              </KeptTabContent>
            )}
          </Tabs>
        ) : (
          usersSection
        )}
      </div>
    </SignedInLayout>
  );
}
