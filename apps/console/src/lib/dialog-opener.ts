/**
 * Radix returns focus on close only to a `Dialog.Trigger`. Most of our dialogs are controlled
 * (opened from a table row, a menu item or another dialog) and have none, so Radix dropped
 * focus to <body>. Each dialog therefore remembers what opened it and returns focus there.
 */

let lastFocused: HTMLElement | null = null;
/**
 * What had focus before `lastFocused`. A form whose first field has `autoFocus` takes focus as
 * it mounts, before the dialog learns who opened it; the opener is then the element before.
 */
let focusedBefore: HTMLElement | null = null;

/** The opener of each open dialog's content, so a dialog opened from a dialog can fall back. */
const openerOfDialog = new WeakMap<Element, HTMLElement>();
/** Where focus goes instead when an opener has gone (it lived in a dialog that has closed). */
const fallbackOfOpener = new WeakMap<HTMLElement, HTMLElement>();

/** A menu item unmounts with its menu, so the button that opened the menu stands in for it. */
function stableTargetFor(element: HTMLElement): HTMLElement {
  const menu = element.closest('[role="menu"]');
  const triggerId = menu?.getAttribute('aria-labelledby');
  const trigger = triggerId ? document.getElementById(triggerId) : null;
  return trigger ?? element;
}

function rememberFocus(event: FocusEvent) {
  if (!(event.target instanceof HTMLElement)) return;
  const target = stableTargetFor(event.target);
  if (target === lastFocused) return;
  focusedBefore = lastFocused;
  lastFocused = target;
}

// Tracked as focus moves, because by the time a dialog mounts a menu item may already be gone.
if (typeof document !== 'undefined') document.addEventListener('focusin', rememberFocus, true);

/** Called as a dialog's content mounts, before it takes focus. */
export function rememberDialogOpener(content: Element): void {
  // A Radix trigger names its content; it is the opener even where a click does not focus it.
  const trigger = content.id
    ? Array.from(document.querySelectorAll<HTMLElement>('[aria-controls]')).find(
        (element) => element.getAttribute('aria-controls') === content.id,
      )
    : undefined;
  const active = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const recent = lastFocused && content.contains(lastFocused) ? focusedBefore : lastFocused;
  const opener = trigger ?? recent ?? active;
  if (!opener || opener === document.body || content.contains(opener)) return;
  openerOfDialog.set(content, opener);
  const enclosingDialog = opener.closest('[role="dialog"], [role="alertdialog"]');
  const enclosingOpener = enclosingDialog ? openerOfDialog.get(enclosingDialog) : undefined;
  if (enclosingOpener) fallbackOfOpener.set(opener, enclosingOpener);
}

/** Focuses what opened the dialog (or its nearest surviving stand-in); false if none is left. */
export function returnFocusToOpener(content: Element): boolean {
  let target = openerOfDialog.get(content);
  while (target && !target.isConnected) target = fallbackOfOpener.get(target);
  if (!target) return false;
  target.focus({ preventScroll: true });
  return true;
}
