// What of a rendered reply may reach a page: the elements and attributes markdown-it emits for
// CommonMark, GFM tables and task lists and highlight.js, and the URLs a link may have. The chat
// panel applies them with DOMPurify (src/webview/render/sanitize.ts); a page written without a DOM
// (the exported web page, src/core/export/htmlPage.ts) with allowlistHtml below. Pure.

export const ALLOWED_TAGS = [
  'a', 'blockquote', 'br', 'code', 'del', 'em', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'input',
  'li', 'ol', 'p', 'pre', 's', 'span', 'strong', 'table', 'tbody', 'td', 'th', 'thead', 'tr', 'ul',
];
export const ALLOWED_ATTR = ['href', 'title', 'class', 'start', 'type', 'checked', 'disabled', 'data-path'];
/** http, https and in-document anchors; whitespace is stripped by DOMPurify before the test. */
export const ALLOWED_URI_REGEXP = /^(?:https?:\/\/|#)/i;

const TAGS = new Set(ALLOWED_TAGS);
const ATTRS = new Set(ALLOWED_ATTR);
/** A whole tag as markdown-it writes one: a name, then attributes bare or with a double-quoted value. */
const TAG = /^<(\/?)([A-Za-z][A-Za-z0-9]*)((?:\s+[A-Za-z_:][-A-Za-z0-9_:.]*(?:="[^"<>]*")?)*)\s*\/?>$/;
const ATTR = /\s+([A-Za-z_:][-A-Za-z0-9_:.]*)(?:="([^"<>]*)")?/g;
/** Characters a browser ignores or strips in a URL's scheme (whitespace, controls, invisible ones). */
const URL_NOISE = /[\u0000-\u0020\u007f-\u00a0\u1680\u180e\u2000-\u2029\u205f\u3000\ufeff]/g;

/** An attribute value as the browser reads it (the entities markdown-it writes, and numeric ones). */
function attrValue(raw: string): string {
  return raw.replace(/&(?:#(\d{1,7})|#x([0-9a-f]{1,6})|(amp|quot|lt|gt|apos|#39));?/gi, (m, dec: string, hex: string, name: string) => {
    if (dec || hex) {
      const code = dec ? Number(dec) : parseInt(hex, 16);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
    return ({ amp: '&', quot: '"', lt: '<', gt: '>', apos: "'", '#39': "'" } as Record<string, string>)[name.toLowerCase()] ?? m;
  });
}

function allowedTag(tag: string): string {
  const m = TAG.exec(tag);
  if (!m) return tag.replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const [, close, rawName, attrs] = m;
  const name = rawName.toLowerCase();
  if (!TAGS.has(name)) return '';
  if (close) return `</${name}>`;
  const kept: string[] = [];
  for (const [, rawAttr, value] of attrs.matchAll(ATTR)) {
    const attr = rawAttr.toLowerCase();
    if (!ATTRS.has(attr)) continue;
    if (attr === 'href' && !ALLOWED_URI_REGEXP.test(attrValue(value ?? '').replace(URL_NOISE, ''))) continue;
    if (name === 'input' && attr === 'type' && value?.toLowerCase() !== 'checkbox') return '';
    kept.push(value === undefined ? attr : `${attr}="${value}"`);
  }
  // Only display-only task checkboxes.
  if (name === 'input' && !kept.includes('type="checkbox"')) return '';
  if (name === 'input' && !kept.includes('disabled')) kept.push('disabled');
  return `<${name}${kept.map((a) => ' ' + a).join('')}>`;
}

/**
 * `html` (markdown-it's output) with only the allowed elements and attributes: another element's
 * tags are dropped (its text stays), another attribute or a link of another scheme is dropped, and
 * a `<` or `>` outside a tag is written as text. The second line of defence behind markdown-it's
 * own (raw HTML escaped, unsafe links refused), as DOMPurify is in the chat panel.
 */
export function allowlistHtml(html: string): string {
  return html.replace(/<[^<>]*>?|>/g, (piece) => (piece === '>' ? '&gt;' : piece.endsWith('>') ? allowedTag(piece) : piece.replace(/</g, '&lt;')));
}
