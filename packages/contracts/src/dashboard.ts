import { z } from 'zod';

/** GET /api/dashboard/stats. */
export const dashboardStatsSchema = z
  .object({
    totalUsers: z.number().int(),
    totalApiKeys: z.number().int(),
    activeApiKeys: z.number().int(),
    accountType: z.string(),
    totalApplications: z.number().int(),
    activeApplications: z.number().int(),
    totalActiveSessions: z.number().int(),
    /** Licence keys across the owner's applications, unused and used (running totals). */
    unusedLicenses: z.number().int(),
    usedLicenses: z.number().int(),
  })
  .meta({ id: 'DashboardStats' });
export type DashboardStats = z.infer<typeof dashboardStatsSchema>;
