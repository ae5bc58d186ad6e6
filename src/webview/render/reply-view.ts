// One assistant reply in the DOM, rendered incrementally while it streams.
//
// `append` only queues text; at most once per animation frame the view
//   1. takes the blocks that became finished (BlockSplitter) and renders each one once, appending
//      it before the tail (finished blocks are never touched again);
//   2. re-renders only the open tail block, into a detached fragment, then swaps it in.
// Every fragment is markdown-it output passed through DOMPurify (pipeline.ts, sanitize.ts) before it is
// inserted; toolbars and buttons are built with createElement/textContent.
import { announce } from './announce';
import { BlockSplitter, completePartialTable, openFence, plainAppend } from './blocks';
import { addCodeToolbars, iconButton, type CodeAction } from './codeToolbar';
import { languageOf } from './highlight';
import { isOpenableUrl, type RenderEnv } from './markdown';
import { morph } from './morph';
import { adoptRest, allClosed, inlineRest, lastSpace, restNodes } from './inlineAppend';
import { getPipeline, renderFragment } from './pipeline';
import { plainCodeElement } from './tokenDom';
import * as l10n from '@vscode/l10n';

export interface RenderHooks {
  /** A code block toolbar button was used. */
  /** `path`: the file the block names in its info string (```ts src/a.ts), if any. */
  onCodeAction?(action: CodeAction, code: string, language: string, path?: string): void;
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

const GROUP_SIZE = 16;
const SECTION_SIZE = 16;

const INLINE_PARENTS = new Set(['P', 'LI', 'TD', 'TH', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6']);

/**
 * The last text node under `root` if it sits directly in a paragraph, list item, cell or heading.
 * The line breaks markdown-it writes between block tags (`</p>\n`, `</li>\n</ul>\n`) are text nodes
 * outside any inline parent; they are stepped over (otherwise the last node is always one of them).
 */
function lastTextNode(root: Element): Text | null {
  let node: Node | null = root.lastChild;
  for (;;) {
    if (!node) return null;
    if (node instanceof Text) {
      const parent = node.parentElement;
      if (parent && INLINE_PARENTS.has(parent.tagName)) return node;
      if (/\S/.test(node.data)) return null;
      node = node.previousSibling;
    } else if (node instanceof Element) {
      node = node.lastChild;
    } else {
      return null;
    }
  }
}

export function createReplyView(hooks: RenderHooks = {}): ReplyView {
  const { blockStarts } = getPipeline();
  const doc = document;
  const element = doc.createElement('div');
  element.className = 'reply-body';

  let source = '';
  let splitter = new BlockSplitter(blockStarts);
  /** Link reference definitions of the finished blocks. */
  let env: RenderEnv = { references: {} };
  let tailEl: HTMLElement | null = null;
  let renderedTail: string | null = null;
  let actions: HTMLElement | null = null;
  let frame = 0;
  let announced = false;
  /** Text came by `append` (a stream): the reply is announced when it ends, even if it ends with `setText`. */
  let streamed = false;

  const renderBlock = (src: string): HTMLElement => {
    const block = doc.createElement('div');
    block.className = 'md-block';
    const fragment = renderFragment(src, env);
    addCodeToolbars(fragment);
    block.append(fragment);
    return block;
  };

  /** Finished blocks go into groups of GROUP_SIZE, groups into sections of SECTION_SIZE, both
   *  `content-visibility: auto` (see media/render.css). Work the browser does every frame for each
   *  such element (its visibility observer) and for each child of the reply (block layout of the
   *  reply whose tail changed) then grows with the number of sections, 1 per 256 blocks, not with
   *  the number of blocks or groups, so per-frame cost stays flat however long the reply gets. */
  let group: HTMLElement | null = null;
  let section: HTMLElement | null = null;
  let groupsInSection = 0;
  let blocksInGroup = 0;
  const commit = (blocks: string[]) => {
    if (blocks.length === 0) return;
    for (const src of blocks) {
      if (!group || blocksInGroup >= GROUP_SIZE) {
        if (!section || groupsInSection >= SECTION_SIZE) {
          section = doc.createElement('div');
          section.className = 'md-section';
          element.insertBefore(section, tailEl ?? actions);
          groupsInSection = 0;
        }
        group = doc.createElement('div');
        group.className = 'md-group';
        section.append(group);
        groupsInSection++;
        blocksInGroup = 0;
      }
      blocksInGroup++;
      // Rendered detached, then inserted: one insertion per block, layout once per frame.
      group.append(renderBlock(src));
    }
    renderedTail = null;
    inline = null;
  };

  /**
   * The open paragraph taking inline Markdown without being rendered again (inlineAppend.ts): the
   * tail's settled source, the paragraph, the nodes of the rest after it, and the tail's references.
   */
  let inline: { settled: string; p: HTMLElement; rest: ChildNode[]; env: RenderEnv } | null = null;

  /** The open code fence shown in the tail by the fast path: its opener and text node. */
  let tailFence: { info: string; code: HTMLElement; shown: string } | null = null;

  const ensureTailEl = (): HTMLElement => {
    if (!tailEl) {
      tailEl = doc.createElement('div');
      tailEl.className = 'md-block md-tail';
      element.insertBefore(tailEl, actions);
    }
    return tailEl;
  };

  /**
   * Fast path for the commonest large tail, a code fence that is still streaming: the code is
   * plain text (highlighted once the fence closes), so it goes in as a text node, not HTML, and
   * new code is appended as text instead of re-rendering the block.
   */
  const renderOpenFence = (info: string, code: string): void => {
    if (tailFence && tailFence.info === info && code.startsWith(tailFence.shown)) {
      // A new text node per frame: growing one long node costs the browser a pass over all of
      // its text on every change (the code block is rendered whole, as one node, once it closes).
      if (code.length > tailFence.shown.length) tailFence.code.append(doc.createTextNode(code.slice(tailFence.shown.length)));
      tailFence.shown = code;
      return;
    }
    const { pre, code: codeEl } = plainCodeElement(doc, code, languageOf(info));
    ensureTailEl().replaceChildren(pre);
    tailFence = { info, code: codeEl, shown: code };
  };

  /**
   * Fast path for the commonest small change, plain words added to the end of the open tail's
   * last line (see plainAppend): appended to the last text node instead of re-rendering.
   */
  const appendPlainText = (tail: string): boolean => {
    if (renderedTail === null || !tailEl || tailFence) return false;
    const last = lastTextNode(tailEl);
    if (!last) return false;
    // The text of the run of text nodes `last` ends (earlier frames' words are nodes of their own).
    let shown = last.data;
    for (let prev = last.previousSibling; prev instanceof Text; prev = prev.previousSibling) shown = prev.data + shown;
    const delta = plainAppend(renderedTail, tail, shown);
    if (delta === null) return false;
    // A node of its own, as for code: growing one node costs the browser a pass over its text.
    if (delta) last.after(doc.createTextNode(delta));
    return true;
  };

  /**
   * Fast path for words with inline Markdown added to the open paragraph (see inlineAppend.ts):
   * the text after its settled part is rendered on its own and put after the settled nodes; what of
   * it ends before its last space and closes all it opens settles too.
   */
  const appendInline = (tail: string): boolean => {
    if (!inline || !tailEl || inline.p.parentNode !== tailEl || !tail.startsWith(inline.settled)) return false;
    const rest = tail.slice(inline.settled.length);
    // Colons and dashes under a row of pipes: the whole render shows a table.
    if (!inlineRest(rest) || completePartialTable(tail) !== tail) return false;
    const cut = lastSpace(rest);
    // The head may settle unless it ends in a space markdown-it would trim (a no-break space).
    const head = cut > 0 && !/\s$/.test(rest.slice(0, cut)) ? restNodes(renderFragment, rest.slice(0, cut), inline.env) : null;
    const settles = head !== null && allClosed(head);
    const nodes = restNodes(renderFragment, settles ? rest.slice(cut) : rest, inline.env);
    if (!nodes) return false;
    for (const node of inline.rest) node.remove();
    if (settles) {
      inline.p.append(...head);
      inline.settled += rest.slice(0, cut);
    }
    inline.p.append(...nodes);
    inline.rest = nodes;
    return true;
  };

  /** After the tail was rendered whole: whether its last paragraph may take inline text from now on. */
  const settleInline = (tail: string, env: RenderEnv) => {
    inline = null;
    // The tail's last line is in its last block (a paragraph there is the tail's last element).
    const p = tailEl?.lastElementChild;
    if (!(p instanceof HTMLElement) || p.tagName !== 'P') return;
    const adopted = adoptRest(p, tail, renderFragment, env);
    if (adopted) inline = { ...adopted, p, env };
  };

  const renderTail = () => {
    const tail = splitter.tail;
    if (tail === renderedTail) return;
    // A link reference definition renders nothing, and its title may take lines that follow it:
    // a tail that may hold one is rendered whole.
    const fast = !tail.includes(']:');
    if (fast && (inline ? appendInline(tail) : appendPlainText(tail))) {
      renderedTail = tail;
      return;
    }
    inline = null;
    renderedTail = tail;
    if (!tail.trim()) {
      tailEl?.remove();
      tailEl = null;
      tailFence = null;
      return;
    }
    const fence = openFence(tail);
    if (fence) {
      renderOpenFence(fence.info, fence.code);
      return;
    }
    tailFence = null;
    // A copy of the references: an unfinished definition must not stick.
    const tailEnv: RenderEnv = { references: { ...env.references }, plainCode: true };
    morph(ensureTailEl(), renderFragment(completePartialTable(tail), tailEnv));
    if (fast) settleInline(tail, tailEnv);
  };

  const flush = (final: boolean) => {
    commit(final ? splitter.end() : splitter.take());
    renderTail();
  };

  const onFrame = () => {
    frame = 0;
    flush(false);
  };

  const showActions = () => {
    if (actions) return;
    actions = doc.createElement('div');
    actions.className = 'reply-actions';
    const copy = iconButton(doc, 'reply-action', l10n.t('Copy reply'), 'copy');
    copy.dataset.replyAction = 'copy';
    actions.append(copy);
    element.append(actions);
  };

  const hideActions = () => {
    actions?.remove();
    actions = null;
  };

  const cancelFrame = () => {
    if (frame) cancelAnimationFrame(frame);
    frame = 0;
  };

  const reset = () => {
    cancelFrame();
    element.replaceChildren();
    splitter = new BlockSplitter(blockStarts);
    env = { references: {} };
    tailEl = null;
    tailFence = null;
    inline = null;
    group = null;
    section = null;
    groupsInSection = 0;
    blocksInGroup = 0;
    renderedTail = null;
    actions = null;
  };

  const onClick = (event: MouseEvent) => {
    const target = event.target instanceof Element ? event.target : null;
    if (!target || !element.contains(target)) return;
    const link = target.closest('a');
    if (link && element.contains(link)) {
      // Links are never navigated inside the webview; http(s) ones are opened by the host.
      event.preventDefault();
      const href = link.getAttribute('href') ?? '';
      if (event.type === 'click' && isOpenableUrl(href)) hooks.onOpenLink?.(href);
      return;
    }
    if (event.type !== 'click') return;
    const button = target.closest('button');
    if (!button || !element.contains(button)) return;
    const action = button.dataset.codeAction as CodeAction | undefined;
    if (action) {
      const block = button.closest('.code-block');
      const code = (block?.querySelector('pre code')?.textContent ?? '').replace(/\n$/, '');
      const info = block instanceof HTMLElement ? block.dataset : undefined;
      hooks.onCodeAction?.(action, code, info?.language ?? '', info?.path || undefined);
    } else if (button.dataset.replyAction === 'copy') {
      hooks.onCopyReply?.(source);
    }
  };
  element.addEventListener('click', onClick);
  element.addEventListener('auxclick', onClick);

  /** Plain text of the reply for the screen reader announcement (code toolbars left out). */
  const summary = (limit = 600): string => {
    const walker = doc.createTreeWalker(element, NodeFilter.SHOW_TEXT, {
      acceptNode: (node) =>
        node.parentElement?.closest('.code-toolbar, .reply-actions') ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT,
    });
    let text = '';
    while (text.length < limit && walker.nextNode()) text += walker.currentNode.textContent ?? '';
    text = text.replace(/\s+/g, ' ').trim();
    return text.length > limit ? text.slice(0, limit) + '…' : text;
  };

  /** One announcement per reply, with its text (a reply without text, e.g. one that failed, has its error said instead). */
  const announceOnce = () => {
    if (announced) return;
    announced = true;
    const text = summary();
    if (text) announce(l10n.t('Assistant: {0}', text));
  };

  return {
    element,
    append(chunk) {
      if (!chunk) return;
      source += chunk;
      streamed = true;
      splitter.push(chunk);
      hideActions();
      if (!frame) frame = requestAnimationFrame(onFrame);
    },
    finish() {
      cancelFrame();
      flush(true);
      showActions();
      announceOnce();
    },
    setText(markdown) {
      reset();
      source = markdown;
      splitter.push(markdown);
      flush(true);
      showActions();
      // Restored replies are not announced; a streamed one replaced by its final text is.
      if (streamed) announceOnce();
      else announced = true;
    },
    text: () => source,
    dispose() {
      cancelFrame();
      element.removeEventListener('click', onClick);
      element.removeEventListener('auxclick', onClick);
      element.remove();
    },
  };
}
