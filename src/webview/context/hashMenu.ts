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
  /** The + button: a `#` at the caret opens the menu (taken out again if the menu is left unused). */
  openFromButton(): void;
}

/** The same option in the host's first and second answers. */
const keyOf = (o: ContextOption) => `${o.kind}\0${o.label}\0${o.detail ?? ''}`;

export function createHashMenu(input: HTMLTextAreaElement, post: (message: WebviewMessage) => void): HashMenu {
  /** The number of the last `#word` asked about (or of the menu's last closing), and the one whose options are shown. */
  let seq = 0;
  let shownSeq = -1;
  /** The word asked about last (a caret moved within it asks nothing new). */
  let asked: string | undefined;
  /** The text the user closed the menu on with Escape: it stays closed until the text changes. */
  let dismissed: string | undefined;
  /** The box's text before and after the + button put a `#` in it: closed unused, the `#` goes. */
  let fromButton: { before: string; after: string; caret: number } | undefined;

  const kindText = (o: ContextOption) => ({ action: '', file: l10n.t('file'), folder: l10n.t('folder'), symbol: l10n.t('symbol') })[o.kind];
  const caret = () => input.selectionStart ?? input.value.length;
  /** The `#word` at the caret (none while text is selected). */
  const wordAt = () => (input.selectionStart === input.selectionEnd ? hashQuery(input.value, caret()) : undefined);

  /** Closes the list; answers still on their way for it are dropped. */
  const forget = () => {
    seq++;
    asked = undefined;
    menu.close();
  };

  /** The list closed with nothing chosen: a `#` the + button put in, still alone, is taken out. */
  const takeBackButtonHash = (): boolean => {
    const b = fromButton;
    fromButton = undefined;
    if (!b || input.value !== b.after) return false;
    input.value = b.before;
    input.setSelectionRange(b.caret, b.caret);
    input.dispatchEvent(new Event('input', { bubbles: true }));
    return true;
  };

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
    key: keyOf,
    // Enter chooses what the user moved to, or an option whose name starts with the word typed;
    // anything else (a loose match for "fix #123") leaves Enter to send the message.
    enterChooses: (o, moved) => {
      // Opened by the + button: the user came to choose.
      if (moved || fromButton) return true;
      const word = (wordAt()?.query ?? '').toLowerCase();
      return word !== '' && o.label.toLowerCase().startsWith(word);
    },
    pick: (o) => {
      const chosen = shownSeq;
      const at = wordAt();
      // A `#` the + button put in goes as it came (the box as it was); a typed `#word` goes from the box.
      if (!takeBackButtonHash() && at) {
        const next = withoutHashQuery(input.value, at.start, caret());
        input.value = next.text;
        input.setSelectionRange(next.caret, next.caret);
        // The box changed: the draft is kept as any typing keeps it.
        input.dispatchEvent(new Event('input', { bubbles: true }));
      }
      post({ type: 'contextChoose', seq: chosen, kind: o.kind, label: o.label, ...(o.detail !== undefined ? { detail: o.detail } : {}), question: input.value.slice(0, 20_000) });
    },
    dismissed: () => {
      forget();
      if (!takeBackButtonHash()) dismissed = input.value;
    },
  });

  const update = () => {
    if (dismissed !== undefined && input.value !== dismissed) dismissed = undefined;
    const at = wordAt();
    if (!at || dismissed !== undefined || at.query.length > 200) {
      if (!at) fromButton = undefined;
      if (menu.open || asked !== undefined) forget();
      return;
    }
    if (at.query === asked && menu.open) return;
    asked = at.query;
    post({ type: 'contextSearch', seq: ++seq, query: at.query });
  };

  input.addEventListener('input', update);
  // A caret moved out of the word (a click, the arrows, Home, End) closes the list.
  input.addEventListener('click', update);
  input.addEventListener('keyup', (e) => {
    if (['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(e.key)) update(); // l10n-ignore: key names
  });
  input.addEventListener('blur', () => {
    if (asked !== undefined) forget();
    takeBackButtonHash();
  });

  return {
    element: menu.element,
    get open() {
      return menu.open;
    },
    setOptions(message) {
      if (message.seq !== seq || document.activeElement !== input) return;
      const same = shownSeq === message.seq;
      shownSeq = message.seq;
      const options = message.options;
      const count = options.length ? l10n.t('{0} options', options.length) : l10n.t('Nothing matches. Keep typing, or press Escape.');
      menu.show(options, message.pending ? `${count} ${l10n.t('Looking for symbols…')}` : count, same);
    },
    openFromButton() {
      input.focus();
      if (wordAt()) {
        dismissed = undefined;
        asked = undefined;
        update();
        return;
      }
      const before = input.value;
      // After a selection in the box, which stays as it is.
      const start = input.selectionEnd ?? before.length;
      // A `#` opens the menu at the start of the box or after a space (hashQuery).
      const mark = start > 0 && !/\s/.test(before[start - 1]) ? ' #' : '#';
      input.setRangeText(mark, start, start, 'end');
      fromButton = { before, after: input.value, caret: start };
      dismissed = undefined;
      input.dispatchEvent(new Event('input', { bubbles: true }));
    },
    onKey: (e) => {
      if (!menu.open) return false;
      // The caret left the word (moved without a key the list takes): the list closes, the key goes on.
      if ((e.key === 'Enter' || e.key === 'Tab') && !wordAt()) {
        forget();
        return false;
      }
      return menu.onKey(e);
    },
  };
}
