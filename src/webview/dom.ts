// Small DOM helpers: elements are built with createElement and text with textContent only.

type Attrs = Record<string, string | boolean | number | undefined>;

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Array<Node | string | undefined | false>
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (name === 'class') node.className = String(value);
    else if (name === 'text') node.textContent = String(value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const c of children) {
    if (c === undefined || c === false) continue;
    node.append(typeof c === 'string' ? document.createTextNode(c) : c);
  }
  return node;
}

export function button(label: string, onClick: () => void, attrs: Attrs = {}): HTMLButtonElement {
  const b = el('button', { type: 'button', ...attrs });
  b.textContent = label;
  b.addEventListener('click', onClick);
  return b;
}

export function clear(node: Element): void {
  while (node.firstChild) node.firstChild.remove();
}

/** A codicon glyph (decorative: the button around it carries the name). */
export function codicon(name: string): HTMLElement {
  return el('span', { class: `codicon codicon-${name}`, 'aria-hidden': 'true' });
}

/** A toolbar-style button showing only an icon; `label` is its accessible name and tooltip. */
export function iconButton(icon: string, label: string, onClick: () => void, attrs: Attrs = {}): HTMLButtonElement {
  const b = el('button', { type: 'button', title: label, 'aria-label': label, ...attrs, class: `icon-button ${attrs.class ?? ''}`.trim() }, codicon(icon));
  b.addEventListener('click', onClick);
  return b;
}

/** Changes an icon button's glyph, name and tooltip. */
export function setIconButton(b: HTMLButtonElement, icon: string, label: string): void {
  b.replaceChildren(codicon(icon));
  b.title = label;
  b.setAttribute('aria-label', label);
}
