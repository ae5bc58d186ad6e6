// The toolbar of a finished code block in a reply: its language and the code actions (Apply to
// File, Copy, Insert at Cursor, Open in New Editor), built with createElement. The reply view
// hears their clicks (data-code-action) and asks the host.
import * as l10n from '@vscode/l10n';

export type CodeAction = 'copy' | 'insert' | 'newEditor' | 'apply';

const codeButtons = (): ReadonlyArray<[CodeAction, string, string]> => [
  ['apply', l10n.t('Apply to File'), 'diff'],
  ['copy', l10n.t('Copy'), 'copy'],
  ['insert', l10n.t('Insert at Cursor'), 'insert'],
  ['newEditor', l10n.t('Open in New Editor'), 'go-to-file'],
];

/** A button showing a codicon only; `name` is its accessible name and tooltip. */
export function iconButton(doc: Document, className: string, name: string, icon: string): HTMLButtonElement {
  const button = doc.createElement('button');
  button.type = 'button';
  button.className = `${className} icon-button`;
  button.title = name;
  button.setAttribute('aria-label', name);
  const glyph = doc.createElement('span');
  glyph.className = `codicon codicon-${icon}`;
  glyph.setAttribute('aria-hidden', 'true');
  button.append(glyph);
  return button;
}

/** Wraps each `pre.md-code` of a finished block with a toolbar of code actions. */
export function addCodeToolbars(root: DocumentFragment | Element): void {
  for (const pre of Array.from(root.querySelectorAll<HTMLElement>('pre.md-code'))) {
    const code = pre.querySelector('code');
    const language = /(?:^|\s)language-(\S+)/.exec(code?.className ?? '')?.[1] ?? '';
    const doc = pre.ownerDocument;
    const wrapper = doc.createElement('div');
    wrapper.className = 'code-block';
    wrapper.dataset.language = language;
    if (pre.dataset.path) wrapper.dataset.path = pre.dataset.path;
    // The block is a group named by its language; its code can be scrolled with the keyboard.
    wrapper.setAttribute('role', 'group');
    wrapper.setAttribute('aria-label', language ? l10n.t('{0} code', language) : l10n.t('Code'));
    pre.tabIndex = 0;
    const bar = doc.createElement('div');
    bar.className = 'code-toolbar';
    const label = doc.createElement('span');
    label.className = 'code-language';
    label.textContent = language;
    label.setAttribute('aria-hidden', 'true');
    bar.append(label);
    for (const [action, name, icon] of codeButtons()) {
      const button = iconButton(doc, 'code-action', name, icon);
      button.dataset.codeAction = action;
      bar.append(button);
    }
    pre.replaceWith(wrapper);
    wrapper.append(bar, pre);
  }
}
