// Browser side of the render safety test: the REAL render pipeline (src/webview/render) plus
// probes. Bundled by esbuild and loaded under the panel-like CSP (and once without CSP).
import { announce, createReplyView, createScrollFollower, type CodeAction, type ReplyView } from '../../src/webview/render';
import { getPipeline, renderBothWays } from '../../src/webview/render/pipeline';
import { streamAgainstFresh } from './streamCompare';

declare global {
  interface Window {
    __pwned?: unknown;
    __cspViolations: string[];
    renderTest: typeof api;
  }
}

window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`);
});
document.body.style.setProperty('--chat-font-size', '13px');

const app = document.getElementById('app')!;

interface Calls {
  openLink: string[];
  codeAction: Array<[CodeAction, string, string]>;
  /** The file each code action was for (null: the block names none). */
  codePath: Array<string | null>;
  copyReply: string[];
}

const calls: Calls = { openLink: [], codeAction: [], codePath: [], copyReply: [] };
const hooks = {
  onOpenLink: (href: string) => void calls.openLink.push(href),
  onCodeAction: (action: CodeAction, code: string, language: string, path?: string) => {
    calls.codeAction.push([action, code, language]);
    calls.codePath.push(path ?? null);
  },
  onCopyReply: (markdown: string) => void calls.copyReply.push(markdown),
};

const TAGS = new Set([
  'A', 'BLOCKQUOTE', 'BR', 'CODE', 'DEL', 'EM', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'HR', 'INPUT', 'LI', 'OL', 'P',
  'PRE', 'S', 'SPAN', 'STRONG', 'TABLE', 'TBODY', 'TD', 'TH', 'THEAD', 'TR', 'UL', 'DIV', 'BUTTON',
  // Where a very long unbroken run may wrap (render/longWords.ts): no attributes, no content.
  'WBR',
]);
const ATTRS = new Set([
  'href', 'title', 'class', 'start', 'type', 'checked', 'disabled', 'data-language', 'data-code-action',
  'data-reply-action', 'role', 'aria-label', 'aria-hidden', 'data-path', 'tabindex',
]);
const SAFE_HREF = /^(?:https?:\/\/|#)/i;

/** Everything in `root` that should never be there. */
function violations(root: Element): string[] {
  const found: string[] = [];
  for (const el of Array.from(root.querySelectorAll('*'))) {
    if (!TAGS.has(el.tagName)) found.push(`element <${el.tagName.toLowerCase()}>`);
    if (el.namespaceURI !== 'http://www.w3.org/1999/xhtml') found.push(`foreign namespace ${el.namespaceURI}`);
    for (const attr of Array.from(el.attributes)) {
      const name = attr.name.toLowerCase();
      if (name.startsWith('on')) found.push(`event handler ${name}`);
      else if (!ATTRS.has(name)) found.push(`attribute ${name}`);
      // Only the renderer's code blocks are reachable by Tab (their code scrolls sideways).
      else if (name === 'tabindex' && !(el.tagName === 'PRE' && el.classList.contains('md-code') && attr.value === '0')) found.push(`attribute tabindex on <${el.tagName.toLowerCase()}>`);
      const value = attr.value.replace(/[\u0000-\u0020\u007f-\u00a0\u1680\u2000-\u2029\u205f\u3000\ufeff]/g, '');
      if (/(?:java|vb)script:|data:/i.test(value) && name !== 'title') found.push(`dangerous value ${name}=${attr.value.slice(0, 60)}`);
    }
    if (el.tagName === 'A' && el.hasAttribute('href') && !SAFE_HREF.test(el.getAttribute('href')!)) {
      found.push(`href ${el.getAttribute('href')!.slice(0, 60)}`);
    }
    if (el.tagName === 'INPUT' && ((el as HTMLInputElement).type !== 'checkbox' || !(el as HTMLInputElement).disabled)) {
      found.push('enabled or non-checkbox input');
    }
  }
  // Anything executable or loading anywhere in the document (outside the test's own script).
  const scripts = document.querySelectorAll('script');
  if (scripts.length !== 1) found.push(`${scripts.length} script elements in the document`);
  for (const sel of ['iframe', 'object', 'embed', 'img', 'svg', 'math', 'style', 'meta:not([charset])', 'base', 'form', 'link:not([href="/render.css"])', 'video', 'audio', 'source', 'template']) {
    if (document.querySelector(sel)) found.push(`document contains ${sel}`);
  }
  return found;
}

const nextFrame = () => new Promise<void>((ok) => requestAnimationFrame(() => ok()));

/** Clicks every link of the view; returns hrefs offered to the host. Navigation is checked outside. */
function clickLinks(view: ReplyView): { clicked: number; offered: string[]; defaultNotPrevented: number } {
  const before = calls.openLink.length;
  let defaultNotPrevented = 0;
  const links = Array.from(view.element.querySelectorAll('a'));
  for (const a of links) {
    const event = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 });
    if (a.dispatchEvent(event)) defaultNotPrevented++;
  }
  return { clicked: links.length, offered: calls.openLink.slice(before), defaultNotPrevented };
}

interface CaseResult {
  violations: string[];
  links: { clicked: number; offered: string[]; defaultNotPrevented: number };
  text: string;
  html: string;
}

const api = {
  calls,
  /**
   * Every `minStep`-th prefix of each text (at most `maxPrefixes` of a long one) rendered both
   * ways, as a streaming tail (`plainCode`) or as finished blocks: built from tokens
   * and through markdown-it's HTML and the sanitizer. Counts the prefixes the builder took, those
   * it left to the sanitizer, and those where the two differ (node for node, and as serialized).
   */
  tailBuilder(texts: string[], minStep: number, maxPrefixes = 300, plainCode = true): { compared: number; built: number; fallback: number; differs: number; first: string } {
    let compared = 0;
    let built = 0;
    let differs = 0;
    let first = '';
    const html = (f: DocumentFragment) => {
      const div = document.createElement('div');
      div.append(f.cloneNode(true));
      return div.innerHTML;
    };
    for (const text of texts) {
      const step = Math.max(minStep, Math.ceil(text.length / maxPrefixes));
      for (let end = Math.min(step, text.length); ; end = Math.min(end + step, text.length)) {
        const prefix = text.slice(0, end);
        const both = renderBothWays(prefix, plainCode);
        compared++;
        if (both.built) {
          built++;
          const a = html(both.built);
          const b = html(both.sanitized);
          if (!both.built.isEqualNode(both.sanitized) || a !== b) {
            differs++;
            if (!first) {
              let at = 0;
              while (at < a.length && a[at] === b[at]) at++;
              first = `prefix ${JSON.stringify(prefix.slice(-60))}: built …${a.slice(Math.max(0, at - 60), at + 60)}… sanitized …${b.slice(Math.max(0, at - 60), at + 60)}…`;
            }
          }
        }
        if (end === text.length) break;
      }
    }
    return { compared, built, fallback: compared - built, differs, first };
  },
  /** setText of a complete reply. */
  whole(markdown: string): CaseResult {
    const view = createReplyView(hooks);
    app.replaceChildren(view.element);
    view.setText(markdown);
    const found = violations(view.element);
    const links = clickLinks(view);
    const result = { violations: found, links, text: view.text(), html: view.element.innerHTML.slice(0, 2000) };
    view.dispose();
    return result;
  },
  /** Streams `chunks`, letting a frame render every `perFrame` chunks; checks the DOM each frame. */
  async streamed(chunks: string[], perFrame: number): Promise<CaseResult> {
    const view = createReplyView(hooks);
    app.replaceChildren(view.element);
    const found = new Set<string>();
    for (let i = 0; i < chunks.length; i++) {
      view.append(chunks[i]);
      if ((i + 1) % perFrame === 0 || i === chunks.length - 1) {
        await nextFrame();
        for (const v of violations(view.element)) found.add(`streaming: ${v}`);
      }
    }
    view.finish();
    for (const v of violations(view.element)) found.add(v);
    const links = clickLinks(view);
    const result = { violations: [...found], links, text: view.text(), html: view.element.innerHTML.slice(0, 2000) };
    view.dispose();
    return result;
  },
  /** Streams `chunks`, one a frame, each frame compared with a fresh render (streamCompare.ts). */
  streamEqualsFresh(chunks: string[]): Promise<{ frames: number; differs: number; first: string }> {
    return streamAgainstFresh(app, chunks, hooks);
  },
  /** Streams `chunks`, one a frame: the characters of Markdown the renderer parsed meanwhile. */
  async parsedWhileStreaming(chunks: string[]): Promise<number> {
    const md = getPipeline().md;
    const parse = md.parse.bind(md);
    let parsed = 0;
    md.parse = (src, env) => {
      parsed += src.length;
      return parse(src, env);
    };
    try {
      const view = createReplyView(hooks);
      app.replaceChildren(view.element);
      for (const chunk of chunks) {
        view.append(chunk);
        await nextFrame();
      }
      view.dispose();
    } finally {
      delete (md as { parse?: unknown }).parse; // the prototype's again
    }
    return parsed;
  },
  /** Leaves a reply on the page for positive checks driven by Playwright. */
  show(markdown: string): void {
    const view = createReplyView(hooks);
    app.replaceChildren(view.element);
    view.setText(markdown);
  },
  /** Streams `chunks` one per frame, recording the DOM state after each frame. */
  async streamProbe(chunks: string[]): Promise<{ frames: string[]; firstBlockKept: boolean; finalHtml: string }> {
    const view = createReplyView(hooks);
    app.replaceChildren(view.element);
    const frames: string[] = [];
    let firstBlock: Element | null = null;
    let firstBlockKept = true;
    for (const chunk of chunks) {
      view.append(chunk);
      await nextFrame();
      frames.push(view.element.innerHTML);
      const first = view.element.querySelector('.md-block:not(.md-tail)');
      if (first && !firstBlock) firstBlock = first;
      if (firstBlock && (view.element.querySelector('.md-block') !== firstBlock || !firstBlock.isConnected)) firstBlockKept = false;
    }
    view.finish();
    return { frames, firstBlockKept, finalHtml: view.element.innerHTML };
  },
  /** A fixed-height scroller with a streaming reply and a follower. */
  setupScroll(): void {
    const scroller = document.createElement('div');
    scroller.id = 'scroller';
    Object.assign(scroller.style, { height: '200px', overflowY: 'auto', border: '1px solid gray' });
    const host = document.createElement('div');
    host.id = 'button-host';
    const view = createReplyView(hooks);
    scroller.append(view.element);
    app.replaceChildren(scroller, host);
    createScrollFollower(scroller, host);
    (window as unknown as { scrollView: ReplyView }).scrollView = view;
  },
  async scrollAppend(text: string, lines: number): Promise<void> {
    const view = (window as unknown as { scrollView: ReplyView }).scrollView;
    for (let i = 0; i < lines; i++) {
      view.append(`${text} ${i}\n\n`);
      await nextFrame();
    }
    await nextFrame();
  },
  /**
   * Moves the view up by `px` as a drag of the scrollbar does (no wheel or key event, the scroll
   * event only with the next frame), changes the content in the same task, then streams `lines` more.
   */
  async scrollDragThenAppend(px: number, text: string, lines: number): Promise<number> {
    const s = document.getElementById('scroller')!;
    const view = (window as unknown as { scrollView: ReplyView }).scrollView;
    s.scrollTop = s.scrollTop - px;
    const dragged = s.scrollTop;
    // A host message handled before the scroll event changes the chat at once (a status line
    // under the reply, a finished turn), not in the reply's next frame.
    const status = document.createElement('p');
    status.textContent = `${text}: waiting for the service… 10 s`;
    view.element.append(status);
    for (let i = 0; i < lines; i++) {
      await nextFrame();
      view.append(`${text} ${i}\n\n`);
    }
    await nextFrame();
    return dragged;
  },
  scrollState(): { top: number; max: number } {
    const s = document.getElementById('scroller')!;
    return { top: s.scrollTop, max: s.scrollHeight - s.clientHeight };
  },
  liveRegions(): Array<{ live: string | null; text: string }> {
    return Array.from(document.querySelectorAll('[aria-live]')).map((el) => ({ live: el.getAttribute('aria-live'), text: el.textContent ?? '' }));
  },
  announce,
  createReplyView: () => {
    const view = createReplyView(hooks);
    app.replaceChildren(view.element);
    return view;
  },
};
window.renderTest = api;
