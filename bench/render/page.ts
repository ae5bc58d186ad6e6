// Browser side of the render benchmark: the real ReplyView and a naive renderer that re-renders
// the whole text on every chunk with the same markdown-it configuration and DOMPurify sanitizer.
import { createReplyView, renderMarkdownFragment, type ReplyView } from '../../src/webview/render';
import { streamAgainstFresh } from '../../test/render/streamCompare';

declare global {
  interface Window {
    bench: typeof api;
  }
}

const app = document.getElementById('app')!;
let prepared: ReplyView | undefined;
const kept: HTMLElement[] = [];
app.style.cssText = '';
const chunk = (text: string, size: number) => {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
};

/**
 * The floors' frame loop, the same as `ours` (its two timing callbacks around the frame's work,
 * and the same awaits), with `work(i)` as the frame's only work: returns the script ms measured.
 */
async function floorFrames(frames: number, work: (i: number) => void): Promise<number> {
  let scriptMs = 0;
  for (let i = 0; i < frames; i++) {
    let before = 0;
    requestAnimationFrame(() => (before = performance.now()));
    const t0 = performance.now();
    requestAnimationFrame(() => work(i));
    const appendMs = performance.now() - t0;
    scriptMs += appendMs + (await new Promise<number>((ok) => requestAnimationFrame(() => ok(performance.now() - before))));
  }
  return scriptMs;
}

export interface RunResult {
  /** JavaScript time of the renderer: append() calls plus its per-frame render work, ms. */
  scriptMs: number;
  /** Longest single frame's render work (script only), ms. */
  longestScriptMs: number;
  frames: number;
  renders: number;
  chunks: number;
  wallMs: number;
  textLength: number;
}

const api = {
  /** The real ReplyView: `perFrame` chunks arrive each frame, then the frame renders. */
  async ours(text: string, chunkSize: number, perFrame: number): Promise<RunResult> {
    const chunks = chunk(text, chunkSize);
    // Diagnostics only (bench/render/profile.ts): a view prepared with a finished prefix.
    const view = prepared ?? createReplyView({});
    prepared = undefined;
    if (view.element.parentNode !== app) app.replaceChildren(view.element);
    let scriptMs = 0;
    let longest = 0;
    let frames = 0;
    const start = performance.now();
    for (let i = 0; i < chunks.length; i += perFrame) {
      // rAF callbacks run in registration order: `before` runs just before the view's own frame
      // callback (registered by its first append), `after` right after it.
      let before = 0;
      requestAnimationFrame(() => (before = performance.now()));
      const t0 = performance.now();
      for (let k = i; k < Math.min(i + perFrame, chunks.length); k++) view.append(chunks[k]);
      const appendMs = performance.now() - t0;
      const renderMs = await new Promise<number>((ok) => requestAnimationFrame(() => ok(performance.now() - before)));
      scriptMs += appendMs + renderMs;
      longest = Math.max(longest, appendMs + renderMs);
      frames++;
    }
    const t1 = performance.now();
    view.finish();
    const finishMs = performance.now() - t1;
    scriptMs += finishMs;
    longest = Math.max(longest, finishMs);
    await new Promise((ok) => requestAnimationFrame(ok));
    const wallMs = performance.now() - start;
    const textLength = view.element.textContent?.length ?? 0;
    return { scriptMs, longestScriptMs: longest, frames, renders: frames + 1, chunks: chunks.length, wallMs, textLength };
  },

  /**
   * Naive: the same arrival, but every chunk re-renders the whole text so far (markdown-it +
   * DOMPurify, same configuration) and replaces the reply's DOM. With `sampleEvery` > 1 only every
   * n-th chunk is rendered and the time is scaled by n (each render costs what the text length
   * at that point costs, so the sample is an unbiased estimate); the result says so.
   */
  async naive(text: string, chunkSize: number, perFrame: number, sampleEvery = 1): Promise<RunResult> {
    const chunks = chunk(text, chunkSize);
    const el = document.createElement('div');
    el.className = 'reply-body';
    app.replaceChildren(el);
    let source = '';
    let scriptMs = 0;
    let longest = 0;
    let frames = 0;
    let renders = 0;
    const start = performance.now();
    for (let i = 0; i < chunks.length; i += perFrame) {
      let frameMs = 0;
      for (let k = i; k < Math.min(i + perFrame, chunks.length); k++) {
        source += chunks[k];
        if (k % sampleEvery !== sampleEvery - 1 && k !== chunks.length - 1) continue;
        const t0 = performance.now();
        el.replaceChildren(renderMarkdownFragment(source));
        const ms = performance.now() - t0;
        renders++;
        frameMs += ms;
        scriptMs += k === chunks.length - 1 ? ms : ms * sampleEvery;
      }
      longest = Math.max(longest, frameMs);
      if (frameMs > 0) {
        await new Promise((ok) => requestAnimationFrame(ok));
        frames++;
      }
    }
    const wallMs = performance.now() - start;
    return { scriptMs, longestScriptMs: longest, frames, renders, chunks: chunks.length, wallMs, textLength: el.textContent?.length ?? 0 };
  },

  /**
   * The floor of any renderer at this arrival rate: with the finished reply of `text` on the page
   * (rendered by ours), change one short text node per frame for `frames` frames.
   */
  async frameFloor(text: string, frames: number): Promise<number> {
    const view = createReplyView({});
    app.replaceChildren(view.element);
    view.setText(text);
    const p = document.createElement('p');
    const node = document.createTextNode('');
    p.append(node);
    view.element.append(p);
    // One text node changed as the frame's only work: what is left is the browser's cost of a
    // frame that changes something, plus the harness's own.
    return floorFrames(frames, (i) => (node.data = `word ${i}`));
  },

  /**
   * A streaming renderer with no work of its own: the finished reply of `text` (rendered once by
   * ours, off the page) is shown again on the page over `frames` frames, its DOM revealed in
   * document order: each frame adds the next share of its text as new text nodes, and inserts (as
   * shallow copies) the elements that text is in as they are reached. As in ours, the block being
   * revealed sits after the finished ones, outside their `content-visibility` sections and groups,
   * and moves into its group when the next block starts. No parsing, no re-render: what is left is
   * the browser's cost of a reply whose blocks, list items, rows and code appear as they stream
   * (style of the new elements, layout, paint), plus the same frame loop as `ours`.
   */
  async structureFloor(text: string, frames: number): Promise<number> {
    const source = createReplyView({});
    source.setText(text);
    const target = source.element.cloneNode(false) as HTMLElement;
    app.replaceChildren(target);
    // The steps in document order: an element to insert under its parent's copy, or a text node.
    const steps: Array<{ node: Node; parent: number }> = [];
    const walk = (node: Node, parent: number) => {
      for (const child of Array.from(node.childNodes)) {
        steps.push({ node: child, parent });
        if (child instanceof Element) walk(child, steps.length - 1);
      }
    };
    walk(source.element, -1);
    const copies: Node[] = [];
    const total = steps.reduce((n, s) => n + (s.node instanceof Text ? s.node.data.length : 0), 0);
    const perFrame = Math.ceil(total / frames);
    let step = 0;
    let offset = 0;
    /** The block being revealed (shown at the end of the reply) and the group it goes to when done. */
    let open: { block: Node; group: Node } | undefined;
    const settle = () => {
      if (open) open.group.appendChild(open.block);
      open = undefined;
    };
    const reveal = () => {
      let budget = perFrame;
      while (step < steps.length && budget > 0) {
        const { node, parent } = steps[step];
        const into = parent < 0 ? target : copies[parent];
        if (node instanceof Text) {
          const piece = node.data.slice(offset, offset + budget);
          into.appendChild(document.createTextNode(piece));
          budget -= piece.length;
          offset += piece.length;
          if (offset < node.data.length) break;
          offset = 0;
        } else {
          const copy = node.cloneNode(false);
          copies[step] = copy;
          if (node instanceof Element && node.classList.contains('md-block')) {
            settle();
            open = { block: copy, group: into };
            target.appendChild(copy);
          } else {
            into.appendChild(copy);
          }
        }
        step++;
      }
      if (step >= steps.length) settle();
    };
    const scriptMs = await floorFrames(frames, reveal);
    source.dispose();
    return scriptMs;
  },

  /**
   * What showing the finished reply costs once, whatever the renderer does while it streams: the
   * whole text given to a fresh view in one go (every block rendered once: markdown-it,
   * highlighting, sanitizing, toolbars), and the frame that lays it out and paints it.
   */
  async oneShot(text: string): Promise<void> {
    const view = createReplyView({});
    app.replaceChildren(view.element);
    view.setText(text);
    await new Promise((ok) => requestAnimationFrame(ok));
    await new Promise((ok) => requestAnimationFrame(ok));
  },

  /**
   * Correctness guard for the fast paths: streams `text` through ours one chunk per frame and
   * compares each frame with a fresh render of the text so far (test/render/streamCompare.ts).
   */
  async verify(text: string, chunkSize: number): Promise<{ checked: number; mismatches: number; first: string }> {
    const r = await streamAgainstFresh(app, chunk(text, chunkSize));
    return { checked: r.frames, mismatches: r.differs, first: r.first };
  },

  /** Diagnostics: the next `ours` run streams into a view that already shows `prefix`, finished. */
  async prepare(prefix: string, detached = false): Promise<void> {
    prepared = createReplyView({});
    app.replaceChildren(prepared.element);
    prepared.setText(prefix);
    if (detached) {
      // Same heap, not in the document: the next run streams into a new view.
      kept.push(prepared.element);
      prepared.element.remove();
      prepared = undefined;
    }
    for (let i = 0; i < 10; i++) await new Promise((ok) => requestAnimationFrame(ok));
  },

  /** Frames per second of requestAnimationFrame with nothing to do (for the method line). */
  async idleFrameRate(): Promise<number> {
    const t0 = performance.now();
    for (let i = 0; i < 60; i++) await new Promise((ok) => requestAnimationFrame(ok));
    return 60000 / (performance.now() - t0);
  },
  clear(): void {
    app.replaceChildren();
  },
};
window.bench = api;
