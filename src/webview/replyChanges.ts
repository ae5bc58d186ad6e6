// Under a reply whose code blocks name files: Apply All (the host shows the review list), then what
// its changes are now, with Undo or Redo. The host says what each reply's changes are (replyChanges);
// the page keeps it and redraws the row of each reply it holds.
import * as l10n from '@vscode/l10n';
import type { HostMessage, MessageView, ReplyChangesState, WebviewMessage } from '../protocol';
import { namedFiles } from '../wording/codeFence';
import { button, el } from './dom';

type ReplyChangesMessage = Extract<HostMessage, { type: 'replyChanges' }>;

let states = new Map<string, { state: ReplyChangesState; files: number }>();
/** The conversation `states` are of. */
let statesOf: string | undefined;
/** Files named by each reply's text (read once per text). */
const named = new Map<string, { length: number; files: number }>();

/** Takes what the host says (for the conversation shown; another's is dropped). */
export function setReplyChanges(msg: ReplyChangesMessage, conversationId: string | undefined): boolean {
  if (conversationId !== undefined && msg.conversationId !== conversationId) return false;
  states = new Map(msg.replies.map((r) => [r.messageId, { state: r.state, files: r.files }]));
  statesOf = msg.conversationId;
  return true;
}

/** The conversation shown is `conversationId`: what was said of another one is dropped. */
export function keepReplyChangesOf(conversationId: string | undefined): void {
  if (statesOf !== undefined && statesOf !== conversationId) {
    states = new Map();
    statesOf = undefined;
  }
  named.clear();
}

function filesNamed(m: MessageView): number {
  const seen = named.get(m.id);
  if (seen && seen.length === m.content.length) return seen.files;
  const files = namedFiles(m.content).length;
  named.set(m.id, { length: m.content.length, files });
  return files;
}

/** The row under a reply (empty when its code blocks name no file, or while it streams). */
export function renderReplyChanges(row: HTMLElement, m: MessageView, post: (m: WebviewMessage) => void): void {
  const state = states.get(m.id);
  const finished = m.role === 'assistant' && (m.status === 'complete' || m.status === 'stopped');
  const count = finished ? filesNamed(m) : 0;
  const signature = finished ? `${count}|${state?.state ?? ''}|${state?.files ?? ''}` : '';
  if (row.dataset.signature === signature) return;
  row.dataset.signature = signature;
  row.replaceChildren();
  row.hidden = !finished || (!count && !state);
  if (row.hidden) return;
  const act = (action: 'apply' | 'undo' | 'redo') => () => post({ type: 'replyChangesAction', action, messageId: m.id });
  if (!state) {
    row.append(
      button(count === 1 ? l10n.t('Apply All (1 file)…') : l10n.t('Apply All ({0} files)…', count), act('apply'), {
        class: 'secondary apply-all',
        title: l10n.t('Review every file this reply\'s code blocks name, then write the ones you keep in one step (Undo takes them all back)'),
      }),
    );
    return;
  }
  if (state.state === 'applied') {
    row.append(
      el('span', { class: 'changes-state', text: state.files === 1 ? l10n.t('Applied to 1 file') : l10n.t('Applied to {0} files', state.files) }),
      button(l10n.t('Undo'), act('undo'), { class: 'link undo-changes', title: l10n.t('Put every file this reply changed back as it was, and remove the files it created') }),
    );
  } else if (state.state === 'undone') {
    row.append(
      el('span', { class: 'changes-state', text: l10n.t('Changes undone') }),
      button(l10n.t('Redo'), act('redo'), { class: 'link redo-changes', title: l10n.t('Write this reply\'s version of its files again') }),
    );
  } else {
    row.append(el('span', { class: 'changes-state', text: l10n.t('Applied; its undo is gone (older copies are let go to stay within aiChat.changes.maxStorageMB)') }));
  }
}
