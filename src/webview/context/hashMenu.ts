// The `#` menu of the message box: typing `#` (at the start of the box or after a space) lists what
// can be attached to the next message, and as the user types on, the workspace's files, folders and
// symbols whose names match (the host finds them: files and folders at once, symbols in a second
// answer). Worked from the box by the keyboard (menuList.ts). Choosing one takes the `#word` out of
// the box and asks the host to attach it (a chip above the box). Every text is set with textContent.
import * as l10n from '@vscode/l10n';
import { hashQuery, withoutHashQuery, type ContextOption, type HostMessage, type WebviewMessage } from '../../protocol';
import { codicon, el } from '../dom';
import { createMenuList } from '../menuList';

export interface HashMenu {
  /** The list and its status line (placed above the box). */
  readonly element: HTMLElement;
  readonly open: boolean;
  /** The host's options for a `#word` (an answer to an older one is dropped). */
  setOptions(message: Extract<HostMessage, { type: 'contextOptions' }>): void;
  /** A key pressed in the box: true when the menu took it (the caller does nothing more). */
  onKey(e: KeyboardEvent): boolean;
  /** The `+` button: a `#` typed at the caret, which opens the menu. */
  start(): void;
}

export function createHashMenu(input: HTMLTextAreaElement, post: (message: WebviewMessage) => void): HashMenu {
  /** The number of the last `#word` asked about, and the one whose options are shown. */
  let seq = 0;
  let shownSeq = -1;
  let options: ContextOption[] = [];
  /** The text the user closed the menu on with Escape: it stays closed until the text changes. */
  let dismissed: string | undefined;

  const kindText = (o: ContextOption) => ({ action: '', file: l10n.t('file'), folder: l10n.t('folder'), symbol: l10n.t('symbol') })[o.kind];

  const menu = createMenuList<ContextOption>({
    input,
    id: 'hash-menu',
    label: l10n.t('Attach to the next message'),
    // Read as: its name, what it is, where it is or what it does.
    parts: (o) =>
      [
        el('span', { class: 'menu-name' }, codicon(o.icon), o.kind === 'action' ? `#${o.label}` : o.label),
        o.kind !== 'action' ? el('span', { class: 'menu-kind', text: kindText(o) }) : undefined,
        o.detail ? el('span', { class: 'menu-detail', text: o.detail }) : undefined,
      ].filter((x): x is HTMLSpanElement => x !== undefined),
    pick: (o) => {
      const index = options.indexOf(o);
      const at = hashQuery(input.value, input.selectionStart ?? input.value.length);
      if (at) {
        const next = withoutHashQuery(input.value, at.start, input.selectionStart ?? input.value.length);
        input.value = next.text;
        input.setSelectionRange(next.caret, next.caret);
        // The box changed: the draft is kept as any typing keeps it.
        input.dispatchEvent(new Event('input', { bubbles: true }));
      }
      if (index >= 0) post({ type: 'contextChoose', seq: shownSeq, index, ...(input.value.trim() ? { question: input.value.slice(0, 20_000) } : {}) });
    },
    dismissed: () => {
      dismissed = input.value;
    },
  });

  const update = () => {
    if (dismissed !== undefined && input.value !== dismissed) dismissed = undefined;
    const at = input.selectionStart === input.selectionEnd ? hashQuery(input.value, input.selectionStart ?? 0) : undefined;
    if (!at || dismissed !== undefined || at.query.length > 200) {
      seq++;
      menu.close();
      return;
    }
    post({ type: 'contextSearch', seq: ++seq, query: at.query });
  };

  input.addEventListener('input', update);

  return {
    element: menu.element,
    get open() {
      return menu.open;
    },
    setOptions(message) {
      if (message.seq !== seq) return;
      const same = shownSeq === message.seq;
      shownSeq = message.seq;
      options = message.options;
      const count = options.length ? l10n.t('{0} options', options.length) : l10n.t('Nothing matches. Keep typing, or press Escape.');
      menu.show(options, message.pending ? `${count} ${l10n.t('Looking for symbols…')}` : count, same);
    },
    onKey: (e) => menu.onKey(e),
    start() {
      const caret = input.selectionStart ?? input.value.length;
      const before = input.value.slice(0, caret);
      const insert = before && !/\s$/.test(before) ? ' #' : '#';
      input.focus();
      input.setRangeText(insert, caret, input.selectionEnd ?? caret, 'end');
      input.dispatchEvent(new Event('input', { bubbles: true }));
    },
  };
}
