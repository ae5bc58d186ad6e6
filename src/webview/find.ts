// Find in chat: the find bar over the conversation (Ctrl+F / Cmd+F while the chat has focus, or
// the host's "Find in Chat" command), its count, next/previous, case sensitivity and Escape.
//
// Matches are counted on the conversation's text (findModel.ts), so turns that are not rendered
// yet (a long conversation renders only the turns near the viewport) count too; going to one of
// those renders it first. In rendered turns the matches are counted and shown on what is on
// screen (Markdown as rendered, code blocks; findRanges.ts), highlighted with the CSS Custom Highlight API: no
// element of a reply is changed, so a reply that streams goes on as before.
import * as l10n from '@vscode/l10n';
import { codicon, el, iconButton } from './dom';
import { highlightWindow, matchesIn, occurrences, prepare, ordinalOf, positionAt, startOrdinal, step, totalOf, type FindOptions, type MessageMatches } from './findModel';
import { bodyText, rangeAt, type BodyText } from './findRanges';
import { createHiddenHits, type HiddenText } from './findHidden';

/** What find needs of the chat. */
export interface FindHost {
  /** The conversation, oldest first (all of it, rendered or not). */
  messages(): ReadonlyArray<{ id: string; content: string }>;
  /** The rendered body of a message (undefined while it is not rendered). */
  body(id: string): HTMLElement | undefined;
  /** Renders the message at `index` (and what must come with it) if it is not rendered. */
  reveal(index: number): void;
  /** Index of the newest message on screen (-1 when none). */
  lastVisibleIndex(): number;
  /** The element that scrolls the conversation. */
  scroller: HTMLElement;
  /** The conversation stops following its end (the user went to a match). */
  holdScroll(): void;
  /** Where the keyboard goes when the bar closes and had it. */
  returnFocus(): void;
  /** The messages not shown (other variants, other branches): their matches are listed below the bar. */
  hidden?: () => readonly HiddenText[];
  /** Asks for a message not shown to be shown (its branch, its variant). */
  showHidden?: (id: string) => void;
}

export interface FindBar {
  readonly element: HTMLElement;
  /** Opens the bar (with `query` when given, else the text selected in the chat) and focuses it. */
  open(query?: string): void;
  close(): void;
  readonly isOpen: boolean;
  /** Next (1) or previous (-1) match. */
  go(direction: 1 | -1): void;
  /** Handles the find keys of the whole panel (Ctrl/Cmd+F, F3); true when it did. */
  onKey(event: KeyboardEvent): boolean;
  /** Finds again (the conversation changed); the current match stays when it still exists. */
  refresh(): void;
  dispose(): void;
}

/**
 * The most matches highlighted at once, those around the current one: a one-letter query in a
 * long conversation has hundreds of thousands, and a range for each would hold the page. The
 * count covers them all (counted on the text).
 */
export const MAX_HIGHLIGHTED = 2000;

const ALL = 'chat-find';
const CURRENT = 'chat-find-current';

export function createFindBar(host: FindHost): FindBar {
  const doc = host.scroller.ownerDocument;
  const input = el('input', { type: 'text', class: 'find-input', 'aria-label': l10n.t('Find'), placeholder: l10n.t('Find'), spellcheck: 'false' });
  const count = el('span', { class: 'find-count', role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' });
  const caseToggle = iconButton('case-sensitive', l10n.t('Match Case (Alt+C)'), () => toggleCase(), { class: 'toggle find-case', 'aria-pressed': 'false' });
  const previous = iconButton('arrow-up', l10n.t('Previous Match (Shift+Enter)'), () => go(-1), { class: 'find-previous' });
  const next = iconButton('arrow-down', l10n.t('Next Match (Enter)'), () => go(1), { class: 'find-next' });
  const closeButton = iconButton('close', l10n.t('Close (Escape)'), () => close(), { class: 'find-close' });
  const element = el(
    'div',
    { class: 'find-bar', role: 'search', 'aria-label': l10n.t('Find in chat'), hidden: true },
    el('span', { class: 'find-field' }, codicon('search'), input),
    caseToggle,
    count,
    previous,
    next,
    closeButton,
  );
  // Matches in what the chat does not show (findHidden.ts).
  const hiddenHits = host.hidden && host.showHidden ? createHiddenHits({ hidden: host.hidden, show: host.showHidden }) : undefined;
  if (hiddenHits) element.append(hiddenHits.element);

  const options: FindOptions = { caseSensitive: false };
  let query = '';
  let matches: MessageMatches[] = [];
  let total = 0;
  let ordinal = -1;
  /** The matches of the rendered messages, by message id: where each is in the body's text (found when asked for). */
  const hits = new Map<string, { body: HTMLElement; flat: BodyText; at: number[] }>();
  /** The ranges made of those matches (only those highlighted or gone to), by message id and match. */
  const ranges = new Map<string, Map<number, Range>>();
  let rangeCount = 0;
  /**
   * The text of each rendered body, read once while the bar is open (each keystroke searches
   * anew): a body that changes (a reply streams, a body is rendered again) is read again.
   */
  const texts = new Map<HTMLElement, BodyText>();
  let open = false;
  let refreshTimer: ReturnType<typeof setTimeout> | undefined;
  /** Counts the moves to a match: a later one ends the corrections of an earlier one. */
  let scrolls = 0;
  const highlights = typeof CSS !== 'undefined' && 'highlights' in CSS ? CSS.highlights : undefined;

  /** The matches of a rendered message (undefined while it is not rendered). */
  const hitsOf = (id: string) => {
    let h = hits.get(id);
    if (h) return h;
    const body = host.body(id);
    if (!body) return undefined;
    let flat = texts.get(body);
    if (!flat) texts.set(body, (flat = bodyText(body)));
    h = { body, flat, at: occurrences(flat.text, query, options) };
    hits.set(id, h);
    return h;
  };

  /** The range of the `nth` match of a rendered message. */
  const rangeOf = (id: string, nth: number): Range | undefined => {
    const h = hitsOf(id);
    if (!h || nth < 0 || nth >= h.at.length) return undefined;
    let made = ranges.get(id);
    let r = made?.get(nth);
    if (r) return r;
    if (rangeCount > 4 * MAX_HIGHLIGHTED) {
      ranges.clear();
      rangeCount = 0;
      made = undefined;
    }
    if (!made) ranges.set(id, (made = new Map<number, Range>()));
    r = rangeAt(h.body, h.flat, h.at[nth], query.length);
    made.set(nth, r);
    rangeCount++;
    return r;
  };

  /** Forgets the text of the bodies that changed (or came back into the page: they may have changed while out of it). */
  const changed = (records: MutationRecord[]) => {
    if (texts.size === 0) return;
    for (const r of records) {
      let inBody = false;
      for (let n: Node | null = r.target; n && n !== host.scroller && !inBody; n = n.parentNode) inBody = n instanceof HTMLElement && texts.delete(n);
      if (inBody) continue;
      for (const added of r.addedNodes) {
        if (added instanceof Element) for (const body of texts.keys()) if (added.contains(body)) texts.delete(body);
      }
    }
  };

  /** Counts: what is on screen for rendered messages, the text for the others. */
  const search = () => {
    changed(observer.takeRecords());
    for (const body of texts.keys()) if (!body.isConnected) texts.delete(body);
    hits.clear();
    ranges.clear();
    rangeCount = 0;
    matches = matchesIn(host.messages(), query, options, (id) => hitsOf(id)?.at.length);
    total = totalOf(matches);
    hiddenHits?.update(query, options);
  };

  /** Highlights the matches around the current one (at most MAX_HIGHLIGHTED), and the current one. */
  const paint = () => {
    if (!highlights) return;
    const [from, to] = highlightWindow(total, ordinal, MAX_HIGHLIGHTED);
    const shown: Range[] = [];
    let before = 0;
    for (const m of matches) {
      if (before >= to) break;
      const lo = Math.max(from, before);
      const hi = Math.min(to, before + m.count);
      if (lo < hi && hits.has(m.id)) {
        for (let o = lo; o < hi; o++) {
          const r = rangeOf(m.id, o - before);
          if (r) shown.push(r);
        }
      }
      before += m.count;
    }
    // At most MAX_HIGHLIGHTED ranges: few enough to pass as arguments.
    highlights.set(ALL, new Highlight(...shown));
    const pos = positionAt(matches, ordinal);
    const current = pos && rangeOf(pos.id, pos.nth);
    if (current) highlights.set(CURRENT, new Highlight(current));
    else highlights.delete(CURRENT);
  };

  const showCount = () => {
    element.classList.toggle('no-results', !!query && total === 0);
    count.textContent = !query ? '' : total === 0 ? l10n.t('No results') : l10n.t('{0} of {1}', ordinal + 1, total);
  };

  const unpaint = () => {
    highlights?.delete(ALL);
    highlights?.delete(CURRENT);
  };

  /** Brings the current match on screen: renders its message first when it is not rendered. */
  const bringIntoView = () => {
    const pos = positionAt(matches, ordinal);
    if (!pos) return;
    if (!host.body(pos.id)) {
      host.reveal(pos.index);
      // Now rendered: its count is what is on screen (the text's may differ, e.g. in Markdown syntax).
      search();
      ordinal = ordinalOf(matches, pos);
      if (ordinal < 0) ordinal = step(total, -1, 1);
    }
    const now = positionAt(matches, ordinal);
    const range = now && rangeOf(now.id, now.nth);
    paint();
    showCount();
    if (!range) return;
    host.holdScroll();
    scrollTo(range);
    // Parts of replies not laid out yet count at an estimated height until they are (and turns
    // around a match far up are rendered in the frames after): while that goes on, the match is
    // put back on screen, until it stayed there for two frames.
    let frames = 60;
    let still = 0;
    let height = host.scroller.scrollHeight;
    const token = ++scrolls;
    const settle = () => {
      if (!open || token !== scrolls) return;
      const moved = scrollTo(range);
      const grew = host.scroller.scrollHeight !== height;
      height = host.scroller.scrollHeight;
      still = moved || grew ? 0 : still + 1;
      if (still < 3 && --frames > 0) requestAnimationFrame(settle);
    };
    requestAnimationFrame(settle);
  };

  /** Scrolls the conversation (and a code block that scrolls sideways) so that `range` is on screen; true when it moved it. */
  const scrollTo = (range: Range): boolean => {
    if (!range.startContainer.isConnected) return false;
    let moved = false;
    const box = host.scroller.getBoundingClientRect();
    let rect = range.getBoundingClientRect();
    if (rect.height === 0 && rect.width === 0) {
      range.startContainer.parentElement?.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
      rect = range.getBoundingClientRect();
      moved = true;
    }
    if (rect.top < box.top || rect.bottom > box.bottom) {
      host.scroller.scrollTop += rect.top - box.top - Math.max(0, (box.height - rect.height) / 3);
      moved = true;
    }
    const pre = range.startContainer.parentElement?.closest('pre');
    if (pre && pre.scrollWidth > pre.clientWidth) {
      const preBox = pre.getBoundingClientRect();
      rect = range.getBoundingClientRect();
      if (rect.left < preBox.left || rect.right > preBox.right) {
        pre.scrollLeft += rect.left - preBox.left - preBox.width / 3;
        moved = true;
      }
    }
    return moved;
  };

  const find = () => {
    query = input.value;
    search();
    ordinal = startOrdinal(matches, host.lastVisibleIndex());
    if (ordinal >= 0) bringIntoView();
    else {
      paint();
      showCount();
    }
  };

  const go = (direction: 1 | -1) => {
    if (!open) return;
    if (input.value !== query) find();
    if (total === 0) return;
    ordinal = step(total, ordinal, direction);
    bringIntoView();
  };

  const toggleCase = () => {
    options.caseSensitive = !options.caseSensitive;
    caseToggle.setAttribute('aria-pressed', String(options.caseSensitive));
    caseToggle.classList.toggle('checked', options.caseSensitive);
    find();
  };

  const refresh = () => {
    if (!open || !query) return;
    const pos = positionAt(matches, ordinal);
    search();
    // A message not shown was chosen and is on the page now: the bar goes to its first match.
    const chosen = hiddenHits?.takeShown((id) => matches.some((m) => m.id === id));
    if (chosen) {
      ordinal = ordinalOf(matches, { id: chosen, nth: 0 });
      return bringIntoView();
    }
    ordinal = pos ? ordinalOf(matches, pos) : -1;
    if (ordinal < 0 && total > 0) ordinal = startOrdinal(matches, host.lastVisibleIndex());
    paint();
    showCount();
  };

  // What is rendered changes (older turns come into view, a reply streams): the counts and
  // highlights follow, at most a few times a second.
  const observer = new MutationObserver((records) => {
    changed(records);
    if (!open || !query || refreshTimer) return;
    refreshTimer = setTimeout(() => {
      refreshTimer = undefined;
      refresh();
    }, 150);
  });

  const close = () => {
    if (!open) return;
    const hadFocus = element.contains(doc.activeElement);
    open = false;
    element.hidden = true;
    observer.disconnect();
    texts.clear();
    unpaint();
    if (hadFocus) host.returnFocus();
  };

  const openBar = (seed?: string) => {
    const selected = seed ?? selectedText();
    if (!open) {
      open = true;
      element.hidden = false;
      observer.observe(host.scroller, { childList: true, subtree: true, characterData: true });
      prepare(host.messages().map((m) => m.content));
    }
    // Asked twice (the key in the panel, then the same key as the host's command): what is being
    // typed stays as it is.
    if (!selected && element.contains(doc.activeElement)) return;
    if (selected) input.value = selected;
    input.focus();
    input.select();
    if (input.value !== query || selected) find();
    else refresh();
  };

  /** Text selected in the conversation (one line), to search for. */
  const selectedText = (): string | undefined => {
    const sel = doc.getSelection();
    if (!sel || sel.isCollapsed || !host.scroller.contains(sel.anchorNode)) return undefined;
    const text = sel.toString();
    return text && !text.includes('\n') && text.length <= 200 ? text : undefined;
  };

  // The user scrolls: the corrections of the last move stop.
  const userScrolls = () => scrolls++;
  host.scroller.addEventListener('wheel', userScrolls, { passive: true });
  host.scroller.addEventListener('touchstart', userScrolls, { passive: true });
  host.scroller.addEventListener('keydown', userScrolls);
  input.addEventListener('input', () => find());
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.isComposing) {
      e.preventDefault();
      go(e.shiftKey ? -1 : 1);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      close();
    } else if (e.altKey && (e.key === 'c' || e.key === 'C' || e.code === 'KeyC')) {
      e.preventDefault();
      toggleCase();
    }
  });
  element.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      close();
    }
  });

  return {
    element,
    open: openBar,
    close,
    get isOpen() {
      return open;
    },
    go,
    onKey(e) {
      const mod = e.ctrlKey || e.metaKey;
      // A key handled here goes no further: the workbench hears a webview's keys (its frame passes
      // them on from the window), and its own Ctrl+F ("Find in Chat") would open the bar again
      // after an Escape pressed meanwhile.
      if (mod && !e.altKey && !e.shiftKey && (e.key === 'f' || e.key === 'F' || e.code === 'KeyF')) {
        e.preventDefault();
        e.stopPropagation();
        openBar();
        return true;
      }
      if (e.key === 'F3' && !mod && !e.altKey) {
        e.preventDefault();
        e.stopPropagation();
        if (!open) openBar();
        else go(e.shiftKey ? -1 : 1);
        return true;
      }
      return false;
    },
    refresh,
    dispose() {
      observer.disconnect();
      host.scroller.removeEventListener('wheel', userScrolls);
      host.scroller.removeEventListener('touchstart', userScrolls);
      host.scroller.removeEventListener('keydown', userScrolls);
      if (refreshTimer) clearTimeout(refreshTimer);
      unpaint();
      element.remove();
    },
  };
}
