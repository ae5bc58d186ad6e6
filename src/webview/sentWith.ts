// "Sent with this message" under a question: each chip that went, the project instructions and
// each rule, with its size. An item of a workspace file opens it at its lines (the host checks the path).
import * as l10n from '@vscode/l10n';
import type { SentView, WebviewMessage } from '../protocol';
import { sentKindText, sentSummaryText, formatSize } from '../wording/sentWith';
import { button, el } from './dom';

export function sentWithList(sent: SentView, post: (message: WebviewMessage) => void): HTMLElement {
  const items = sent.map((i) => {
    const where = i.startLine !== undefined ? { startLine: i.startLine, ...(i.endLine !== undefined ? { endLine: i.endLine } : {}) } : {};
    const name = i.path
      ? button(i.name, () => post({ type: 'openSent', path: i.path ?? '', ...where }), { class: 'link sent-open', title: l10n.t('Open {0}', i.name) })
      : el('span', { class: 'sent-name', text: i.name });
    return el('li', { class: `sent-item sent-${i.kind}` }, name, el('span', { class: 'sent-detail', text: ` · ${sentKindText(i)} · ${formatSize(i.bytes)}` }));
  });
  return el('details', { class: 'sent-with' }, el('summary', { text: sentSummaryText(sent) }), el('ul', {}, ...items));
}
