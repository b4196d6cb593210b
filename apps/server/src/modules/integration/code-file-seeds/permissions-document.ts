/** The seeded text of permissions.ts (a reference document; see code-file-seeds.ts). */
export const permissionsDocument = String.raw`/**
 * permissions.ts: who may do what in this Latchkey installation.
 *
 * A reference document kept in your account (Latchkey never runs it). The server enforces
 * every rule below on every request; the console only follows what the server allows.
 * Edit it to record your team's own policy: who holds which role, and why.
 */

// The four roles.
export const roles = {
  owner: 'Full system access and control', // holds every permission by role
  admin: 'Administrative privileges',
  moderator: 'Limited administrative access',
  user: 'Standard user access', // every new vendor account starts here
} as const;

// The eight permissions, and what each one opens on the server.
export const permissions = {
  edit_code: 'The code editor, and saving edited integration samples',
  manage_users: 'List site accounts, activate, deactivate and delete them',
  manage_applications:
    'Create and configure applications; manage their end users, blacklist and webhooks',
  view_all_data: 'A read-only site overview: counts per account, never their end users or keys',
  delete_applications: 'Delete applications',
  manage_permissions: 'Change roles and permissions',
  access_admin_panel: 'The administrative pages: user management and the audit trail',
  manage_api_tokens:
    'Tokens of the management API; a token can do no more than its creator, checked on each call',
} as const;

export type Role = keyof typeof roles;
export type Permission = keyof typeof permissions;

// The owner holds everything; any other role holds exactly the permissions granted to it.
export function hasPermission(role: Role, granted: Permission[], wanted: Permission): boolean {
  return role === 'owner' || granted.includes(wanted);
}

// Reading your own environment (applications, end users, logs, webhooks, samples, these
// documents) needs only a signed-in, active account. Changing it needs the permission above.

// Rules the server keeps, whatever the console shows:
//  - The first account ever to sign in is the site owner.
//  - Later accounts start as 'user' with DEFAULT_ACCOUNT_PERMISSIONS
//    (by default manage_applications and delete_applications).
//  - Only an owner may change an owner. Nobody deletes an owner, or their own account.
//  - Nobody grants a role or a permission above their own.
//  - The last active owner cannot be demoted or deactivated.
//  - A deactivated account cannot sign in and its console sessions end at once; its
//    applications keep serving their end users.
//  - Deleting an account deletes its whole environment: applications, end users, logs,
//    webhooks, saved samples and these documents.
//  - Every change of role, permissions or activity is written to the audit trail.

// A refusal is HTTP 403 with a message naming what is missing, e.g.
//   { "message": "You need the \"Edit Code\" permission to do this.", "code": "FORBIDDEN" }
`;
