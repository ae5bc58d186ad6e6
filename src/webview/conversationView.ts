// The conversation on screen: the list of message articles, its hints (opening, empty, why this
// is not the conversation the user had), the summary card and the boundary line in it, following
// its end while a reply streams, and "Jump to latest". It shows the transcript (transcript.ts)
// and carries out what a change of it asks for.
//
// Long conversations: only the newest messages are rendered at first; older ones are rendered
// a page at a time as the top of the list comes into view, keeping what is on screen in place.
// Rendered messages far from the visible part give their body's DOM back (turnWindow.ts).
import * as l10n from '@vscode/l10n';
import type { MessageView, SummaryView } from '../protocol';
import { clear, el } from './dom';
import {
  appendText,
  clearWaiting,
  createArticle,
  releaseBody,
  renderBody,
  renderFooter,
  renderReasoning,
  showWaiting,
  updateBody,
  type ArticleHooks,
  type MessageArticle,
} from './messageArticle';
import { createScrollFollower, type ScrollFollower } from './render/index';
import type { ContextMeterView } from './render/contextMeter';
import type { SummaryCard } from './summaryCard';
import { footerContexts, indexOfMessage, type TranscriptState } from './transcript';
import { focusedPager, keepPagerFocus } from './variants/variantPager';
import { createTurnWindow } from './turnWindow';
import { renderReplyChanges } from './replyChanges';

/** Messages rendered when a conversation opens, and per page as older ones come into view. */
export const WINDOW_PAGE = 12;

export interface ConversationHooks extends Omit<ArticleHooks, 'message'> {
  /** The transcript now. */
  transcript(): TranscriptState;
  summaryCard: SummaryCard;
  contextMeter: ContextMeterView;
  /** The status line near Send. */
  setReplying(text: string): void;
}

export interface ConversationView {
  /** The element that holds and scrolls the messages. */
  readonly element: HTMLElement;
  /** Where "Jump to latest" goes, below the messages. */
  readonly jumpHost: HTMLElement;
  readonly follower: ScrollFollower;
  /** Puts a conversation on screen: its newest messages now, older ones as they come into view. */
  show(summary: SummaryView | undefined, notice: string | undefined): void;
  /** New messages of a turn below the newest (the chat goes to them and follows the reply). */
  add(added: readonly MessageView[]): void;
  /** Streamed text of a reply; `starts`: what it said while it waited goes. */
  appendText(id: string, text: string, starts: boolean): void;
  /** A message's new state. */
  update(m: MessageView): void;
  /** Replies shown in place of others (another variant), messages changed in place; the view stays where it is. */
  swap(swaps: ReadonlyArray<{ from: string; message: MessageView }>, summary?: { view: SummaryView | undefined }): void;
  /** What a reply says while it waits. */
  waiting(id: string, text: string): void;
  /** Whether a reply runs (said to assistive technology). */
  setBusy(busy: boolean): void;
  refreshFooters(): void;
  /** Redraws the row of a reply's changes under every reply held (the host said what they are now). */
  refreshChanges(): void;
  placeBoundary(): void;
  /** Makes the message at `index` rendered and keeps its body; `alone`: in a window of its own when it is not rendered. */
  revealIndex(index: number, alone?: boolean): void;
  /** Shows a message (rendering it first) and gives it the keyboard. */
  revealMessage(id: string): void;
  /** Shows the message at `index` and gives the keyboard to its pager's `which` button (a branch shown there). */
  focusPager(index: number, which: string): void;
  /** Index of the newest message at least partly on screen (-1 when none). */
  lastVisibleIndex(): number;
  /** The rendered body of a message (undefined while it is not rendered). */
  body(id: string): HTMLElement | undefined;
  /** The article of the message at `index`, when rendered. */
  article(index: number): HTMLElement | undefined;
  /** The index of the message of a rendered article (-1: none). */
  indexOf(article: Element): number;
}

export function createConversationView(hooks: ConversationHooks): ConversationView {
  const list = () => hooks.transcript().messages;
  const articleHooks: ArticleHooks = { post: hooks.post, errors: hooks.errors, message: (id) => list()[indexOfMessage(list(), id)], ...(hooks.edit ? { edit: hooks.edit } : {}) };
  // Not live: a reply is announced once when it ends (never chunk by chunk).
  const messages = el('div', { class: 'messages', role: 'log', 'aria-live': 'off', 'aria-label': l10n.t('Conversation'), tabindex: 0 });
  const emptyHint = el('p', { class: 'empty-hint', text: l10n.t('Ask anything. Enter sends, Shift+Enter adds a new line.') });
  /** Shown until the host sent the conversation (never an empty chat for one that is not). */
  const loadingHint = el('p', { class: 'empty-hint loading-hint', role: 'status', text: l10n.t('Opening the conversation…') });
  const conversationNotice = el('p', { class: 'empty-hint conversation-notice', role: 'status' });
  const jumpHost = el('div', { class: 'jump-host' });
  const olderSentinel = el('div', { class: 'older-sentinel', 'aria-hidden': 'true' });
  const newerSentinel = el('div', { class: 'newer-sentinel', 'aria-hidden': 'true', hidden: true });
  const entries = new Map<string, MessageArticle>();
  /** Replies shown before in place of a variant (the pager): kept drawn a while, so going back is quick. */
  const parked = new Map<string, { entry: MessageArticle; content: string }>();
  /** Only the messages from `firstRendered` on are in the DOM. */
  let firstRendered = 0;
  /** End of the rendered messages when they stop short of the newest (a match or a question far up was brought into view). */
  let windowEnd: number | undefined;
  /** The message last brought into view by find, Go to Question or the keyboard: it keeps its body. */
  let revealed: HTMLElement | undefined;

  const follower = createScrollFollower(messages, jumpHost, () => windowEnd === undefined);
  const olderObserver = new IntersectionObserver((seen) => {
    if (seen.some((e) => e.isIntersecting)) renderOlder();
  }, { root: messages, rootMargin: '600px 0px 0px 0px' });
  olderObserver.observe(olderSentinel);
  const newerObserver = new IntersectionObserver((seen) => {
    if (seen.some((e) => e.isIntersecting)) renderNewer();
  }, { root: messages, rootMargin: '0px 0px 600px 0px' });

  const entryOf = (article: HTMLElement): { entry: MessageArticle; m: MessageView } | undefined => {
    const id = article.dataset.id;
    const entry = id === undefined ? undefined : entries.get(id);
    const m = entry && list()[indexOfMessage(list(), entry.id)];
    return entry && m && entry.article === article ? { entry, m } : undefined;
  };

  const turnWindow = createTurnWindow(messages, {
    // A message far from view gives its body back (not a reply still streaming).
    release: (article) => {
      const found = entryOf(article);
      if (!found?.entry.view || found.m.status === 'streaming' || article === revealed) return false;
      // The newest turn keeps its body wherever the view is.
      if (indexOfMessage(list(), found.m.id) >= list().length - 2) return false;
      releaseBody(found.entry);
      return true;
    },
    // A message given back comes near view again: its body from the text the transcript keeps.
    restore: (article) => {
      const found = entryOf(article);
      if (!found || found.entry.view) return;
      renderBody(found.entry, found.m, articleHooks);
      if (found.m.role === 'assistant') renderReasoning(found.entry, found.m.meta?.reasoning);
    },
  });

  const entryFor = (m: MessageView): MessageArticle => {
    let entry = entries.get(m.id);
    const kept = entry ? undefined : parked.get(m.id);
    parked.delete(m.id);
    if (kept && kept.content === m.content && kept.entry.view) {
      entry = kept.entry;
      entries.set(m.id, entry);
      turnWindow.watch(entry.article);
    } else kept?.entry.view?.dispose();
    if (!entry) {
      entry = createArticle(m, articleHooks);
      entries.set(m.id, entry);
      turnWindow.watch(entry.article);
    }
    return entry;
  };

  const refreshFooters = () => {
    const state = hooks.transcript();
    const newest = footerContexts(state, firstRendered);
    // The older ones rendered: Retry with… and a reply's pager follow the status too (never the last ones).
    const older = { isLastUser: false, isLast: false, busy: state.status.busy, hasSendError: !!state.status.sendError };
    const end = Math.min(windowEnd ?? list().length, newest.length ? indexOfMessage(list(), newest[0].message.id) : list().length);
    for (let i = firstRendered; i < end; i++) {
      const entry = entries.get(list()[i].id);
      if (entry) renderFooter(entry, list()[i], older, articleHooks);
    }
    for (const { message, context } of newest) {
      const entry = entries.get(message.id);
      if (entry) renderFooter(entry, message, context, articleHooks);
    }
  };

  const placeBoundary = () => {
    hooks.summaryCard.place(messages, olderSentinel, (id) => entries.get(id)?.article, (id) => {
      const i = indexOfMessage(list(), id);
      return i >= 0 && i < firstRendered;
    });
    hooks.contextMeter.place(messages, (id) => entries.get(id)?.article);
  };

  /** Renders the page of messages above the oldest one on screen, keeping the view where it is. */
  const renderOlder = () => {
    if (firstRendered === 0) return;
    const from = Math.max(0, firstRendered - WINDOW_PAGE);
    const anchor = olderSentinel.nextElementSibling;
    const before = anchor instanceof HTMLElement ? anchor.getBoundingClientRect().top : 0;
    const fragment = document.createDocumentFragment();
    for (let i = from; i < firstRendered; i++) fragment.append(entryFor(list()[i]).article);
    olderSentinel.after(fragment);
    firstRendered = from;
    refreshFooters();
    placeBoundary();
    olderSentinel.hidden = from === 0;
    if (anchor instanceof HTMLElement) messages.scrollTop += anchor.getBoundingClientRect().top - before;
    // The observer tells only changes: observed anew, it says at once whether the top is still near.
    olderObserver.unobserve(olderSentinel);
    if (from > 0) olderObserver.observe(olderSentinel);
  };

  /**
   * Renders the messages [from, to) in place of those rendered (a reply still streaming keeps its
   * view, out of the page while it is outside the window); older and newer ones are rendered as
   * the top or the bottom comes into view.
   */
  const showWindow = (from: number, to: number, scrollToEnd = true) => {
    for (const [id, e] of entries) {
      if (e.status === 'streaming') continue;
      e.view?.dispose();
      entries.delete(id);
    }
    // The articles of the old window are no longer watched; the ones kept (a streaming reply) again below.
    turnWindow.reset();
    for (const e of entries.values()) turnWindow.watch(e.article);
    clear(messages);
    firstRendered = from;
    windowEnd = to < list().length ? to : undefined;
    const fragment = document.createDocumentFragment();
    for (let i = from; i < to; i++) fragment.append(entryFor(list()[i]).article);
    messages.append(olderSentinel, fragment, newerSentinel);
    olderSentinel.hidden = from === 0;
    olderObserver.unobserve(olderSentinel);
    if (from > 0) olderObserver.observe(olderSentinel);
    newerSentinel.hidden = windowEnd === undefined;
    newerObserver.unobserve(newerSentinel);
    if (windowEnd !== undefined) newerObserver.observe(newerSentinel);
    if (scrollToEnd) {
      refreshFooters();
      placeBoundary();
      follower.scrollToBottom();
    }
  };

  /** Renders the page of messages below the newest one rendered (a window that stops short of the end). */
  const renderNewer = () => {
    if (windowEnd === undefined) return;
    const to = Math.min(list().length, windowEnd + WINDOW_PAGE);
    const fragment = document.createDocumentFragment();
    for (let i = windowEnd; i < to; i++) fragment.append(entryFor(list()[i]).article);
    newerSentinel.before(fragment);
    windowEnd = to < list().length ? to : undefined;
    newerSentinel.hidden = windowEnd === undefined;
    newerObserver.unobserve(newerSentinel);
    if (windowEnd !== undefined) newerObserver.observe(newerSentinel);
    refreshFooters();
    placeBoundary();
  };

  /** The newest page, when the window stops short of it. */
  const showLatest = () => showWindow(Math.max(0, list().length - WINDOW_PAGE), list().length);

  /**
   * A page or two above are rendered as usual, a message further up gets a window of its own (the
   * message and the next one, its reply; `alone`: the message only, at once, with the turns around
   * it rendered as they come into view).
   */
  const renderIndex = (index: number, alone = false) => {
    const end = windowEnd ?? list().length;
    if (index < 0 || index >= list().length || (index >= firstRendered && index < end)) return;
    if (!alone && windowEnd === undefined && index >= firstRendered - 2 * WINDOW_PAGE) {
      while (firstRendered > index) renderOlder();
      return;
    }
    showWindow(index, Math.min(list().length, index + (alone ? 1 : 2)), false);
    refreshFooters();
    placeBoundary();
  };

  const revealIndex = (index: number, alone = false) => {
    renderIndex(index, alone);
    // A message far from view may have given its body back: it is rendered again before it is shown,
    // and keeps its body while it is on its way into view (the last one revealed, until another is).
    const article = index >= 0 && index < list().length ? entries.get(list()[index].id)?.article : undefined;
    if (!article) return;
    turnWindow.restore(article);
    revealed = article;
  };

  // "Jump to latest" below a window that stops short of the newest message: the newest first.
  jumpHost.addEventListener('click', () => windowEnd !== undefined && showLatest(), true);
  messages.append(loadingHint);

  return {
    element: messages,
    jumpHost,
    follower,
    refreshChanges() {
      for (const entry of entries.values()) {
        const m = entry.changes && list()[indexOfMessage(list(), entry.id)];
        if (entry.changes && m) renderReplyChanges(entry.changes, m, hooks.post);
      }
    },
    show(summary, notice) {
      loadingHint.remove();
      for (const e of [...entries.values(), ...[...parked.values()].map((p) => p.entry)]) e.view?.dispose();
      entries.clear();
      parked.clear();
      turnWindow.reset();
      hooks.summaryCard.update(summary);
      showWindow(Math.max(0, list().length - WINDOW_PAGE), list().length, false);
      if (notice) {
        conversationNotice.textContent = notice;
        messages.append(conversationNotice);
      } else if (list().length === 0) messages.append(emptyHint);
      refreshFooters();
      placeBoundary();
      follower.scrollToBottom();
    },
    add(added) {
      emptyHint.remove();
      // The new turn goes below the newest message: that is where the chat goes.
      if (windowEnd !== undefined) showWindow(Math.max(0, list().length - added.length - WINDOW_PAGE), list().length);
      for (const m of added) messages.append(entryFor(m).article);
      // A new turn is the user's own doing (sent here, or from the editor): the chat goes to it and follows its reply.
      follower.scrollToBottom();
    },
    appendText(id, text, starts) {
      const entry = entries.get(id);
      if (!entry?.view) return;
      // Text clears what the reply said while it waited (thinking, searching, no part for a while).
      if (starts) {
        clearWaiting(entry);
        hooks.setReplying(l10n.t('Assistant is replying…'));
      }
      appendText(entry, list()[indexOfMessage(list(), id)], text);
      follower.contentChanged();
    },
    update(m) {
      const entry = entries.get(m.id);
      if (entry) updateBody(entry, m);
    },
    swap(swaps, summary) {
      let focus: { article: HTMLElement; which: string } | undefined;
      for (const { from, message } of swaps) {
        const old = entries.get(from);
        if (!old) continue;
        if (from === message.id) {
          updateBody(old, message);
          continue;
        }
        // Another variant of the reply: its article in place of the old one, the rest as it is.
        const which = focusedPager(old.article);
        entries.delete(from);
        parked.set(from, { entry: old, content: old.view?.text() ?? '' });
        // A few are kept; the oldest parked gives its body back.
        for (const [id, p] of parked) {
          if (parked.size <= 8) break;
          p.entry.view?.dispose();
          parked.delete(id);
        }
        const entry = entryFor(message);
        old.article.replaceWith(entry.article);
        if (which) focus = { article: entry.article, which };
      }
      if (summary) hooks.summaryCard.update(summary.view);
      refreshFooters();
      placeBoundary();
      if (focus) keepPagerFocus(focus.article, focus.which);
    },
    waiting(id, text) {
      const entry = entries.get(id);
      if (!entry) return;
      showWaiting(entry, text);
      hooks.setReplying(text || l10n.t('Assistant is replying…'));
    },
    setBusy(busy) {
      messages.setAttribute('aria-busy', String(busy));
    },
    refreshFooters,
    placeBoundary,
    revealIndex,
    focusPager(index, which) {
      const m = list()[index];
      if (!m) return;
      revealIndex(index);
      const article = entries.get(m.id)?.article;
      if (!article) return;
      follower.hold();
      article.scrollIntoView({ block: 'start', behavior: 'instant' });
      keepPagerFocus(article, which);
    },
    revealMessage(id) {
      const index = indexOfMessage(list(), id);
      if (index < 0) return;
      revealIndex(index);
      const article = entries.get(id)?.article;
      if (!article) return;
      follower.hold();
      article.scrollIntoView({ block: 'start', behavior: 'instant' });
      article.tabIndex = -1;
      article.focus({ preventScroll: true });
    },
    lastVisibleIndex() {
      const bottom = messages.getBoundingClientRect().bottom;
      for (let i = (windowEnd ?? list().length) - 1; i >= firstRendered; i--) {
        const article = entries.get(list()[i].id)?.article;
        if (article?.isConnected && article.getBoundingClientRect().top < bottom) return i;
      }
      return -1;
    },
    body(id) {
      const entry = entries.get(id);
      return entry?.article.isConnected ? entry.view?.element : undefined;
    },
    article(i) {
      const m = list()[i];
      const article = m && entries.get(m.id)?.article;
      return article?.isConnected ? article : undefined;
    },
    indexOf(article) {
      for (let i = firstRendered; i < (windowEnd ?? list().length); i++) if (entries.get(list()[i].id)?.article === article) return i;
      return -1;
    },
  };
}
