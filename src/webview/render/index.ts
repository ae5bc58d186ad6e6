// Rendering of assistant replies in the chat panel.
//
// The chat UI (src/webview/main.ts) talks to this module only through the interface below.
// `createReplyView` returns a view for one reply: stream chunks in with `append`, close it with
// `finish`; `setText` shows a complete reply at once (restored history). The panel links
// media/render.css; it may set `--chat-font-size` on an ancestor to size replies.
export {
  createReplyView,
  renderMarkdownFragment,
  type CodeAction,
  type RenderHooks,
  type ReplyView,
} from './reply-view';
export { createScrollFollower, type ScrollFollower } from './scroll';
export { announce } from './announce';
