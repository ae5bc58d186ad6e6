// Updates the open tail of a streaming reply in place from its newly rendered (sanitized) fragment.

function sameElement(a: Element, b: Element): boolean {
  if (a.tagName !== b.tagName || a.attributes.length !== b.attributes.length) return false;
  for (const attr of Array.from(b.attributes)) if (a.getAttribute(attr.name) !== attr.value) return false;
  return true;
}

/**
 * Makes `target`'s children equal to `source`'s (a sanitized fragment), keeping the nodes that did
 * not change: the unchanged part of the open tail keeps its layout, and text that grew is appended
 * to its text node. Only nodes from `source` are inserted and only text copied, so the result is
 * exactly the sanitized tree.
 */
export function morph(target: Element, source: ParentNode): void {
  let old = target.firstChild;
  for (const node of Array.from(source.childNodes)) {
    if (!old) {
      target.append(node);
      continue;
    }
    const next: ChildNode | null = old.nextSibling;
    if (old.isEqualNode(node)) {
      // unchanged
    } else if (old instanceof Text && node instanceof Text) {
      if (node.data.startsWith(old.data)) old.appendData(node.data.slice(old.data.length));
      else old.data = node.data;
    } else if (old instanceof Element && node instanceof Element && sameElement(old, node)) {
      morph(old, node);
    } else {
      target.replaceChild(node, old);
    }
    old = next;
  }
  while (old) {
    const next: ChildNode | null = old.nextSibling;
    old.remove();
    old = next;
  }
}
