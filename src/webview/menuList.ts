// A list of options above the message box, worked from the box: the `/` menu and the `#` menu.
// Keyboard first: Up / Down move, Enter or Tab chooses, Escape closes; the box keeps the focus and
// names the option shown as current (aria-activedescendant on a listbox of options). At most
// VISIBLE options are in the list at a time (a window that follows the current one), so the list
// never scrolls and the keyboard stays in the box; each option says its place in all of them.
// A click chooses too, and keeps the focus in the box. Every text is set by the caller's `parts`
// with textContent: nothing in an option is HTML.
import { clear, el } from './dom';

/** Most options in the list at a time. */
export const VISIBLE = 8;

export interface MenuListOptions<T> {
  /** The box the list is worked from. */
  input: HTMLTextAreaElement;
  /** The list's id; its options are `<id>-option-<n>`... */
  id: string;
  /** ...unless named here (the `/` menu's options are `slash-option-<n>`). */
  optionPrefix?: string;
  label: string;
  /** What an option shows, in the order it is read. */
  parts(item: T): HTMLElement[];
  /** An option marked as one that cannot be used (aria-disabled; the host says why when it is chosen). */
  broken?(item: T): boolean;
  pick(item: T): void;
  /** Escape closed the list. */
  dismissed(): void;
  /** What makes an option the same one in a new list (kept current when the list changes under it). */
  key?(item: T): string;
  /** Whether Enter may choose the current option (Tab always does); false: Enter goes on to the box. */
  enterChooses?(item: T, moved: boolean): boolean;
}

export interface MenuList<T> {
  /** The list and its status line (placed above the box). */
  readonly element: HTMLElement;
  readonly open: boolean;
  /** Opens the list (when closed) with these options and the status sentence; the first is current
   *  unless `keep` keeps the current one (the same option by `key`, else its place). */
  show(items: readonly T[], status: string, keep?: boolean): void;
  close(): void;
  /** A key pressed in the box while the list is open: true when the list took it. */
  onKey(e: KeyboardEvent): boolean;
}

export function createMenuList<T>(o: MenuListOptions<T>): MenuList<T> {
  const { input } = o;
  const optionId = o.optionPrefix ?? `${o.id}-option`;
  const list = el('div', { id: o.id, class: 'menu-list', role: 'listbox', 'aria-label': o.label });
  // A click on the list keeps the focus in the box.
  list.addEventListener('mousedown', (e) => e.preventDefault());
  const status = el('div', { class: 'menu-status', role: 'status', 'aria-live': 'polite' });
  const element = el('div', { class: 'menu-host', hidden: true }, list, status);
  let shown: readonly T[] = [];
  let active = 0;
  /** The first option in the window. */
  let top = 0;
  let isOpen = false;
  /** The user moved the current option since the list opened. */
  let moved = false;

  const option = (item: T, i: number): HTMLElement => {
    const broken = o.broken?.(item) ?? false;
    const node = el('div', {
      id: `${optionId}-${i}`,
      class: `menu-option${broken ? ' broken' : ''}${i === active ? ' active' : ''}`,
      role: 'option',
      'aria-selected': String(i === active),
      'aria-setsize': shown.length,
      'aria-posinset': i + 1,
      ...(broken ? { 'aria-disabled': 'true' } : {}),
    });
    o.parts(item).forEach((part, n) => node.append(...(n ? [' ', part] : [part])));
    node.addEventListener('click', () => choose(i));
    return node;
  };

  /** The window of options around the current one, and the box pointing at it. */
  const draw = () => {
    if (active < top) top = active;
    else if (active >= top + VISIBLE) top = active - VISIBLE + 1;
    top = Math.max(0, Math.min(top, shown.length - VISIBLE));
    clear(list);
    for (let i = top; i < Math.min(shown.length, top + VISIBLE); i++) list.append(option(shown[i], i));
    if (shown.length) input.setAttribute('aria-activedescendant', `${optionId}-${active}`);
    else input.removeAttribute('aria-activedescendant');
  };

  const close = () => {
    if (!isOpen) return;
    isOpen = false;
    element.hidden = true;
    input.removeAttribute('aria-activedescendant');
    input.removeAttribute('aria-controls');
    status.textContent = '';
  };

  const choose = (i: number) => {
    const item = shown[i];
    if (item === undefined) return;
    close();
    o.pick(item);
  };

  input.addEventListener('blur', close);

  return {
    element,
    get open() {
      return isOpen;
    },
    show(items, text, keep) {
      if (!isOpen) {
        isOpen = true;
        element.hidden = false;
        keep = false;
      }
      const was = keep && o.key && shown[active] !== undefined ? o.key(shown[active]) : undefined;
      if (!keep) {
        active = 0;
        top = 0;
        moved = false;
      }
      shown = items;
      if (was !== undefined && o.key) {
        const same = items.findIndex((item) => o.key?.(item) === was);
        if (same >= 0) active = same;
      }
      active = Math.min(active, Math.max(0, shown.length - 1));
      if (status.textContent !== text) status.textContent = text;
      input.setAttribute('aria-controls', o.id);
      draw();
    },
    close,
    onKey(e) {
      if (!isOpen || e.isComposing || e.altKey || e.ctrlKey || e.metaKey) return false;
      const count = shown.length;
      switch (e.key) {
        case 'ArrowDown':
        case 'ArrowUp':
          if (!count) return false;
          active = (active + (e.key === 'ArrowDown' ? 1 : count - 1)) % count;
          moved = true;
          draw();
          break;
        case 'Enter':
        case 'Tab':
          if (e.shiftKey) return false;
          if (!count) {
            // Nothing matches: Enter sends the text as it is.
            if (e.key === 'Enter') close();
            return false;
          }
          if (e.key === 'Enter' && o.enterChooses && !o.enterChooses(shown[active], moved)) {
            close();
            return false;
          }
          choose(active);
          break;
        case 'Escape':
          close();
          o.dismissed();
          break;
        default:
          return false;
      }
      e.preventDefault();
      e.stopImmediatePropagation();
      return true;
    },
  };
}
