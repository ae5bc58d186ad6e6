// A conversation as one self-contained web page: readable offline in any browser, laid out like
// the chat (You / Assistant, the reply's figures, the thinking folded in a <details>, code
// highlighted, the summary of earlier turns), with no script in it and no request out of it:
//
// - every message goes through the chat's own markdown-it (src/wording/markdown.ts: raw HTML
//   escaped, links http(s) and #anchors only, images never loaded but shown as links), then
//   through the chat's allowlist of elements and attributes (src/wording/replyHtml.ts);
// - everything else (title, figures, errors, files, the thinking) is escaped text;
// - the page's CSP (a meta) allows inline styles and nothing else: no script, no image, no font,
//   no frame, no form, no base; the referrer is not sent when a link is followed, and links are
//   never prefetched.
// VS Code-free.
import * as l10n from '@vscode/l10n';
import type { MarkdownIt } from 'markdown-it';
import type { Conversation, StoredMessage } from '../chat/conversation';
import { replyEndingText, replyMetaText } from '../../wording';
import { escapeHtml, registerLanguages } from '../../wording/highlight';
import { createMarkdown } from '../../wording/markdown';
import { LONG_WORD, WORD_PART } from '../../wording/longWords';
import { allowlistHtml } from '../../wording/replyHtml';
import { MORE_LANGUAGES } from '../../wording/moreLanguages';
import { sentLineText, sentSummaryText } from '../../wording/sentWith';

/** The page's Content Security Policy: inline styles only. */
export const HTML_PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; font-src 'none'; base-uri 'none'; form-action 'none'"; // l10n-ignore: a Content Security Policy

// The page is written at once: every language the chat highlights, those its panel loads later too.
registerLanguages(MORE_LANGUAGES);

let md: MarkdownIt | undefined;

/** Markdown as the chat renders it, kept to the chat's allowlist. */
export function markdownHtml(text: string): string {
  md ??= createMarkdown();
  return softBreaks(allowlistHtml(md.render(text, {})));
}

const LONG_RUN = new RegExp(`[^\\s<>]{${LONG_WORD + 1},}`, 'g');
/** One character of a run: an entity, a surrogate pair, or one code unit. */
const UNIT = /&[#A-Za-z0-9]+;|[\uD800-\uDBFF][\uDC00-\uDFFF]|[^]/g;

/** A long word with a <wbr> after every WORD_PART of its characters. */
function breakRun(run: string): string {
  const parts: string[] = [];
  let count = 0;
  let start = 0;
  for (const m of run.matchAll(UNIT)) {
    if (count === WORD_PART) {
      parts.push(run.slice(start, m.index));
      start = m.index;
      count = 0;
    }
    count++;
  }
  parts.push(run.slice(start));
  return parts.join('<wbr>');
}

/**
 * `html` with a <wbr> every few characters of a long word outside <pre>: a browser finds where to
 * wrap a word of thousands of characters very slowly (seconds for 60,000) when the page lets it
 * break anywhere; these let it wrap at once. Copied text is unchanged (a <wbr> is no character).
 */
export function softBreaks(html: string): string {
  let pre = 0;
  return html.replace(/(<[^>]*>)|([^<]+)/g, (piece, tag: string | undefined) => {
    if (tag) {
      if (/^<pre[\s>]/i.test(tag)) pre++;
      else if (/^<\/pre>/i.test(tag)) pre = Math.max(0, pre - 1);
      return tag;
    }
    if (pre) return piece;
    return piece.replace(LONG_RUN, breakRun);
  });
}

const CSS = `
:root { color-scheme: light dark; --fg: #1f2328; --muted: #59636e; --bg: #ffffff; --card: #f6f8fa; --line: #d1d9e0;
  --accent: #0969da; --err: #cf222e; --kw: #cf222e; --str: #0a3069; --num: #0550ae; --fn: #8250df; --com: #59636e; --var: #953800; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --muted: #9198a1; --bg: #0d1117; --card: #151b23; --line: #3d444d;
  --accent: #4493f8; --err: #f85149; --kw: #ff7b72; --str: #a5d6ff; --num: #79c0ff; --fn: #d2a8ff; --com: #9198a1; --var: #ffa657; } }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 15px/1.55 system-ui, -apple-system, "Segoe UI", sans-serif; }
main { max-width: 860px; margin: 0 auto; padding: 24px 16px 64px; }
header h1 { font-size: 1.5em; margin: 0 0 4px; }
.muted { color: var(--muted); font-size: .9em; }
article { border-top: 1px solid var(--line); padding: 12px 0; }
article > h2 { font-size: 1em; margin: 0 0 6px; }
article.user .body { background: var(--card); border-radius: 8px; padding: 2px 12px; }
.body pre { background: var(--card); border: 1px solid var(--line); border-radius: 6px; padding: 10px; overflow-x: auto; font: 13px/1.45 ui-monospace, "SF Mono", Consolas, monospace; }
.body code { font-family: ui-monospace, "SF Mono", Consolas, monospace; font-size: .92em; }
.body pre[data-path]::before { content: attr(data-path); display: block; color: var(--muted); margin-bottom: 6px; }
.body table { border-collapse: collapse; } .body th, .body td { border: 1px solid var(--line); padding: 4px 8px; }
.body blockquote { margin: 0; padding-left: 12px; border-left: 3px solid var(--line); color: var(--muted); }
.md-align-left { text-align: left; } .md-align-right { text-align: right; } .md-align-center { text-align: center; }
.task-list-item { list-style: none; } .md-image-link::before { content: "\\1F5BC\\FE0F  "; }
a { color: var(--accent); }
details { margin: 6px 0; border: 1px solid var(--line); border-radius: 6px; padding: 4px 10px; }
details > summary { cursor: pointer; color: var(--muted); }
.reasoning-text { white-space: pre-wrap; color: var(--muted); }
.files, .note { color: var(--muted); font-size: .9em; margin: 4px 0; }
.error { color: var(--err); white-space: pre-wrap; }
.hljs-comment, .hljs-quote { color: var(--com); font-style: italic; }
.hljs-keyword, .hljs-selector-tag, .hljs-literal, .hljs-doctag { color: var(--kw); }
.hljs-string, .hljs-regexp, .hljs-addition { color: var(--str); }
.hljs-number, .hljs-bullet, .hljs-symbol { color: var(--num); }
.hljs-title, .hljs-section, .hljs-built_in, .hljs-type { color: var(--fn); }
.hljs-variable, .hljs-params, .hljs-attr, .hljs-attribute, .hljs-property, .hljs-name, .hljs-tag, .hljs-meta { color: var(--var); }
.hljs-deletion { color: var(--err); } .hljs-emphasis { font-style: italic; } .hljs-strong { font-weight: bold; }
`
  .trim()
  .replace(/\n\s*/g, '\n');

/** Text as the page shows it: escaped, long words breakable. */
const text = (s: string) => softBreaks(escapeHtml(s));

function messageHtml(m: StoredMessage): string {
  const out: string[] = [];
  const who = m.role === 'user' ? l10n.t('You') : l10n.t('Assistant');
  out.push(`<article class="${m.role}" id="${text(m.id)}">`);
  out.push(`<h2>${text(who)} <span class="muted">· ${text(new Date(m.createdAt).toLocaleString('en-US'))}</span></h2>`);
  if (m.files?.length) out.push(`<p class="files">${text(l10n.t('Files: {0}', m.files.join(', ')))}</p>`);
  if (m.meta) out.push(`<p class="muted">${text(replyMetaText(m.meta))}</p>`);
  // The thinking of a reasoning model: folded, as plain text (as the chat shows it).
  if (m.meta?.reasoning) out.push(`<details class="reasoning"><summary>${text(l10n.t('Thinking'))}</summary><div class="reasoning-text">${text(m.meta.reasoning)}</div></details>`);
  if (m.content) out.push(`<div class="body">${markdownHtml(m.content)}</div>`);
  if (m.sent?.length) out.push(`<details class="rules"><summary>${text(sentSummaryText(m.sent))}</summary><ul>${m.sent.map((i) => `<li>${text(sentLineText(i))}</li>`).join('')}</ul></details>`);
  const ending = replyEndingText(m.meta?.ending);
  if (ending) out.push(`<p class="note">${text(ending)}</p>`);
  if (m.meta?.note) out.push(`<p class="note">${text(m.meta.note)}</p>`);
  if (m.meta?.rules?.length) {
    const rules = m.meta.rules.map((r) => `<li>${text(r.path)} <span class="muted">(${text(r.why)})</span></li>`).join('');
    out.push(`<details class="rules"><summary>${text(l10n.t('Rules: {0}', m.meta.rules.length))}</summary><ul>${rules}</ul></details>`);
  }
  if (m.status === 'stopped') out.push(`<p class="note">${text(l10n.t('(Stopped)'))}</p>`);
  if (m.status === 'error' && m.error) out.push(`<p class="error">${text(l10n.t('Error: {0}', m.error.message))}</p>`);
  out.push('</article>');
  return out.join('\n');
}

/** The page of `conv` (one string, a few hundred bytes more than its messages' HTML). */
export function conversationToHtml(conv: Conversation, exportedAt: Date = new Date()): string {
  const count = conv.messages.length;
  const parts: string[] = [
    '<!doctype html>', // l10n-ignore: HTML
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${HTML_PAGE_CSP}">`,
    '<meta name="referrer" content="no-referrer">',
    '<meta http-equiv="x-dns-prefetch-control" content="off">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta name="generator" content="AI Chat">`,
    `<title>${escapeHtml(conv.title)}</title>`,
    `<style>${CSS}</style>`,
    '</head>',
    '<body>',
    '<main>',
    '<header>',
    `<h1>${text(conv.title)}</h1>`,
    `<p class="muted">${text(count === 1 ? l10n.t('Exported {0} · 1 message', exportedAt.toISOString()) : l10n.t('Exported {0} · {1} messages', exportedAt.toISOString(), count))}</p>`,
    '</header>',
  ];
  if (conv.summary) {
    parts.push(
      `<details class="summary"><summary>${text(l10n.t('Summary of the earlier turns (sent in their place)'))}</summary><div class="body">${markdownHtml(conv.summary.text)}</div></details>`,
    );
  }
  for (const m of conv.messages) parts.push(messageHtml(m));
  parts.push('</main>', '</body>', '</html>', '');
  return parts.join('\n');
}
