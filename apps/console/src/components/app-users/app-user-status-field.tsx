import { cn } from '@/lib/utils.ts';
import { SETTABLE_APP_USER_STATUSES, type SettableAppUserStatus } from './app-user-display.ts';

/** Said under the Status choice, so each state's effect on a login is read before choosing. */
export const APP_USER_STATUS_HINT =
  'Paused and Disabled users cannot log in. An expired user is made active again by extending the expiry.';

/**
 * The state an owner sets by hand, one of three radio buttons in a row: one control for one
 * state, where two checkboxes could be read as four. The browser's own radio group gives the
 * arrow keys.
 */
export function AppUserStatusField({
  id,
  value,
  onValueChange,
}: {
  id: string;
  value: SettableAppUserStatus;
  onValueChange: (value: SettableAppUserStatus) => void;
}) {
  return (
    <fieldset className="grid gap-2" aria-describedby={`${id}-hint`}>
      <legend className="mb-2 text-sm leading-none font-medium">Status</legend>
      <div className="flex flex-wrap gap-2">
        {SETTABLE_APP_USER_STATUSES.map((status) => (
          <label
            key={status}
            className={cn(
              'flex cursor-pointer items-center gap-2 rounded-md border border-border px-3 py-2 text-sm has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring/60',
              value === status && 'border-primary bg-primary/5 font-medium',
            )}
          >
            <input
              type="radio"
              name={id}
              value={status}
              checked={value === status}
              onChange={() => onValueChange(status)}
              className="size-4 accent-primary"
            />
            {status}
          </label>
        ))}
      </div>
      <p id={`${id}-hint`} className="text-xs text-muted-foreground">
        {APP_USER_STATUS_HINT}
      </p>
    </fieldset>
  );
}
