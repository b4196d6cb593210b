import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { Route, Switch, useLocation } from 'wouter';
import { AuthProvider } from '@/components/auth/auth-provider.tsx';
import { FullPageSpinner } from '@/components/layout/full-page-spinner.tsx';
import { ThemeProvider } from '@/components/theme/theme-provider.tsx';
import { Toaster } from '@/components/ui/toaster.tsx';
import { TooltipProvider } from '@/components/ui/tooltip.tsx';
import { useAuth } from '@/hooks/use-auth.ts';
import { queryClient } from '@/lib/query-client.ts';
import { ActivityLogsPage } from '@/pages/activity-logs-page.tsx';
import { ApplicationPage } from '@/pages/application-page.tsx';
import { BlacklistPage } from '@/pages/blacklist-page.tsx';
import { CodeEditorPage } from '@/pages/code-editor-page.tsx';
import { DashboardPage } from '@/pages/dashboard-page.tsx';
import { DocsPage } from '@/pages/docs-page.tsx';
import { FirebaseLoginPage } from '@/pages/firebase-login-page.tsx';
import { HomePage } from '@/pages/home-page.tsx';
import { IntegrationPage } from '@/pages/integration-page.tsx';
import { LandingPage } from '@/pages/landing-page.tsx';
import { NotFoundPage } from '@/pages/not-found-page.tsx';
import { UserManagementPage } from '@/pages/user-management-page.tsx';
import { WebhooksPage } from '@/pages/webhooks-page.tsx';

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
