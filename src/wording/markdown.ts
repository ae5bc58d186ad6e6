// markdown-it configured for assistant replies. Pure (no DOM): the chat panel renders replies with
// it (src/webview/render), and the exported web page (src/core/export/htmlPage.ts) its messages.
//
// - `html: false`: raw HTML in model text is escaped, shown as text.
// - Links: only http(s) URLs and in-document anchors (`#x`) become links; anything else
//   (javascript:, data:, vbscript:, file:, relative paths) stays literal text.
// - Images: never loaded (the panel has no network). `![alt](https://…)` renders as a link
//   labelled with the alt text, opened through the extension host like any link.
// - Fenced code: highlighted with highlight.js; `env.plainCode` renders code escaped but
//   unhighlighted (used for the still-streaming tail, highlighted once it is finished).
// - GFM tables (alignment as classes, no style attributes) and task lists (disabled checkboxes).
import markdownit, { type Env, type MarkdownIt, type MarkdownItOptions, type Token } from 'markdown-it';
import { codePathOf } from './codeFence';
import { escapeHtml, highlightCode, languageOf } from './highlight';

export interface RenderEnv extends Env {
  /** Render fenced code without highlighting (cheap; for text that is still changing). */
  plainCode?: boolean;
}

const SAFE_URL = /^(?:https?:\/\/|#)/i;

/** True for URLs a reply may link to: http(s) and in-document anchors. */
export function isAllowedUrl(url: string): boolean {
  return SAFE_URL.test(url.replace(/[\u0000-\u0020\u007f-\u00a0\u1680\u180e\u2000-\u2029\u205f\u3000\ufeff]/g, ''));
}

/** True for URLs the extension host may open: absolute http(s) only. */
export function isOpenableUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && url.trim() === url && !/[\s]/.test(url);
  } catch {
    return false;
  }
}

const OPTIONS: MarkdownItOptions = { html: false, linkify: true, typographer: false, breaks: false };

function configure(md: MarkdownIt): MarkdownIt {
  md.validateLink = (url: string) => isAllowedUrl(url);
  md.linkify.set({ fuzzyLink: false, fuzzyEmail: false, fuzzyIP: false });
  return md;
}

/** The block structure only (no inline parsing): used to find top-level block boundaries. */
export function createBlockParser(): MarkdownIt {
  const md = configure(markdownit('default', OPTIONS));
  md.core.ruler.enableOnly(['normalize', 'block']);
  return md;
}

export function createMarkdown(): MarkdownIt {
  const md = configure(markdownit('default', OPTIONS));
  md.core.ruler.after('inline', 'reply_task_lists', (state) => taskLists(state.tokens, state.Token));
  md.core.ruler.after('block', 'reply_table_align', (state) => tableAlignClasses(state.tokens));

  const rules = md.renderer.rules;
  rules.fence = (tokens, idx, _options, env?: RenderEnv) => {
    const token = tokens[idx];
    const language = languageOf(token.info);
    const body = env?.plainCode ? escapeHtml(token.content) : highlightCode(token.content, language);
    const cls = language ? `hljs language-${escapeHtml(language)}` : 'hljs'; // l10n-ignore: class names
    const path = codePathOf(token.info);
    return `<pre class="md-code"${path ? ` data-path="${escapeHtml(path)}"` : ''}><code class="${cls}">${body}</code></pre>\n`;
  };
  rules.code_block = (tokens, idx) =>
    `<pre class="md-code"><code class="hljs">${escapeHtml(tokens[idx].content)}</code></pre>\n`;
  rules.image = (tokens, idx, options, env, self) => {
    const token = tokens[idx];
    const src = String(token.attrGet('src') ?? '');
    const alt = self.renderInlineAsText(token.children ?? [], options, env) || 'image';
    const label = `<span class="md-image-label">${escapeHtml(alt)}</span>`;
    if (!isAllowedUrl(src)) return label;
    return `<a class="md-image-link" href="${escapeHtml(src)}" title="Image (not loaded): ${escapeHtml(src)}">${label}</a>`;
  };
  rules.task_checkbox = (tokens, idx) =>
    `<input class="task-list-item-checkbox" type="checkbox" disabled${tokens[idx].meta?.checked ? ' checked' : ''}> `;
  return md;
}

type TokenCtor = new (type: string, tag: string, nesting: Token['nesting']) => Token;

/** GitHub task lists: `- [ ] x` / `- [x] x` items get a disabled checkbox. */
function taskLists(tokens: Token[], TokenClass: TokenCtor): void {
  for (let i = 2; i < tokens.length; i++) {
    const inline = tokens[i];
    if (inline.type !== 'inline' || tokens[i - 1].type !== 'paragraph_open' || tokens[i - 2].type !== 'list_item_open') continue;
    const first = inline.children?.[0];
    const m = first?.type === 'text' ? /^\[([ xX])\](?: |$)/.exec(first.content) : null;
    if (!first || !m) continue;
    first.content = first.content.slice(m[0].length);
    const box = new TokenClass('task_checkbox', 'input', 0);
    box.meta = { checked: m[1] !== ' ' };
    inline.children!.unshift(box);
    tokens[i - 2].attrJoin('class', 'task-list-item');
    for (let j = i - 3; j >= 0; j--) {
      const t = tokens[j];
      if ((t.type === 'bullet_list_open' || t.type === 'ordered_list_open') && t.level === tokens[i - 2].level - 1) {
        if (!String(t.attrGet('class') ?? '').includes('contains-task-list')) t.attrJoin('class', 'contains-task-list');
        break;
      }
    }
  }
}

/** markdown-it writes table alignment as `style="text-align:…"`; use classes (no style attributes). */
function tableAlignClasses(tokens: Token[]): void {
  for (const t of tokens) {
    if (t.type !== 'th_open' && t.type !== 'td_open') continue;
    const style = t.attrGet('style');
    if (typeof style !== 'string') continue;
    if (!style) continue;
    t.attrs = (t.attrs ?? []).filter(([name]) => name !== 'style');
    const m = /text-align:\s*(left|right|center)/.exec(style);
    if (m) t.attrJoin('class', `md-align-${m[1]}`);
  }
}
