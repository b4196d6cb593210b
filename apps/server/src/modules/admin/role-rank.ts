import type { Role } from '@latchkey/contracts';

const rankByRole: Record<Role, number> = { user: 0, moderator: 1, admin: 2, owner: 3 };

/** Roles ordered by authority: nobody may grant, or act on, a role above their own. */
export function roleRank(role: Role): number {
  return rankByRole[role];
}
