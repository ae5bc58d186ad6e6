// Moving through the conversation by keyboard, as VS Code's chat does:
// - from the message box, Ctrl+Up (Cmd+Up) goes to the newest message;
// - on a message, Up / Down (or Ctrl/Cmd+Up / Down) go to the previous / next one, Home / End to
//   the first / newest (rendered first when they are not), Enter into the message (its first
//   link, code block or button; Tab goes on from there), Down on the newest back to the box;
// - Escape anywhere in the conversation goes back to the box;
// - when the message that has the keyboard is rendered again (a new window of turns, a whole
//   state from the host), the keyboard goes to the same message again, or to the box.

/** What keyboard movement needs of the chat. */
export interface KeyboardHost {
  input: HTMLTextAreaElement;
  /** The element holding (and scrolling) the messages. */
  scroller: HTMLElement;
  count(): number;
  /** The article of the message at `index`, when rendered. */
  article(index: number): HTMLElement | undefined;
  /** The index of the message of an article, -1 if it is none. */
  indexOf(article: Element): number;
  /** Renders the message at `index` if it is not. */
  reveal(index: number): void;
  /** The conversation stops following its end (the keyboard went up). */
  holdScroll(): void;
}

const FOCUSABLE = 'a[href], button:not([disabled]), pre[tabindex], summary, textarea, input:not([disabled]), [tabindex="0"]';

export function installKeyboard(host: KeyboardHost): () => void {
  const { input, scroller } = host;
  const doc = scroller.ownerDocument;
  /** The message that has the keyboard (its article or something in it). */
  let focused: { index: number; onArticle: boolean } | undefined;

  const focusMessage = (index: number): boolean => {
    const count = host.count();
    if (count === 0) return false;
    const i = Math.max(0, Math.min(count - 1, index));
    host.reveal(i);
    const article = host.article(i);
    if (!article) return false;
    article.tabIndex = -1;
    if (i < count - 1) host.holdScroll();
    article.focus({ preventScroll: true });
    article.scrollIntoView({ block: 'nearest', behavior: 'instant' });
    return true;
  };

  const articleOf = (node: EventTarget | null): HTMLElement | null =>
    node instanceof Element ? node.closest<HTMLElement>('article.message') : null;

  const onInputKey = (e: KeyboardEvent) => {
    if (e.key === 'ArrowUp' && (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey) {
      if (focusMessage(host.count() - 1)) e.preventDefault();
    }
  };

  const onScrollerKey = (e: KeyboardEvent) => {
    if (e.defaultPrevented || e.altKey || e.shiftKey) return;
    const article = articleOf(e.target);
    if (e.key === 'Escape') {
      e.preventDefault();
      input.focus();
      return;
    }
    if (!article) return;
    const index = host.indexOf(article);
    if (index < 0) return;
    const onArticle = e.target === article;
    const mod = e.ctrlKey || e.metaKey;
    // Plain arrows move between messages only on a message itself (in its code they scroll).
    if ((e.key === 'ArrowUp' || e.key === 'ArrowDown') && (onArticle || mod)) {
      e.preventDefault();
      if (e.key === 'ArrowUp') focusMessage(index - 1);
      else if (index >= host.count() - 1) input.focus();
      else focusMessage(index + 1);
    } else if (onArticle && !mod && (e.key === 'Home' || e.key === 'End')) {
      e.preventDefault();
      focusMessage(e.key === 'Home' ? 0 : host.count() - 1);
    } else if (onArticle && !mod && e.key === 'Enter') {
      const first = article.querySelector<HTMLElement>(FOCUSABLE);
      if (first) {
        e.preventDefault();
        first.focus();
      }
    }
  };

  const onFocusIn = (e: FocusEvent) => {
    const article = articleOf(e.target);
    const index = article ? host.indexOf(article) : -1;
    focused = index >= 0 ? { index, onArticle: e.target === article } : undefined;
  };

  // A message that had the keyboard was rendered again: the keyboard goes back to it.
  const mutations = new MutationObserver(() => {
    if (!focused) return;
    const active = doc.activeElement;
    if (active && active !== doc.body && active.isConnected) return;
    const was = focused;
    focused = undefined;
    if (was.index < host.count() && focusMessage(was.index)) return;
    input.focus();
  });
  mutations.observe(scroller, { childList: true, subtree: true });
  const onFocusOutOfChat = (e: FocusEvent) => {
    // The keyboard left the conversation (to another control, or a click elsewhere); an element
    // that was removed keeps it here, to be given back.
    if (e.relatedTarget instanceof Node && !scroller.contains(e.relatedTarget)) focused = undefined;
    else if (!e.relatedTarget) {
      const target = e.target as Node;
      queueMicrotask(() => {
        if (target.isConnected && !scroller.contains(doc.activeElement)) focused = undefined;
      });
    }
  };

  input.addEventListener('keydown', onInputKey);
  scroller.addEventListener('keydown', onScrollerKey);
  scroller.addEventListener('focusin', onFocusIn);
  scroller.addEventListener('focusout', onFocusOutOfChat);
  return () => {
    mutations.disconnect();
    input.removeEventListener('keydown', onInputKey);
    scroller.removeEventListener('keydown', onScrollerKey);
    scroller.removeEventListener('focusin', onFocusIn);
    scroller.removeEventListener('focusout', onFocusOutOfChat);
  };
}
