// Cards of the messages queued while a reply streams: editable and removable until they go;
// a held queue (after a failure or Stop) says so and offers Resume and Clear.
import * as l10n from '@vscode/l10n';
import { creditsText } from '../wording';
import type { HostMessage, WebviewMessage } from '../protocol';
import { button, clear, el } from './dom';

type QueueMessage = Extract<HostMessage, { type: 'queue' }>;

export function renderQueue(host: HTMLElement, q: QueueMessage, post: (m: WebviewMessage) => void): void {
  clear(host);
  host.hidden = q.items.length === 0;
  if (host.hidden) return;
  const head = q.state === 'stopped'
    ? l10n.t('Queue held: {0}. {1} messages wait.', q.reason ?? '', String(q.items.length))
    : l10n.t('{0} messages queued: sent in order when the reply finishes.', String(q.items.length));
  const header = el('div', { class: 'queue-head', role: 'status' }, el('span', { text: head }));
  if (q.state === 'stopped') header.append(button(l10n.t('Resume'), () => post({ type: 'queueResume' })));
  header.append(button(l10n.t('Clear'), () => post({ type: 'queueClear' })));
  host.append(header);
  for (const item of q.items) {
    const area = el('textarea', { class: 'queue-text', 'aria-label': l10n.t('Queued message'), rows: 2 });
    area.value = item.text;
    area.addEventListener('change', () => post({ type: 'queueEdit', id: item.id, text: area.value }));
    const cost = el('span', { class: 'cost', text: item.cost !== undefined ? creditsText(item.cost) : '' });
    const remove = button(l10n.t('Remove'), () => post({ type: 'queueRemove', id: item.id }), { 'aria-label': l10n.t('Remove queued message') });
    host.append(el('div', { class: 'queue-card', 'data-id': item.id }, area, el('div', { class: 'queue-bar' }, cost, remove)));
  }
}
