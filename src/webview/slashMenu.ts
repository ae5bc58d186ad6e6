// The `/` menu of the message box: typing `/` at the start of the box lists the slash commands the
// host sent (built-ins, the user's own, the workspace's prompt files), filtered as the user types.
// Worked from the box by the keyboard (menuList.ts). Choosing one takes the `/name` typed out of the
// box and asks the host to expand the command into it.
// Enter on `/name some words` (the menu closed by the space) chooses `name` with those words.
// Every text is set with textContent: a prompt file's words are never HTML.
import * as l10n from '@vscode/l10n';
import type { PromptItem } from '../protocol';
import { el } from './dom';
import { createMenuList, type MenuList } from './menuList';

export interface SlashMenu {
  /** The list and its status line (placed above the box). */
  readonly element: HTMLElement;
  /** The commands the host sent (a `notice` says why some are missing). */
  setPrompts(prompts: readonly PromptItem[], notice?: string): void;
  /** A key pressed in the box: true when the menu took it (the caller does nothing more). */
  onKey(e: KeyboardEvent): boolean;
  readonly open: boolean;
}

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
  let prompts: PromptItem[] = [];
  let notice: string | undefined;
  /** The text the user closed the menu on with Escape: it stays closed until the text changes. */
  let dismissed: string | undefined;

  const menu: MenuList<PromptItem> = createMenuList<PromptItem>({
    input,
    id: 'slash-menu',
    optionPrefix: 'slash-option',
    label: l10n.t('Slash commands'),
    // Named by what it shows (name, argument hint, source, description, error or note), read in that order.
    parts: (p) =>
      [
        el('span', { class: 'slash-name', text: `/${p.name}` }),
        p.argumentHint ? el('span', { class: 'slash-hint', text: p.argumentHint }) : undefined,
        el('span', { class: 'slash-source', text: p.source }),
        p.description ? el('span', { class: 'slash-description', text: p.description }) : undefined,
        p.error ? el('span', { class: 'slash-error', text: l10n.t('Cannot be used: {0}', p.error) }) : p.note ? el('span', { class: 'slash-note', text: p.note }) : undefined,
      ].filter((x): x is HTMLSpanElement => x !== undefined),
    broken: (p) => !!p.error,
    pick: (p) => {
      input.value = '';
      // The box changed: the draft is kept as any typing keeps it.
      input.dispatchEvent(new Event('input', { bubbles: true }));
      choose(p.name, '');
    },
    dismissed: () => {
      dismissed = input.value;
    },
  });

  const render = (query: string, keep: boolean) => {
    const shown = filterPrompts(prompts, query);
    const count = shown.length ? l10n.t('{0} commands', shown.length) : l10n.t('No command matches "/{0}".', query);
    menu.show(shown, notice ? `${count} ${notice}` : count, keep);
  };

  const update = () => {
    const query = slashQuery(input);
    if (dismissed !== undefined && input.value !== dismissed) dismissed = undefined;
    if (query === undefined || dismissed !== undefined || (!prompts.length && !notice)) {
      menu.close();
      return;
    }
    if (!menu.open) opened?.();
    render(query, false);
  };

  input.addEventListener('input', update);

  return {
    element: menu.element,
    get open() {
      return menu.open;
    },
    setPrompts(next, why) {
      prompts = [...next];
      notice = why;
      if (menu.open) render(slashQuery(input) ?? '', true);
    },
    onKey(e) {
      if (e.isComposing || e.altKey || e.ctrlKey || e.metaKey) return false;
      if (menu.open) return menu.onKey(e);
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
    },
  };
}
