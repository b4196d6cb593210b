import {
  permissionCatalogue,
  roleDescriptions,
  type AdminUser,
  type Role,
} from '@latchkey/contracts';
import { useId, useState, type FormEvent } from 'react';
import { Checkbox } from '@/components/ui/checkbox.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog.tsx';
import { DialogFormFooter } from '@/components/ui/dialog-form-footer.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Label } from '@/components/ui/label.tsx';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select.tsx';
import { useAuth } from '@/hooks/use-auth.ts';
import { useUpdateSiteAccount } from '@/hooks/use-site-admin.ts';
import {
  allPermissions,
  allRoles,
  getAccountDisplayName,
  getSiteAdminAccess,
  isPermissionAssignable,
  isRoleAssignable,
  roleLabels,
} from '@/lib/site-admin-access.ts';

/** Spec doc 2 §2, §4: role, active flag and permissions of one account, saved as one update. */
export function EditSiteAccountDialog({
  account,
  open,
  onOpenChange,
}: {
  account: AdminUser | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-2xl">
        {account && (
          <EditSiteAccountForm
            // A newer save of the same account resets the form to what the server holds.
            key={`${account.id}:${account.role}:${account.isActive}:${account.permissions.join()}`}
            account={account}
            onClose={() => onOpenChange(false)}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

function EditSiteAccountForm({ account, onClose }: { account: AdminUser; onClose: () => void }) {
  const id = useId();
  const { user } = useAuth();
  const access = getSiteAdminAccess(user);
  const actor = user?.userPermissions ?? { role: 'user' as const, permissions: [] };
  const updateAccount = useUpdateSiteAccount();
  const [role, setRole] = useState<Role>(account.role);
  const [isActive, setIsActive] = useState(account.isActive);
  const [permissions, setPermissions] = useState(account.permissions);
  const isSelf = user?.id === account.id;
  const isOwnerRole = role === 'owner';

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    updateAccount.mutate(
      { accountId: account.id, changes: { role, permissions, isActive } },
      { onSuccess: onClose },
    );
  };

  return (
    <form onSubmit={handleSubmit} className="grid gap-5">
      <DialogHeader>
        <DialogTitle>Edit {getAccountDisplayName(account)}</DialogTitle>
        <DialogDescription className="break-all">{account.email}</DialogDescription>
      </DialogHeader>

      <FormField
        htmlFor={`${id}-role`}
        label="Role"
        hint={
          access.canManagePermissions
            ? roleDescriptions[role]
            : 'Changing roles needs the Manage Permissions permission.'
        }
      >
        <Select
          value={role}
          onValueChange={(value) => setRole(value as Role)}
          disabled={!access.canManagePermissions}
        >
          <SelectTrigger id={`${id}-role`} aria-describedby={`${id}-role-hint`}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {allRoles.map((option) => (
              <SelectItem
                key={option}
                value={option}
                disabled={!isRoleAssignable(actor, option) && option !== account.role}
              >
                {roleLabels[option]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </FormField>

      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-active`} className="w-fit cursor-pointer">
          <Checkbox
            id={`${id}-active`}
            checked={isActive}
            disabled={isSelf}
            aria-describedby={`${id}-active-hint`}
            onCheckedChange={(checked) => setIsActive(checked === true)}
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
                    setPermissions((current) =>
                      checked === true
                        ? allPermissions.filter(
                            (candidate) => candidate === permission || current.includes(candidate),
                          )
                        : current.filter((candidate) => candidate !== permission),
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

      <DialogFormFooter
        submitLabel="Save Changes"
        isSubmitting={updateAccount.isPending}
        onCancel={onClose}
      />
    </form>
  );
}
