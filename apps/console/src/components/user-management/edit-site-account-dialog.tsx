import { permissionCatalogue, roleDescriptions, type AdminUser } from '@latchkey/contracts';
import { useId } from 'react';
import { Checkbox } from '@/components/ui/checkbox.tsx';
import { DialogForm, FormDialog, useMutationForm } from '@/components/ui/form-dialog.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Label } from '@/components/ui/label.tsx';
import { OptionSelect } from '@/components/ui/option-select.tsx';
import { useAuth } from '@/hooks/use-auth.ts';
import type { DialogOpenState } from '@/hooks/use-dialog-target.ts';
import { useUpdateSiteAccount } from '@/hooks/use-site-admin.ts';
import {
  allPermissions,
  allRoles,
  getAccountDisplayName,
  getSiteAdminAccess,
  isPermissionAssignable,
  isRoleAssignable,
  roleLabels,
  withRoleDefaults,
} from '@/lib/site-admin-access.ts';

/** Role, active flag and permissions of one account, saved as one update. */
export function EditSiteAccountDialog({
  account,
  ...openState
}: DialogOpenState & {
  account: AdminUser | null;
}) {
  return (
    <FormDialog className="sm:max-w-2xl" {...openState}>
      {(close) =>
        account && (
          <EditSiteAccountForm
            // A newer save of the same account resets the form to what the server holds.
            key={`${account.id}:${account.role}:${account.isActive}:${account.permissions.join()}`}
            account={account}
            onClose={close}
          />
        )
      }
    </FormDialog>
  );
}

function EditSiteAccountForm({ account, onClose }: { account: AdminUser; onClose: () => void }) {
  const id = useId();
  const { user } = useAuth();
  const access = getSiteAdminAccess(user);
  const actor = user?.userPermissions ?? { role: 'user' as const, permissions: [] };
  const updateAccount = useUpdateSiteAccount();
  const { fields, setField, dialogForm } = useMutationForm({
    initialFields: () => ({
      role: account.role,
      permissions: account.permissions,
      isActive: account.isActive,
    }),
    mutation: updateAccount,
    toRequest: (changes) => ({ accountId: account.id, changes }),
    onDone: onClose,
  });
  const { role, isActive, permissions } = fields;
  const isSelf = user?.id === account.id;
  const isOwnerRole = role === 'owner';

  return (
    <DialogForm
      title={`Edit ${getAccountDisplayName(account)}`}
      description={account.email}
      descriptionClassName="break-all"
      submitLabel="Save Changes"
      {...dialogForm}
      className="gap-5"
    >
      <FormField
        htmlFor={`${id}-role`}
        label="Role"
        hint={
          access.canManagePermissions
            ? roleDescriptions[role]
            : 'Changing roles needs the Manage Permissions permission.'
        }
      >
        <OptionSelect
          id={`${id}-role`}
          value={role}
          onValueChange={(nextRole) => {
            setField('role', nextRole);
            if (nextRole !== role) {
              setField('permissions', withRoleDefaults(permissions, nextRole, actor));
            }
          }}
          options={allRoles.map((option) => ({
            value: option,
            label: roleLabels[option],
            isDisabled: !isRoleAssignable(actor, option) && option !== account.role,
          }))}
          disabled={!access.canManagePermissions}
          aria-describedby={`${id}-role-hint`}
        />
      </FormField>

      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-active`} className="w-fit cursor-pointer">
          <Checkbox
            id={`${id}-active`}
            checked={isActive}
            disabled={isSelf}
            aria-describedby={`${id}-active-hint`}
            onCheckedChange={(checked) => setField('isActive', checked === true)}
          />
          Active User
        </Label>
        <p id={`${id}-active-hint`} className="text-xs text-muted-foreground">
          {isSelf
            ? 'You cannot deactivate your own account.'
            : 'An inactive account cannot sign in and is signed out at once; its applications keep serving their users.'}
        </p>
      </div>

      <fieldset className="grid gap-3">
        <legend className="mb-3 text-sm font-medium">Permissions</legend>
        {isOwnerRole && (
          <p className="text-xs text-muted-foreground">An owner holds every permission by role.</p>
        )}
        <div className="grid gap-3 rounded-lg border border-border p-3 sm:grid-cols-2">
          {allPermissions.map((permission) => {
            const checkboxId = `${id}-permission-${permission}`;
            const isDisabled =
              isOwnerRole ||
              !access.canManagePermissions ||
              !isPermissionAssignable(actor, permission);
            return (
              <div key={permission} className="flex items-start gap-2">
                <Checkbox
                  id={checkboxId}
                  className="mt-0.5"
                  checked={isOwnerRole || permissions.includes(permission)}
                  disabled={isDisabled}
                  aria-describedby={`${checkboxId}-description`}
                  onCheckedChange={(checked) =>
                    setField(
                      'permissions',
                      checked === true
                        ? allPermissions.filter(
                            (candidate) =>
                              candidate === permission || permissions.includes(candidate),
                          )
                        : permissions.filter((candidate) => candidate !== permission),
                    )
                  }
                />
                <div className="grid gap-1">
                  <Label htmlFor={checkboxId} className="cursor-pointer">
                    {permissionCatalogue[permission].label}
                  </Label>
                  <p id={`${checkboxId}-description`} className="text-xs text-muted-foreground">
                    {permissionCatalogue[permission].description}
                  </p>
                </div>
              </div>
            );
          })}
        </div>
      </fieldset>
    </DialogForm>
  );
}
