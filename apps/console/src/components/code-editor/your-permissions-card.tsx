import {
  hasPermission,
  permissionCatalogue,
  permissionSchema,
  type CurrentUser,
} from '@latchkey/contracts';
import { Badge } from '@/components/ui/badge.tsx';
import { SectionCard } from '@/components/ui/section-card.tsx';

/**
 * The Your Permissions card. The role, Code Editing and User Management as enabled or
 * disabled, and every permission the account holds (an owner holds all by role).
 */
export function YourPermissionsCard({ user }: { user: CurrentUser }) {
  const { userPermissions } = user;
  const held = permissionSchema.options.filter((permission) =>
    hasPermission(userPermissions, permission),
  );
  const canEditCode = hasPermission(userPermissions, 'edit_code');
  const canManageUsers = hasPermission(userPermissions, 'manage_users');
  return (
    <SectionCard
      title="Your Permissions"
      description="What your account may do here. The server checks the same on every request."
      contentClassName="grid gap-4"
    >
      <ul aria-label="Your access" className="flex flex-wrap gap-2">
        <li>
          <Badge variant="secondary">Role: {userPermissions.role}</Badge>
        </li>
        <li>
          <Badge variant={canEditCode ? 'success' : 'muted'}>
            Code Editing {canEditCode ? 'Enabled' : 'Disabled'}
          </Badge>
        </li>
        <li>
          <Badge variant={canManageUsers ? 'success' : 'muted'}>
            User Management {canManageUsers ? 'Enabled' : 'Disabled'}
          </Badge>
        </li>
      </ul>
      {held.length === 0 ? (
        <p className="text-sm text-muted-foreground">No permissions granted.</p>
      ) : (
        <ul aria-label="All your permissions" className="grid gap-2 sm:grid-cols-2">
          {held.map((permission) => (
            <li key={permission} className="rounded-md border border-border px-3 py-2">
              <p className="text-sm font-medium">{permissionCatalogue[permission].label}</p>
              <p className="text-xs text-muted-foreground">
                {permissionCatalogue[permission].description}
              </p>
            </li>
          ))}
        </ul>
      )}
    </SectionCard>
  );
}
