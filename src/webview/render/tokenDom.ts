// Markdown blocks built as DOM straight from markdown-it's tokens: no HTML string, no HTML
// parser, no sanitizer pass. The open tail of a streaming reply is rendered on every frame, where
// turning markdown-it's HTML into a sanitized fragment (a new document parsed per call, then
// walked and imported) was most of the renderer's own work; finished blocks without highlighted
// code are built the same way once.
//
// The result is node for node what `sanitize(md.render(src, env))` gives for the same tokens (test/render/run.ts compares the two on the generated corpus, the fixtures and the
// hostile replies): the same tags and attributes in the same order, the same text, and the line
// breaks markdown-it writes between tags as the same text nodes. Safety comes from what it can
// build: elements only from the sanitizer's allowlist, attributes only from its allowlist with
// link targets checked by its pattern, text only as text nodes. Anything else (a token type or
// attribute this builder does not know, an attribute value the sanitizer would judge further,
// markdown-it output it would not nest like the HTML parser) returns null, and the caller renders
// that frame the sanitized way.
import type { Token } from 'markdown-it';
import { codePathOf } from '../../wording/codeFence';
import { languageOf } from './highlight';
import type { RenderEnv } from './markdown';
import { ALLOWED_TAGS, ALLOWED_URI_REGEXP, checkboxLabel } from './sanitize';

/** Tags the generic open/close path may create (the others have their own token types). */
const GENERIC_TAGS = new Set(ALLOWED_TAGS.filter((t) => !['input', 'br', 'pre', 'code'].includes(t)));
/** Attributes markdown-it's generic tokens carry that the sanitizer keeps as they are. */
const GENERIC_ATTRS = new Set(['href', 'title', 'class', 'start']);
/** Characters in an attribute value that make the sanitizer look closer (or the parser differ). */
const DOUBTFUL_VALUE = /[<>\u0000-\u001f\u007f]/;
/** Whitespace and controls DOMPurify strips before it tests a link target. */
const URI_SPACE = /[\u0000-\u0020\u00a0\u1680\u180e\u2000-\u2029\u205f\u3000]/;

class Builder {
  readonly root: DocumentFragment;
  private top: ParentNode;
  private readonly stack: Element[] = [];
  private text = '';

  constructor(private readonly doc: Document) {
    this.root = doc.createDocumentFragment();
    this.top = this.root;
  }

  addText(s: string): void {
    this.text += s;
  }

  private flush(): void {
    if (!this.text) return;
    this.top.appendChild(this.doc.createTextNode(this.text));
    this.text = '';
  }

  /** Appends `el` to the current parent; `open` makes it the parent of what follows. */
  add(el: Element, open: boolean): void {
    this.flush();
    this.top.appendChild(el);
    if (open) {
      this.stack.push(el);
      this.top = el;
    }
  }

  close(tag: string): boolean {
    const el = this.stack[this.stack.length - 1];
    if (!el || el.localName !== tag) return false;
    this.flush();
    this.stack.pop();
    this.top = this.stack[this.stack.length - 1] ?? this.root;
    return true;
  }

  finish(): DocumentFragment | null {
    if (this.stack.length) return null;
    this.flush();
    return this.root;
  }
}

/** An element for a generic token, with its attributes in token order; null if not allowed. */
function genericElement(doc: Document, token: Token): Element | null {
  if (!GENERIC_TAGS.has(token.tag)) return null;
  const el = doc.createElement(token.tag);
  for (const [name, raw] of token.attrs ?? []) {
    const value = String(raw);
    if (!GENERIC_ATTRS.has(name) || DOUBTFUL_VALUE.test(value)) return null;
    if (name === 'href' && (URI_SPACE.test(value) || !ALLOWED_URI_REGEXP.test(value))) return null;
    if (name === 'start' && token.tag !== 'ol') return null;
    el.setAttribute(name, value);
  }
  return el;
}

/** markdown-it's renderToken: the line breaks it writes before and after a block tag. */
function lineBreakBefore(tokens: Token[], idx: number): boolean {
  const token = tokens[idx];
  if (!token.block || token.nesting === -1) return false;
  let prev = idx - 1;
  while (prev >= 0 && tokens[prev].hidden && tokens[prev].nesting === 0) prev--;
  return prev >= 0 && tokens[prev].hidden && tokens[prev].nesting === -1;
}

function lineBreakAfter(tokens: Token[], idx: number): boolean {
  const token = tokens[idx];
  if (!token.block) return false;
  if (token.nesting !== 1) return true;
  let next = idx + 1;
  while (next < tokens.length && tokens[next].hidden && tokens[next].nesting === 0) next++;
  if (next >= tokens.length) return true;
  const following = tokens[next];
  if (following.type === 'inline' || following.hidden) return false;
  return !(following.nesting === -1 && following.tag === token.tag);
}

/** markdown-it's default renderToken, building instead of writing. */
function renderToken(b: Builder, doc: Document, tokens: Token[], idx: number): boolean {
  const token = tokens[idx];
  if (token.hidden) return true;
  if (lineBreakBefore(tokens, idx)) b.addText('\n');
  if (token.nesting === -1) {
    if (!b.close(token.tag)) return false;
  } else {
    const el = genericElement(doc, token);
    if (!el) return false;
    b.add(el, token.nesting === 1);
  }
  if (lineBreakAfter(tokens, idx)) b.addText('\n');
  return true;
}

/**
 * A `pre.md-code > code.hljs` holding `content` as plain text, as the fence and code_block rules
 * write it unhighlighted (also the streaming tail's open fence, reply-view.ts).
 */
export function plainCodeElement(doc: Document, content: string, language: string, path = ''): { pre: HTMLElement; code: HTMLElement } {
  const pre = doc.createElement('pre');
  pre.setAttribute('class', 'md-code');
  if (path) pre.setAttribute('data-path', path);
  const code = doc.createElement('code');
  code.setAttribute('class', language ? `hljs language-${language}` : 'hljs'); // l10n-ignore: class names
  if (content) code.appendChild(doc.createTextNode(content));
  pre.appendChild(code);
  return { pre, code };
}

function codeBlock(b: Builder, doc: Document, content: string, language: string, path: string): boolean {
  if (DOUBTFUL_VALUE.test(language) || DOUBTFUL_VALUE.test(path)) return false;
  b.add(plainCodeElement(doc, content, language, path).pre, false);
  b.addText('\n');
  return true;
}

function renderInline(b: Builder, doc: Document, tokens: Token[]): boolean {
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    switch (token.type) {
      case 'text':
        b.addText(token.content);
        break;
      case 'softbreak':
        b.addText('\n');
        break;
      case 'hardbreak':
        b.add(doc.createElement('br'), false);
        b.addText('\n');
        break;
      case 'code_inline': {
        if (token.attrs?.length) return false;
        const code = doc.createElement('code');
        if (token.content) code.appendChild(doc.createTextNode(token.content));
        b.add(code, false);
        break;
      }
      case 'task_checkbox': {
        const box = doc.createElement('input');
        box.setAttribute('class', 'task-list-item-checkbox');
        box.setAttribute('type', 'checkbox');
        box.setAttribute('disabled', '');
        const checked = !!(token.meta as { checked?: boolean } | null)?.checked;
        if (checked) box.setAttribute('checked', '');
        box.setAttribute('aria-label', checkboxLabel(checked));
        b.add(box, false);
        b.addText(' ');
        break;
      }
      case 'em_open':
      case 'em_close':
      case 'strong_open':
      case 'strong_close':
      case 's_open':
      case 's_close':
      case 'link_open':
      case 'link_close':
        if (!renderToken(b, doc, tokens, i)) return false;
        break;
      default:
        // Images, raw HTML and anything added later: the sanitized way.
        return false;
    }
  }
  return true;
}

/**
 * The DOM of `tokens` (markdown-it's parse of a block or a tail, with `env`), or null when they
 * hold something this builder leaves to the HTML renderer and the sanitizer (highlighted code
 * among them: a fence is built only with `env.plainCode`).
 */
export function tokensToFragment(doc: Document, tokens: Token[], env: RenderEnv): DocumentFragment | null {
  const b = new Builder(doc);
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    let ok: boolean;
    if (token.type === 'inline') ok = renderInline(b, doc, token.children ?? []);
    else if (token.type === 'fence') {
      // Highlighted code is highlight.js's HTML: the sanitized way.
      if (token.attrs?.length || !env.plainCode) return null;
      ok = codeBlock(b, doc, token.content, languageOf(token.info), codePathOf(token.info));
    } else if (token.type === 'code_block') {
      if (token.attrs?.length) return null;
      ok = codeBlock(b, doc, token.content, '', '');
    } else if (token.type === 'html_block' || token.type === 'html_inline') ok = false;
    else ok = renderToken(b, doc, tokens, i);
    if (!ok) return null;
  }
  return b.finish();
}
