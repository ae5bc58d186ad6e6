// Every HTML fragment produced from model text passes through DOMPurify with an allowlist before
// it reaches the DOM. markdown-it already escapes raw HTML (`html: false`) and refuses unsafe link
// schemes; this is the second, independent line of defence.
//
// Allowed: the tags markdown-it emits for CommonMark + GFM tables/task lists, highlight.js spans,
// `class` (highlighting, alignment), `href`/`title` on links (http, https, `#anchor` only),
// `start` on ordered lists, disabled checkboxes, and `data-path` on code blocks (the file a block
// names, as text). No images, no style attributes, no ids. The lists are src/wording/replyHtml.ts's
// (the exported web page applies them too).
import * as l10n from '@vscode/l10n';
import createDOMPurify, { type DOMPurify } from 'dompurify';
import { ALLOWED_ATTR, ALLOWED_TAGS, ALLOWED_URI_REGEXP } from '../../wording/replyHtml';

export { ALLOWED_ATTR, ALLOWED_TAGS, ALLOWED_URI_REGEXP };

export type Sanitize = (html: string) => DocumentFragment;

/** The accessible name of a task list checkbox (replies carry none of their own). */
export function checkboxLabel(checked: boolean): string {
  return checked ? l10n.t('Done') : l10n.t('Not done');
}

export function createSanitizer(win: Window & typeof globalThis = window): Sanitize {
  const purify: DOMPurify = createDOMPurify(win);
  purify.setConfig({
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    ALLOWED_URI_REGEXP,
    // Attributes whose values are not URLs (otherwise they must match ALLOWED_URI_REGEXP).
    // `data-path` is the file a code block names (Apply to File): text the host checks, never a link.
    ADD_URI_SAFE_ATTR: ['start', 'type', 'checked', 'disabled', 'data-path'],
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    ALLOW_UNKNOWN_PROTOCOLS: false,
    KEEP_CONTENT: true,
    RETURN_DOM_FRAGMENT: true,
  });
  purify.addHook('afterSanitizeAttributes', (node) => {
    const el = node;
    if (el.nodeName === 'INPUT') {
      // Only display-only task checkboxes.
      if ((el.getAttribute('type') ?? '').toLowerCase() !== 'checkbox') {
        el.remove();
        return;
      }
      el.setAttribute('disabled', '');
      // Named for screen readers (set here, after the attributes were checked: replies carry none).
      el.setAttribute('aria-label', checkboxLabel(el.hasAttribute('checked')));
    } else if (el.nodeName === 'A') {
      const href = el.getAttribute('href');
      if (href !== null && !ALLOWED_URI_REGEXP.test(href.trim())) el.removeAttribute('href');
    }
  });
  // setConfig above applies to every call (RETURN_DOM_FRAGMENT: a fragment, not a string).
  return (html) => purify.sanitize(html) as unknown as DocumentFragment;
}
