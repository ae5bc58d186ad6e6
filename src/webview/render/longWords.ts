// A very long unbroken run of text (a base64 blob, a minified line, a hostile 100 KB "word") in a
// reply's prose: Chromium lays a word out again for each line it wraps with `overflow-wrap:
// anywhere`, which grows with the square of its length (a 120 KB word took some 14 s a layout,
// at every frame of a stream). Such a run is cut into pieces with <wbr> between them, where it may
// wrap (the rule's numbers: src/wording/longWords.ts); the text (copy, find, what a screen reader
// reads) is unchanged. Code blocks scroll sideways instead of wrapping: they are left alone.
import { hasLongRun, LONG_WORD, WORD_PART } from '../../wording/longWords';

const LONG = LONG_WORD + 1;
const PIECE = WORD_PART;
const LONG_RUN = new RegExp(`\\S{${LONG},}`, 'g');

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** Cuts the long runs of the fragment's text nodes (not inside `pre`). */
export function breakLongRuns(root: DocumentFragment | Element): void {
  const doc = root.ownerDocument ?? document;
  const walker = doc.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const long: Text[] = [];
  while (walker.nextNode()) {
    const node = walker.currentNode as Text;
    if (hasLongRun(node.data) && !node.parentElement?.closest('pre')) long.push(node);
  }
  for (const node of long) {
    const parts = new Array<Node>();
    const text = node.data;
    let at = 0;
    for (const m of text.matchAll(LONG_RUN)) {
      const start = m.index;
      const end = start + m[0].length;
      let i = start;
      let piece = at < start ? text.slice(at, start) : '';
      while (i < end) {
        let j = Math.min(end, i + PIECE);
        if (j < end && isHighSurrogate(text.charCodeAt(j - 1))) j++;
        piece += text.slice(i, j);
        parts.push(doc.createTextNode(piece));
        piece = '';
        if (j < end) parts.push(doc.createElement('wbr'));
        i = j;
      }
      at = end;
    }
    if (at < text.length) parts.push(doc.createTextNode(text.slice(at)));
    node.replaceWith(...parts);
  }
}
