// Words with inline Markdown (`**bold**`, `code`, links) added to the open paragraph of a streaming
// reply without rendering the paragraph again.
//
// The paragraph's source is kept in two parts: a settled part, whose nodes are on the page and never
// change again, and the rest (from a space or tab on), rendered on its own each frame. Rendering the
// rest on its own gives the nodes a render of the whole paragraph would give after the settled part's
// when nothing can join across the boundary:
// - every emphasis, strikethrough, code span and link of the settled part is closed: none of its
//   delimiters (`*`, `_`, `~`, a backtick, a bracket) is left as text outside code, so a closer in the
//   rest finds no opener before it;
// - the rest starts with a space or tab, as it does when rendered after a stand-in letter (`x`):
//   delimiter flanking, autolinks and long-word breaks look no further back than that;
// - the rest holds no line break (a new line could end the paragraph, make it a heading or a list)
//   and no `|` (a table); the settled part's last line already holds two words, so what follows
//   cannot change what that line starts.
// After a whole render of the tail (a new block, a line break, a pipe), adoptRest finds the settled
// part again in the page; the reply view checks these rules and otherwise renders the paragraph
// again. test/render/inlineStream.ts compares every streamed frame with a fresh render.
import { SPECIAL, trimEndAscii } from './blocks';
import { hasLongRun } from '../../wording/longWords';
import type { RenderEnv } from './markdown';

/** Delimiters that are text when left unmatched (outside code spans). */
const DELIMITER = /[*_`[\]~]/;

/** No delimiter left as text in `nodes` (their code spans' text aside). */
export function allClosed(nodes: ArrayLike<Node>): boolean {
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i];
    if (node.nodeType === 3) {
      if (DELIMITER.test((node as Text).data)) return false;
    } else if (node instanceof Element && node.tagName !== 'CODE' && !allClosed(node.childNodes)) {
      return false;
    }
  }
  return true;
}

/** A settled paragraph may take inline text after it: its last line holds two words. */
export function lastLineSettled(source: string): boolean {
  return /\S[ \t]+\S/.test(source.slice(source.lastIndexOf('\n') + 1));
}

/** Text that may follow a settled part: from a space or tab on, without a line break or a pipe. */
export function inlineRest(rest: string): boolean {
  return /^[ \t]/.test(rest) && !/[\r\n|]/.test(rest);
}

/**
 * The nodes of `rest` (see inlineRest) as they follow a settled part. Plain words (no Markdown
 * punctuation, no run long enough for <wbr>s) are their own text, its end trimmed as markdown-it
 * trims a paragraph's; else `rest` is rendered after a stand-in letter, which is then taken off.
 * Null when that render is not one paragraph starting with it.
 */
export function restNodes(render: (markdown: string, env: RenderEnv) => DocumentFragment, rest: string, env: RenderEnv): ChildNode[] | null {
  if (!SPECIAL.test(rest) && !hasLongRun(rest)) {
    const shown = trimEndAscii(rest);
    return shown ? [document.createTextNode(shown)] : [];
  }
  const fragment = render('x' + rest, { ...env, references: { ...env.references } });
  const p = fragment.firstElementChild;
  if (!p || p.tagName !== 'P' || p.nextElementSibling) return null;
  const first = p.firstChild;
  if (!first || first.nodeType !== 3 || !(first as Text).data.startsWith('x')) return null;
  const text = (first as Text).data.slice(1);
  if (text) (first as Text).data = text;
  else first.remove();
  return Array.from(p.childNodes);
}

/**
 * After the tail was rendered whole, with `p` (its last element) showing its last line: the
 * settled part and the rest's nodes, taken from the text after the last space of that line when
 * that space is in a text node of the paragraph itself (not inside emphasis, a code span or a
 * link) and all before it is closed. The rest's nodes replace what showed it. Null when the
 * paragraph cannot take inline text.
 */
export function adoptRest(
  p: Element,
  tail: string,
  render: (markdown: string, env: RenderEnv) => DocumentFragment,
  env: RenderEnv,
): { settled: string; rest: ChildNode[] } | null {
  const shown = trimEndAscii(tail);
  const cut = lastSpace(shown);
  const settled = shown.slice(0, cut);
  if (cut === 0 || /\s$/.test(settled) || !lastLineSettled(settled) || !inlineRest(tail.slice(cut))) return null;
  const rest = restNodes(render, tail.slice(cut), env);
  if (!rest) return null;
  const restText = rest.reduce((text, node) => text + (node.textContent ?? ''), '');
  if (!(p.textContent ?? '').endsWith(restText)) return null;
  // Step back over the nodes that show the rest's text; the one it starts in must be text.
  let need = restText.length;
  let node = p.lastChild;
  while (node && need > 0 && (node.textContent ?? '').length <= need) {
    need -= (node.textContent ?? '').length;
    node = node.previousSibling;
  }
  if (need > 0) {
    if (!node || node.nodeType !== 3) return null;
    (node as Text).splitText((node as Text).data.length - need);
  }
  const before: ChildNode[] = [];
  for (let at = node; at; at = at.previousSibling) before.push(at);
  if (!allClosed(before)) return null;
  while (node ? node.nextSibling : p.firstChild) (node ? node.nextSibling! : p.firstChild!).remove();
  p.append(...rest);
  return { settled, rest };
}

/** Where `rest` may be cut so that its head can settle: the start of its last run of spaces (0: nowhere). */
export function lastSpace(rest: string): number {
  const m = /[ \t]+\S*$/.exec(rest);
  return m ? m.index : 0;
}
