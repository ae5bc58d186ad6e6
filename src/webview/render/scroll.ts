import * as l10n from '@vscode/l10n';
// Follow-the-bottom scrolling for a streaming chat log.
//
// While the user is at the bottom (within AT_BOTTOM_PX), new content keeps the view pinned to the
// bottom. Once the user scrolls up, nothing moves any more and a "Jump to latest" button appears
// in `buttonHost`; using it (or scrolling back down) resumes following. Content changes are
// noticed by a MutationObserver (and by `contentChanged()`), size changes by a ResizeObserver;
// the pin is applied in the same frame, before paint, so there is no visible jump.

export interface ScrollFollower {
  /** Call after the content grew; scrolls to the bottom only while the user is at the bottom. */
  contentChanged(): void;
  /** Scroll to the newest content and follow again. */
  scrollToBottom(): void;
  /** Stop following (the view was moved to something above, e.g. a match of find). */
  hold(): void;
  dispose(): void;
}

export const AT_BOTTOM_PX = 8;

/**
 * `atEnd`: whether the bottom of what the scroller holds is the newest content (a list that
 * renders a window of its items may stop short of it: then its bottom is not followed).
 */
export function createScrollFollower(scroller: HTMLElement, buttonHost: HTMLElement, atEnd: () => boolean = () => true): ScrollFollower {
  const doc = scroller.ownerDocument;
  let following = true;
  let disposed = false;

  const button = doc.createElement('button');
  button.type = 'button';
  button.className = 'jump-to-latest';
  button.textContent = l10n.t('Jump to latest');
  button.hidden = true;
  buttonHost.append(button);

  const distanceFromBottom = () => scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight;

  /** Where the view was when last seen (a pin, a scroll event or a content change). */
  let seenTop = scroller.scrollTop;

  const pin = () => {
    scroller.scrollTo({ top: scroller.scrollHeight, behavior: 'instant' });
    seenTop = scroller.scrollTop;
  };

  /**
   * The view went up since it was last seen, and not because the content shrank or the scroller
   * grew (then the old place could not be kept): a drag of the scrollbar, whose scroll event comes
   * only with the next frame, after content added meanwhile would have pulled the view down.
   */
  const movedUp = () => scroller.scrollTop < seenTop - 1 && scroller.scrollHeight - scroller.clientHeight >= seenTop - 1;

  const update = () => {
    if (disposed) return;
    if (following && movedUp()) following = false;
    if (following) {
      if (distanceFromBottom() > 0.5) pin();
      button.hidden = true;
    } else {
      button.hidden = distanceFromBottom() <= AT_BOTTOM_PX && atEnd();
    }
    seenTop = scroller.scrollTop;
  };

  const onScroll = () => {
    const atBottom = distanceFromBottom() <= AT_BOTTOM_PX && atEnd();
    following = atBottom;
    button.hidden = atBottom;
    seenTop = scroller.scrollTop;
  };

  const onClick = () => {
    following = true;
    pin();
    button.hidden = true;
  };

  // A wheel/touch/key scroll upwards stops following immediately, even before the scroll event,
  // so a frame rendered in between cannot pull the view back down.
  const onUserScrollIntent = (event: Event) => {
    if (scroller.scrollTop <= 0) return; // nothing above to scroll to
    if (event instanceof WheelEvent && event.deltaY < 0) following = false;
    else if (event instanceof KeyboardEvent && ['PageUp', 'ArrowUp', 'Home'].includes(event.key)) following = false; // l10n-ignore: key names
  };

  scroller.addEventListener('scroll', onScroll, { passive: true });
  scroller.addEventListener('wheel', onUserScrollIntent, { passive: true });
  scroller.addEventListener('keydown', onUserScrollIntent);
  button.addEventListener('click', onClick);

  const mutations = new MutationObserver(update);
  mutations.observe(scroller, { childList: true, subtree: true, characterData: true });
  const resizes = new ResizeObserver(update);
  resizes.observe(scroller);

  return {
    contentChanged: update,
    scrollToBottom: onClick,
    hold() {
      following = false;
    },
    dispose() {
      disposed = true;
      mutations.disconnect();
      resizes.disconnect();
      scroller.removeEventListener('scroll', onScroll);
      scroller.removeEventListener('wheel', onUserScrollIntent);
      scroller.removeEventListener('keydown', onUserScrollIntent);
      button.removeEventListener('click', onClick);
      button.remove();
    },
  };
}
