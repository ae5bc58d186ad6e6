// The `/` menu of the message box: typing `/` at the start of the box lists the slash commands the
// host sent (built-ins, the user's own, the workspace's prompt files), filtered as the user types.
// Keyboard only: Up / Down move, Enter or Tab chooses, Escape closes; the box keeps the focus and
// names the option shown as current (aria-activedescendant on a listbox of options). Choosing one
// takes the `/name` typed out of the box and asks the host to expand the command into it.
// Enter on `/name some words` (the menu closed by the space) chooses `name` with those words.
// Every text is set with textContent: a prompt file's words are never HTML.
import * as l10n from '@vscode/l10n';
import type { PromptItem } from '../protocol';
import { clear, el } from './dom';

export interface SlashMenu {
  /** The list and its status line (placed above the box). */
  readonly element: HTMLElement;
  /** The commands the host sent (a `notice` says why some are missing). */
  setPrompts(prompts: readonly PromptItem[], notice?: string): void;
  /** A key pressed in the box: true when the menu took it (the caller does nothing more). */
  onKey(e: KeyboardEvent): boolean;
  readonly open: boolean;
}

/** Most options in the list at a time. */
const VISIBLE = 8;

/** Commands matching `query`: names starting with it, then names containing it, then descriptions. */
export function filterPrompts(prompts: readonly PromptItem[], query: string): PromptItem[] {
  const q = query.toLowerCase();
  if (!q) return [...prompts];
  const starts: PromptItem[] = [];
  const inName: PromptItem[] = [];
  const inText: PromptItem[] = [];
  for (const p of prompts) {
    const name = p.name.toLowerCase();
    if (name.startsWith(q)) starts.push(p);
    else if (name.includes(q)) inName.push(p);
    else if (p.description.toLowerCase().includes(q)) inText.push(p);
  }
  return [...starts, ...inName, ...inText];
}

/** The `/name` at the start of the box with nothing after it yet (undefined: the menu is not for this text). */
function slashQuery(input: HTMLTextAreaElement): string | undefined {
  const m = /^\/(\S*)$/.exec(input.value);
  if (!m) return undefined;
  // Only while the caret is at the end of what was typed.
  return input.selectionStart === input.value.length ? m[1] : undefined;
}

/** `opened`: called each time the list opens (the host then reads the prompt files again). */
export function createSlashMenu(input: HTMLTextAreaElement, choose: (name: string, args: string) => void, opened?: () => void): SlashMenu {
  // At most VISIBLE options are in the list at a time (a window that follows the current one), so
  // the list never scrolls and the keyboard stays in the box; each option says its place in all.
  const list = el('div', { id: 'slash-menu', class: 'slash-menu', role: 'listbox', 'aria-label': l10n.t('Slash commands') });
  // A click on the list keeps the focus in the box.
  list.addEventListener('mousedown', (e) => e.preventDefault());
  const status = el('div', { class: 'slash-status', role: 'status', 'aria-live': 'polite' });
  const element = el('div', { class: 'slash-host', hidden: true }, list, status);
  let prompts: PromptItem[] = [];
  let notice: string | undefined;
  let shown: PromptItem[] = [];
  let active = 0;
  /** The first option in the window. */
  let top = 0;
  let isOpen = false;
  /** The text the user closed the menu on with Escape: it stays closed until the text changes. */
  let dismissed: string | undefined;

  const close = () => {
    if (!isOpen) return;
    isOpen = false;
    element.hidden = true;
    input.removeAttribute('aria-activedescendant');
    input.removeAttribute('aria-controls');
    status.textContent = '';
  };

  const option = (p: PromptItem, i: number): HTMLElement => {
    // Named by what it shows (name, argument hint, source, description, error or note), read in that order.
    const parts = [
      el('span', { class: 'slash-name', text: `/${p.name}` }),
      p.argumentHint ? el('span', { class: 'slash-hint', text: p.argumentHint }) : undefined,
      el('span', { class: 'slash-source', text: p.source }),
      p.description ? el('span', { class: 'slash-description', text: p.description }) : undefined,
      p.error ? el('span', { class: 'slash-error', text: l10n.t('Cannot be used: {0}', p.error) }) : p.note ? el('span', { class: 'slash-note', text: p.note }) : undefined,
    ].filter((x): x is HTMLSpanElement => x !== undefined);
    const o = el('div', {
      id: `slash-option-${i}`,
      class: `slash-option${p.error ? ' broken' : ''}${i === active ? ' active' : ''}`,
      role: 'option',
      'aria-selected': String(i === active),
      'aria-setsize': shown.length,
      'aria-posinset': i + 1,
      ...(p.error ? { 'aria-disabled': 'true' } : {}),
    });
    parts.forEach((part, n) => o.append(...(n ? [' ', part] : [part])));
    o.addEventListener('click', () => pick(i));
    return o;
  };

  /** The window of options around the current one, and the box pointing at it. */
  const draw = () => {
    if (active < top) top = active;
    else if (active >= top + VISIBLE) top = active - VISIBLE + 1;
    top = Math.max(0, Math.min(top, shown.length - VISIBLE));
    clear(list);
    for (let i = top; i < Math.min(shown.length, top + VISIBLE); i++) list.append(option(shown[i], i));
    if (shown.length) input.setAttribute('aria-activedescendant', `slash-option-${active}`);
    else input.removeAttribute('aria-activedescendant');
  };

  const render = (query: string) => {
    shown = filterPrompts(prompts, query);
    active = Math.min(active, Math.max(0, shown.length - 1));
    const count = shown.length ? l10n.t('{0} commands', shown.length) : l10n.t('No command matches "/{0}".', query);
    status.textContent = notice ? `${count} ${notice}` : count;
    input.setAttribute('aria-controls', list.id);
    draw();
  };

  const update = () => {
    const query = slashQuery(input);
    if (dismissed !== undefined && input.value !== dismissed) dismissed = undefined;
    if (query === undefined || dismissed !== undefined || (!prompts.length && !notice)) {
      close();
      return;
    }
    if (!isOpen) {
      isOpen = true;
      active = 0;
      element.hidden = false;
      opened?.();
    } else active = 0;
    top = 0;
    render(query);
  };

  const pick = (i: number) => {
    const p = shown[i];
    if (!p) return;
    close();
    input.value = '';
    // The box changed: the draft is kept as any typing keeps it.
    input.dispatchEvent(new Event('input', { bubbles: true }));
    choose(p.name, '');
  };

  input.addEventListener('input', update);
  input.addEventListener('blur', close);

  return {
    element,
    get open() {
      return isOpen;
    },
    setPrompts(next, why) {
      prompts = [...next];
      notice = why;
      if (isOpen) render(slashQuery(input) ?? '');
    },
    onKey(e) {
      if (e.isComposing || e.altKey || e.ctrlKey || e.metaKey) return false;
      if (!isOpen) {
        // `/name words` + Enter: that command with its words (when it is one of the list).
        if (e.key !== 'Enter' || e.shiftKey) return false;
        const m = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(input.value);
        const named = m && prompts.find((p) => p.name === m[1]);
        if (!m || !named) return false;
        e.preventDefault();
        e.stopImmediatePropagation();
        const args = (m[2] ?? '').trim();
        input.value = '';
        input.dispatchEvent(new Event('input', { bubbles: true }));
        choose(named.name, args);
        return true;
      }
      const count = shown.length;
      switch (e.key) {
        case 'ArrowDown':
        case 'ArrowUp':
          if (!count) return false;
          active = (active + (e.key === 'ArrowDown' ? 1 : count - 1)) % count;
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
          pick(active);
          break;
        case 'Escape':
          dismissed = input.value;
          close();
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
