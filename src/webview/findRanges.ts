// Where find's matches are in a rendered message: the text of its body as find reads it (the
// text nodes, without the code toolbars and the reply's buttons), and the DOM range of a match in
// it (a match may span elements, e.g. highlighted code).
import { occurrences, type FindOptions } from './findModel';

/** A rendered body's text as find reads it: its text nodes (not the code toolbars or the reply's buttons) and their joined text. */
export interface BodyText {
  nodes: Text[];
  /** Offset of each node in `text`. */
  starts: number[];
  text: string;
}

const SKIPPED = ['code-toolbar', 'reply-actions'];

/** The text of a rendered body (one walk; the toolbars' subtrees are left out whole). */
export function bodyText(body: HTMLElement): BodyText {
  const walker = body.ownerDocument.createTreeWalker(body, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, {
    acceptNode: (node) =>
      node.nodeType !== Node.ELEMENT_NODE
        ? NodeFilter.FILTER_ACCEPT
        : SKIPPED.some((c) => (node as Element).classList.contains(c))
          ? NodeFilter.FILTER_REJECT
          : NodeFilter.FILTER_SKIP,
  });
  const nodes: Text[] = [];
  const starts: number[] = [];
  let text = '';
  while (walker.nextNode()) {
    const n = walker.currentNode as Text;
    nodes.push(n);
    starts.push(text.length);
    text += n.data;
  }
  return { nodes, starts, text };
}

/** Where an offset of a body's text is in its nodes: at the start of a match, or at its end (`end`: a node boundary stays in the node before). */
function pointAt(flat: BodyText, offset: number, end: boolean): [Text, number] {
  const { nodes, starts } = flat;
  // The last node that starts at (or, for an end, before) the offset.
  let lo = 0;
  let hi = nodes.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (end ? starts[mid] < offset : starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return [nodes[lo], offset - starts[lo]];
}

/** The range of the match of `length` characters at offset `at` of a body's text (a match may span elements, e.g. highlighted code). */
export function rangeAt(body: HTMLElement, flat: BodyText, at: number, length: number): Range {
  const range = body.ownerDocument.createRange();
  const [startNode, startOffset] = pointAt(flat, at, false);
  range.setStart(startNode, startOffset);
  const [endNode, endOffset] = pointAt(flat, at + length, true);
  range.setEnd(endNode, endOffset);
  return range;
}

/** The ranges of `query` in a rendered body (all of them: for a few matches; the find bar makes only those it highlights). */
export function rangesIn(body: HTMLElement, query: string, options: FindOptions, flat: BodyText = bodyText(body)): Range[] {
  return occurrences(flat.text, query, options).map((at) => rangeAt(body, flat, at, query.length));
}
