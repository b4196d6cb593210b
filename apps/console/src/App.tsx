import { QueryClientProvider } from '@tanstack/react-query';
import { consolePagePaths, type ConsolePage } from '@latchkey/contracts/console-pages';
import { parse as parsePattern } from 'regexparam';
import { lazy, Suspense, useEffect, type ComponentType, type ReactNode } from 'react';
import { matchRoute, Redirect, Route, Switch, useLocation, useSearch } from 'wouter';
import { DeferredAuthProvider } from '@/components/auth/deferred-auth-provider.tsx';
import { FullPageSpinner } from '@/components/layout/full-page-spinner.tsx';
import { ThemeProvider } from '@/components/theme/theme-provider.tsx';
import { DeferredToaster } from '@/components/ui/deferred-toaster.tsx';
import { useAuth } from '@/hooks/use-auth.ts';
import {
  activityChartUrl,
  APPLICATIONS_QUERY_KEY,
  CURRENT_USER_QUERY_KEY,
  DASHBOARD_STATS_QUERY_KEY,
  DEFAULT_ACTIVITY_CHART_RANGE,
  SHOP_SALES_QUERY_KEY,
} from '@/hooks/owner-query-keys.ts';
import { readStoredAccountId } from '@/lib/account-storage.ts';
import { requestEarly } from '@/lib/api.ts';
import { buildSignInPath } from '@/lib/next-path.ts';
import { queryClient } from '@/lib/query-client.ts';
import { LandingPage } from '@/pages/landing-page.tsx';
import { NotFoundPage } from '@/pages/not-found-page.tsx';

/**
 * A page loaded on first visit, inside one TooltipProvider so that all of its tooltips share
 * the skip delay. The provider loads with the page: Radix's tooltip code is kept out of the
 * landing page's first paint.
 */
function lazyPage(
  loadPage: () => Promise<ComponentType>,
  /** The GETs the page's first screen makes, asked for early on a visit that starts there. */
  firstScreenUrls: readonly string[] = [],
) {
  const load = () => Promise.all([loadPage(), import('@/components/ui/tooltip.tsx')]);
  const Component = lazy(async () => {
    const [Page, { TooltipProvider }] = await load();
    return {
      default: function LazyPage() {
        return (
          <TooltipProvider>
            <Page />
          </TooltipProvider>
        );
      },
    };
  });
  // Fetches the page's code ahead of its first render (the module loader keeps it for then).
  return Object.assign(Component, { preload: () => void load().catch(() => {}), firstScreenUrls });
}

type LazyPage = ReturnType<typeof lazyPage>;

// Only the landing page and the 404 page come with the first load: every other page loads on
// first visit, so visitors of the landing page never download the dashboard (nor zod and the
// shared contracts), and each page's code is cached on its own.
const FirebaseLoginPage = lazyPage(() =>
  import('@/pages/firebase-login-page.tsx').then((module) => module.FirebaseLoginPage),
);
const HomePage = lazyPage(
  () => import('@/pages/home-page.tsx').then((module) => module.HomePage),
  [DASHBOARD_STATS_QUERY_KEY[0]],
);
const ActivityLogsPage = lazyPage(() =>
  import('@/pages/activity-logs-page.tsx').then((module) => module.ActivityLogsPage),
);
const UserManagementPage = lazyPage(() =>
  import('@/pages/user-management-page.tsx').then((module) => module.UserManagementPage),
);
const ApplicationPage = lazyPage(() =>
  import('@/pages/application-page.tsx').then((module) => module.ApplicationPage),
);
const BlacklistPage = lazyPage(() =>
  import('@/pages/blacklist-page.tsx').then((module) => module.BlacklistPage),
);
const CodeEditorPage = lazyPage(() =>
  import('@/pages/code-editor-page.tsx').then((module) => module.CodeEditorPage),
);
const DashboardPage = lazyPage(
  () => import('@/pages/dashboard-page.tsx').then((module) => module.DashboardPage),
  [
    DASHBOARD_STATS_QUERY_KEY[0],
    activityChartUrl(null, DEFAULT_ACTIVITY_CHART_RANGE),
    SHOP_SALES_QUERY_KEY[0],
    APPLICATIONS_QUERY_KEY[0],
  ],
);
const DocsPage = lazyPage(() => import('@/pages/docs-page.tsx').then((module) => module.DocsPage));
const IntegrationPage = lazyPage(() =>
  import('@/pages/integration-page.tsx').then((module) => module.IntegrationPage),
);
const ApiTokensPage = lazyPage(() =>
  import('@/pages/api-tokens-page.tsx').then((module) => module.ApiTokensPage),
);
const WebhooksPage = lazyPage(() =>
  import('@/pages/webhooks-page.tsx').then((module) => module.WebhooksPage),
);

/**
 * The pages only a signed-in owner sees: every page of the contracts' table but the two both
 * route sets have (a page added there must be given its component here). One table for both
 * route sets: a page added here is also one a signed-out deep link is sent to sign in for,
 * never a 404.
 */
const SIGNED_IN_PAGES: Record<Exclude<ConsolePage, 'home' | 'firebaseLogin'>, LazyPage> = {
  dashboard: DashboardPage,
  application: ApplicationPage,
  webhooks: WebhooksPage,
  blacklist: BlacklistPage,
  activityLogs: ActivityLogsPage,
  integration: IntegrationPage,
  docs: DocsPage,
  codeEditor: CodeEditorPage,
  userManagement: UserManagementPage,
  apiTokens: ApiTokensPage,
};
export const SIGNED_IN_ROUTES: readonly { path: string; component: LazyPage }[] = (
  Object.entries(SIGNED_IN_PAGES) as [keyof typeof SIGNED_IN_PAGES, LazyPage][]
).map(([page, component]) => ({ path: consolePagePaths[page], component }));

/**
 * A browser that signed in before would wait behind a spinner for the server to confirm its
 * session, then load the page, then the page's data: a chain of round trips. Started together
 * instead (the profile, the page's code and its first screen's data), the wait is that of the
 * slowest alone. Firebase is not in the chain: a confirmed server session shows the page while
 * Firebase restores its user behind it.
 *
 * Called as the console starts, before React renders anything: each step later (React's first
 * commit, the sign-in code) would add its own round trips in front of the page's.
 * `parsePattern` is the route parser wouter uses when no <Router> sets another, as here.
 */
export function preloadSignedInVisit(location: string): void {
  if (readStoredAccountId() === null) return;
  const route = SIGNED_IN_ROUTES.find(({ path }) => matchRoute(parsePattern, path, location)[0]);
  const page = location === consolePagePaths.home ? HomePage : route?.component;
  requestEarly([CURRENT_USER_QUERY_KEY[0], ...(page?.firstScreenUrls ?? [])]);
  page?.preload();
}

/** Sends a signed-out visit to a signed-in page to sign in first, remembering the target. */
function SignInFirst() {
  const [location] = useLocation();
  const search = useSearch();
  return <Redirect to={buildSignInPath(search ? `${location}?${search}` : location)} replace />;
}

function SignedOutRoutes() {
  return (
    <Suspense fallback={<FullPageSpinner />}>
      <Switch>
        <Route path={consolePagePaths.home} component={LandingPage} />
        <Route path={consolePagePaths.firebaseLogin} component={FirebaseLoginPage} />
        {SIGNED_IN_ROUTES.map(({ path }) => (
          <Route key={path} path={path} component={SignInFirst} />
        ))}
        <Route component={NotFoundPage} />
      </Switch>
    </Suspense>
  );
}

function SignedInRoutes() {
  // The live stream loads after the first paint, with the contracts it parses.
  useEffect(() => {
    let stop: (() => void) | null = null;
    let isUnmounted = false;
    void import('@/lib/owner-event-stream.ts').then(({ startOwnerEventStream }) => {
      if (!isUnmounted) stop = startOwnerEventStream(queryClient);
    });
    return () => {
      isUnmounted = true;
      stop?.();
    };
  }, []);
  return (
    <Suspense fallback={<FullPageSpinner />}>
      <Switch>
        <Route path={consolePagePaths.home} component={HomePage} />
        {SIGNED_IN_ROUTES.map(({ path, component }) => (
          <Route key={path} path={path} component={component} />
        ))}
        {/* Still reachable when signed in: it shows the welcome card. */}
        <Route path={consolePagePaths.firebaseLogin} component={FirebaseLoginPage} />
        <Route component={NotFoundPage} />
      </Switch>
    </Suspense>
  );
}

/** The route set depends on whether the owner is signed in. */
export function AppRoutes() {
  const { isLoading, isAuthenticated } = useAuth();
  const [location] = useLocation();
  const isLikelyVisitor = location === '/' && readStoredAccountId() === null;

  // A client-side navigation should start at the top of the new page, unless it targets a
  // section (the landing page scrolls to that itself).
  useEffect(() => {
    if (!window.location.hash) window.scrollTo(0, 0);
  }, [location]);

  if (isLoading) {
    // A browser that never signed in (no stored account) sees the landing page at once, while
    // the sign-in code loads behind its splash; anyone else waits to learn who they are.
    return isLikelyVisitor ? <SignedOutRoutes /> : <FullPageSpinner />;
  }
  return isAuthenticated ? <SignedInRoutes /> : <SignedOutRoutes />;
}

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider>
        <DeferredAuthProvider>
          {children}
          <DeferredToaster />
        </DeferredAuthProvider>
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
