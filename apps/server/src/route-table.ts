import { routeContracts as referenceRouteContracts } from './http/route-contracts.ts';
import type { RouteContract } from './http/route-contract.ts';
import { contractOf, routeKeyOf, type RouteDefinition } from './http/route-definition.ts';
import type { RoutePermission } from './http/route-permission.ts';
import { activityRoutes } from './modules/activity/index.ts';
import { activityChartRoutes } from './modules/activity-charts/index.ts';
import { adminRoutes } from './modules/admin/index.ts';
import { apiTokenRoutes } from './modules/api-tokens/index.ts';
import { appUserRoutes } from './modules/app-users/index.ts';
import { applicationRoutes } from './modules/applications/index.ts';
import { publicAuthRoutes, ownerAuthRoutes } from './modules/auth/index.ts';
import { blacklistRoutes } from './modules/blacklist/index.ts';
import { clientCalls } from './modules/client-api/index.ts';
import { dashboardRoutes } from './modules/dashboard/index.ts';
import { deviceRoutes } from './modules/devices/index.ts';
import { fileRoutes, downloadRoutes } from './modules/files/index.ts';
import { healthRoutes } from './modules/health/index.ts';
import { importRoutes } from './modules/imports/index.ts';
import { keyauthRoutes } from './modules/keyauth-api/index.ts';
import { sampleRoutes, codeFileRoutes } from './modules/integration/index.ts';
import { licenseRoutes } from './modules/licenses/index.ts';
import { mailRoutes, mailTemplateRoutes } from './modules/mail/index.ts';
import {
  managementAccountRoutes,
  managementAppUserRoutes,
  managementApplicationRoutes,
  managementImportRoutes,
  managementLicenseRoutes,
  managementOrderRoutes,
} from './modules/management-api/index.ts';
import { ownerEventRoutes } from './modules/owner-events/index.ts';
import { portalRoutes } from './modules/portal/index.ts';
import { subscriptionRoutes } from './modules/subscriptions/index.ts';
import { variableRoutes } from './modules/variables/index.ts';
import { webhookRoutes } from './modules/webhooks/index.ts';
import { planRoutes } from './modules/plans/index.ts';
import { seatRoutes } from './modules/seats/index.ts';
import { shopRoutes, shopWebhookRoutes } from './modules/shops/index.ts';

/**
 * Every route defined beside its module. The composition root registers each module's list
 * in its scope; the tables below are derived from them for what needs the whole API at once
 * (the OpenAPI document, the answer checks, the management API's rules, the test suites).
 */
export const routeDefinitions: readonly RouteDefinition[] = [
  ...activityChartRoutes,
  ...activityRoutes,
  ...adminRoutes,
  ...apiTokenRoutes,
  ...appUserRoutes,
  ...applicationRoutes,
  ...publicAuthRoutes,
  ...ownerAuthRoutes,
  ...blacklistRoutes,
  ...dashboardRoutes,
  ...deviceRoutes,
  ...fileRoutes,
  ...downloadRoutes,
  ...healthRoutes,
  ...importRoutes,
  ...keyauthRoutes,
  ...sampleRoutes,
  ...codeFileRoutes,
  ...licenseRoutes,
  ...mailRoutes,
  ...mailTemplateRoutes,
  ...ownerEventRoutes,
  ...portalRoutes,
  ...subscriptionRoutes,
  ...variableRoutes,
  ...webhookRoutes,
  ...managementAccountRoutes,
  ...managementAppUserRoutes,
  ...managementApplicationRoutes,
  ...managementImportRoutes,
  ...managementLicenseRoutes,
  ...managementOrderRoutes,
  ...planRoutes,
  ...seatRoutes,
  ...shopRoutes,
  ...shopWebhookRoutes,
];

/** Every route's contract by `METHOD /path`: the client calls', the reference's, the definitions'. */
export const routeContracts: Readonly<Record<string, RouteContract>> = {
  ...Object.fromEntries(clientCalls.map((call) => [`${call.method} ${call.url}`, call.contract])),
  ...referenceRouteContracts,
  ...Object.fromEntries(routeDefinitions.map((route) => [routeKeyOf(route), contractOf(route)])),
};

/** What each owner route needs of the signed-in account, by `METHOD /path`. */
export const routePermissions: Readonly<Record<string, RoutePermission>> = Object.fromEntries(
  routeDefinitions.flatMap((route) =>
    route.permission === undefined ? [] : [[routeKeyOf(route), route.permission]],
  ),
);
