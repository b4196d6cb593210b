import { Copy, Ellipsis, type LucideIcon } from 'lucide-react';
import { Fragment, useId } from 'react';
import { Link } from 'wouter';
import { Button } from '@/components/ui/button.tsx';
import { CopyButton } from '@/components/ui/copy-button.tsx';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu.tsx';
import { IconButton } from '@/components/ui/icon-button.tsx';
import { copyToClipboard } from '@/hooks/copy-to-clipboard.ts';
import { useMediaQuery } from '@/hooks/use-media-query.ts';
import { cn } from '@/lib/utils.ts';

/**
 * Below Tailwind's `sm` breakpoint a row's actions fold into one menu: a row of bare icons
 * there hides the cells that tell rows apart and says nothing about what each icon does.
 */
export const ROW_ACTIONS_MENU_MEDIA_QUERY = '(max-width: 639.98px)';

interface RowActionCommon {
  /** The button's accessible name and tooltip, and the menu item's text and name. */
  label: string;
  /** Delete, ban, remove: quiet until pointed at as a button, red and set apart in the menu. */
  isDestructive?: boolean;
  /** Waiting for the row (a change in flight); the action cannot be taken. */
  isDisabled?: boolean;
  /**
   * Why the action cannot be taken, shown instead of doing it. The button stays focusable
   * (aria-disabled) so its tooltip can say why; the menu item shows the reason under its label.
   */
  disabledReason?: string;
}

/** An action that runs code (opens a dialog, toggles something). */
export interface RowCommandAction extends RowActionCommon {
  icon: LucideIcon;
  onSelect: () => void;
  /** For a toggle (reveal/hide): its pressed state, said by the button. */
  isPressed?: boolean;
}

/** An action that goes to another page of the console. */
export interface RowLinkAction extends RowActionCommon {
  icon: LucideIcon;
  href: string;
}

/** An action that copies a value; the button's icon turns into a tick for a moment. */
export interface RowCopyAction extends RowActionCommon {
  copyValue: string;
  /** The toast's description once copied. */
  toastMessage?: string;
}

export type RowAction = RowCommandAction | RowLinkAction | RowCopyAction;

/**
 * Keeps an action's place among the buttons (an action only some rows have), so the buttons
 * line up across rows; the menu leaves it out.
 */
export const EMPTY_ACTION_SLOT = 'empty-slot';

/** One row's actions; `false` leaves an action out (an action this row does not offer). */
export type RowActionEntry = RowAction | typeof EMPTY_ACTION_SLOT | false;

function isAction(entry: RowActionEntry): entry is RowAction {
  return entry !== false && entry !== EMPTY_ACTION_SLOT;
}

function iconOf(action: RowAction): LucideIcon {
  return 'copyValue' in action ? Copy : action.icon;
}

function runAction(action: RowAction): void {
  if ('copyValue' in action) void copyToClipboard(action.copyValue, action.toastMessage);
  else if ('onSelect' in action) action.onSelect();
}

function RowActionButton({ action }: { action: RowAction }) {
  const { label, isDestructive = false, isDisabled = false, disabledReason } = action;
  const refusal = disabledReason
    ? {
        'aria-disabled': true,
        tooltip: disabledReason,
        className: 'opacity-50',
      }
    : {};
  if ('copyValue' in action && !disabledReason) {
    return (
      <CopyButton
        value={action.copyValue}
        label={label}
        toastMessage={action.toastMessage}
        disabled={isDisabled}
      />
    );
  }
  const Icon = iconOf(action);
  if ('href' in action && !disabledReason && !isDisabled) {
    return (
      <IconButton label={label} isDestructive={isDestructive} asChild>
        <Link href={action.href}>
          <Icon aria-hidden="true" />
        </Link>
      </IconButton>
    );
  }
  return (
    <IconButton
      label={label}
      isDestructive={isDestructive}
      disabled={isDisabled}
      aria-pressed={'isPressed' in action ? action.isPressed : undefined}
      onClick={() => {
        if (!disabledReason) runAction(action);
      }}
      {...refusal}
    >
      <Icon aria-hidden="true" />
    </IconButton>
  );
}

function RowActionMenuItem({ action }: { action: RowAction }) {
  const reasonId = useId();
  const { label, isDestructive = false, isDisabled = false, disabledReason } = action;
  const Icon = iconOf(action);
  const content = (
    <>
      <Icon aria-hidden="true" className={cn(isDestructive && 'text-destructive')} />
      <span className="grid">
        {label}
        {disabledReason && (
          <span id={reasonId} className="text-xs text-muted-foreground">
            {disabledReason}
          </span>
        )}
      </span>
    </>
  );
  const itemProps = {
    // The same name as the button's, so a test or a screen reader finds one action either way.
    'aria-label': label,
    'aria-describedby': disabledReason ? reasonId : undefined,
    disabled: isDisabled || disabledReason !== undefined,
    className: cn(
      isDestructive &&
        'text-destructive data-[highlighted]:bg-destructive/10 data-[highlighted]:text-destructive',
    ),
  };
  if ('href' in action) {
    return (
      <DropdownMenuItem {...itemProps} asChild>
        <Link href={action.href}>{content}</Link>
      </DropdownMenuItem>
    );
  }
  return (
    <DropdownMenuItem {...itemProps} onSelect={() => runAction(action)}>
      {content}
    </DropdownMenuItem>
  );
}

function RowActionsMenu({ rowName, actions }: { rowName: string; actions: readonly RowAction[] }) {
  const safeActions = actions.filter((action) => !action.isDestructive);
  const destructiveActions = actions.filter((action) => action.isDestructive);
  return (
    // Not modal: a modal menu hides the rest of the page from screen readers while its links
    // and buttons stay focusable, which axe counts as a serious fault. Focus still moves into
    // the menu, and leaving it closes the menu.
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" aria-label={`Actions for ${rowName}`}>
          <Ellipsis aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="max-w-[calc(100vw-2rem)]">
        {/* Says which row the menu acts on, once the button that opened it is covered. */}
        <DropdownMenuLabel className="line-clamp-2 wrap-anywhere">{rowName}</DropdownMenuLabel>
        <DropdownMenuSeparator />
        {safeActions.map((action) => (
          <RowActionMenuItem key={action.label} action={action} />
        ))}
        {destructiveActions.map((action, index) => (
          <Fragment key={action.label}>
            {index === 0 && safeActions.length > 0 && <DropdownMenuSeparator />}
            <RowActionMenuItem action={action} />
          </Fragment>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/**
 * A table row's actions, given as data: icon buttons with tooltips from the `sm` breakpoint
 * up, and on a phone one menu ("Actions for <rowName>") whose items carry icon and label, the
 * destructive ones last and set apart. Either way an action has the same accessible name.
 */
export function RowActions({
  rowName,
  actions,
  className,
}: {
  /** What the row is called (an application's name, a username), for the menu's name. */
  rowName: string;
  actions: readonly RowActionEntry[];
  className?: string;
}) {
  const isMenu = useMediaQuery(ROW_ACTIONS_MENU_MEDIA_QUERY);
  if (isMenu) {
    return (
      <div className={cn('flex justify-end', className)}>
        <RowActionsMenu rowName={rowName} actions={actions.filter(isAction)} />
      </div>
    );
  }
  return (
    <div className={cn('flex items-center justify-end gap-0.5', className)}>
      {actions.map((entry, index) =>
        entry === false ? null : entry === EMPTY_ACTION_SLOT ? (
          <span key={`slot-${index}`} aria-hidden="true" className="size-8" />
        ) : (
          <RowActionButton key={entry.label} action={entry} />
        ),
      )}
    </div>
  );
}
