// Rendered messages far outside the visible part of the conversation give their DOM back: the
// message keeps its <article> (its place, label and footer) at the height it had, and its body
// (the rendered Markdown, by far the most of its DOM) is dropped. When it comes near the visible
// part again, its body is rendered anew from the message's text, which the panel keeps anyway.
// What counts as far: more than RELEASE_MARGIN above or below the conversation's visible box
// (five times its height).

/** How far outside the visible box a message's body is kept: five times the box's height, each side. */
export const RELEASE_MARGIN = '500% 0px';

export interface TurnWindowHooks {
  /** Drops the article's body; false when it must stay (a reply still streaming). */
  release(article: HTMLElement): boolean;
  /** Renders the article's body again. */
  restore(article: HTMLElement): void;
}

export interface TurnWindow {
  /** Starts watching a rendered message's article. */
  watch(article: HTMLElement): void;
  /** Whether the article's body was given back (its height is held until it is restored). */
  isReleased(article: HTMLElement): boolean;
  /** Renders a released article's body again now (e.g. before it is scrolled to). */
  restore(article: HTMLElement): void;
  /** Stops watching every article (the conversation was replaced). */
  reset(): void;
}

const RELEASED = 'released';

export function createTurnWindow(scroller: HTMLElement, hooks: TurnWindowHooks): TurnWindow {
  const restore = (article: HTMLElement) => {
    if (!article.classList.contains(RELEASED)) return;
    hooks.restore(article);
    article.classList.remove(RELEASED);
    article.style.removeProperty('height');
  };
  const observer = new IntersectionObserver(
    (changes) => {
      // A message may be told more than once (it came near and went far again before this ran):
      // its last change is where it is now.
      const latest = new Map<Element, IntersectionObserverEntry>();
      for (const c of changes) latest.set(c.target, c);
      for (const c of latest.values()) {
        const article = c.target as HTMLElement;
        if (c.isIntersecting) restore(article);
        else if (!article.classList.contains(RELEASED) && c.boundingClientRect.height > 0 && article.isConnected && hooks.release(article)) {
          // The height it had when the change was seen (no layout is forced here).
          article.style.height = `${c.boundingClientRect.height}px`;
          article.classList.add(RELEASED);
        }
      }
    },
    { root: scroller, rootMargin: RELEASE_MARGIN },
  );
  return {
    // Once the article is in the document (the caller appends it right after): an article observed
    // while detached is never reported as far if it is far when it arrives.
    watch: (article) =>
      queueMicrotask(() => {
        if (article.isConnected) observer.observe(article);
      }),
    isReleased: (article) => article.classList.contains(RELEASED),
    restore,
    reset: () => observer.disconnect(),
  };
}
