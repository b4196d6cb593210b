import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { Route, Switch, useLocation } from 'wouter';
import { AuthProvider } from '@/components/auth/auth-provider.tsx';
import { FullPageSpinner } from '@/components/layout/full-page-spinner.tsx';
import { ThemeProvider } from '@/components/theme/theme-provider.tsx';
import { Toaster } from '@/components/ui/toaster.tsx';
import { TooltipProvider } from '@/components/ui/tooltip.tsx';
import { useAuth } from '@/hooks/use-auth.ts';
import { queryClient } from '@/lib/query-client.ts';
import { FirebaseLoginPage } from '@/pages/firebase-login-page.tsx';
import { HomePage } from '@/pages/home-page.tsx';
import { LandingPage } from '@/pages/landing-page.tsx';
import { NotFoundPage } from '@/pages/not-found-page.tsx';

// Pages only a signed-in owner reaches load on first visit: visitors of the landing page never
// download the dashboard, and each page's code is cached on its own.
const ActivityLogsPage = lazy(() =>
  import('@/pages/activity-logs-page.tsx').then((module) => ({ default: module.ActivityLogsPage })),
);
const UserManagementPage = lazy(() =>
  import('@/pages/user-management-page.tsx').then((module) => ({
    default: module.UserManagementPage,
  })),
);
const ApplicationPage = lazy(() =>
  import('@/pages/application-page.tsx').then((module) => ({ default: module.ApplicationPage })),
);
const BlacklistPage = lazy(() =>
  import('@/pages/blacklist-page.tsx').then((module) => ({ default: module.BlacklistPage })),
);
const CodeEditorPage = lazy(() =>
  import('@/pages/code-editor-page.tsx').then((module) => ({ default: module.CodeEditorPage })),
);
const DashboardPage = lazy(() =>
  import('@/pages/dashboard-page.tsx').then((module) => ({ default: module.DashboardPage })),
);
const DocsPage = lazy(() =>
  import('@/pages/docs-page.tsx').then((module) => ({ default: module.DocsPage })),
);
const IntegrationPage = lazy(() =>
  import('@/pages/integration-page.tsx').then((module) => ({ default: module.IntegrationPage })),
);
const WebhooksPage = lazy(() =>
  import('@/pages/webhooks-page.tsx').then((module) => ({ default: module.WebhooksPage })),
);

function SignedOutRoutes() {
  return (
    <Switch>
      <Route path="/" component={LandingPage} />
      <Route path="/firebase-login" component={FirebaseLoginPage} />
      <Route component={NotFoundPage} />
    </Switch>
  );
}

function SignedInRoutes() {
  return (
    <Suspense fallback={<FullPageSpinner />}>
      <Switch>
        <Route path="/" component={HomePage} />
        <Route path="/dashboard" component={DashboardPage} />
        <Route path="/app/:id" component={ApplicationPage} />
        <Route path="/webhooks" component={WebhooksPage} />
        <Route path="/blacklist" component={BlacklistPage} />
        <Route path="/activity-logs" component={ActivityLogsPage} />
        <Route path="/integration" component={IntegrationPage} />
        <Route path="/docs" component={DocsPage} />
        <Route path="/code-editor" component={CodeEditorPage} />
        <Route path="/user-management" component={UserManagementPage} />
        {/* Still reachable when signed in: it shows the welcome card (spec doc 1 §2). */}
        <Route path="/firebase-login" component={FirebaseLoginPage} />
        <Route component={NotFoundPage} />
      </Switch>
    </Suspense>
  );
}

/** Spec doc 1 §2: the route set depends on whether the owner is signed in. */
export function AppRoutes() {
  const { isLoading, isAuthenticated } = useAuth();
  const [location] = useLocation();

  // A client-side navigation should start at the top of the new page, unless it targets a
  // section (the landing page scrolls to that itself).
  useEffect(() => {
    if (!window.location.hash) window.scrollTo(0, 0);
  }, [location]);

  if (isLoading) return <FullPageSpinner />;
  return isAuthenticated ? <SignedInRoutes /> : <SignedOutRoutes />;
}

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider>
        <TooltipProvider>
          <AuthProvider>
            {children}
            <Toaster />
          </AuthProvider>
        </TooltipProvider>
      </ThemeProvider>
    </QueryClientProvider>
  );
}

export function App() {
  return (
    <AppProviders>
      <AppRoutes />
    </AppProviders>
  );
}
