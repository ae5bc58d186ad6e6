// Rendering of assistant replies in the chat panel.
//
// The chat UI (src/webview, messageArticle.ts) talks to this module only through the interface below.
// `createReplyView` returns a view for one reply: stream chunks in with `append`, close it with
// `finish`; `setText` shows a complete reply at once (restored history).
//
// Integration notes for the panel:
// - Link media/render.css. Replies use `--chat-font-size` (set it on an ancestor, e.g. body) and
//   VS Code's theme variables; nothing needs inline styles, so the panel CSP can stay
//   `default-src 'none'; style-src ${webview.cspSource}; script-src 'nonce-…'; img-src 'none'`
//   (no images are ever loaded: markdown images render as links) and `connect-src 'none'`.
//   The highlight.js languages the first bundle leaves out come from media/dist/languages.js,
//   beside the panel's script, loaded with its nonce when a block names one (languages.ts).
// - `append` may be called for every received chunk: rendering happens at most once per
//   animation frame. Call `finish()` when the reply ends (also after an error or Stop) and
//   `dispose()` when the message is removed.
// - `finish()` announces the completed reply once through the shared polite live region
//   (`announce`); `setText` (restored history) does not announce. Don't announce replies again.
// - Hooks: links are never navigated in the webview; `onOpenLink` gets http(s) URLs only, to be
//   opened by the host (vscode.env.openExternal). `onCodeAction` and `onCopyReply` should be
//   posted to the host (copy through vscode.env.clipboard: the webview has no clipboard access).
// - `createScrollFollower(scroller, buttonHost)` on the element that scrolls the conversation;
//   it notices content changes itself (MutationObserver), `contentChanged()` is optional.
export { createReplyView, type RenderHooks, type ReplyView } from './reply-view';
export { renderMarkdownFragment } from './pipeline';
export type { CodeAction } from './codeToolbar';
export { createScrollFollower, type ScrollFollower } from './scroll';
export { announce } from './announce';
