// The transcript: the conversation the chat shows and how each host message changes it, with no
// DOM. `reduce(state, message)` gives the next state and the few things the page must do about
// the change (the effects); the conversation view (conversationView.ts) and the composer carry
// them out. Messages that are not about the conversation (settings, chips, the queue, …) leave
// the state as it is: main.ts hands them to the part that owns them.
//
// Versions: every change of the host's state counts one up. A whole conversation older than the
// one shown is ignored, and a change already in it; a change after a missing one asks the host
// for the whole state again (`resync`) and is applied meanwhile.
import type { ChatStatus, HiddenMessage, HostMessage, MessageView, SummaryView } from '../protocol';

export interface TranscriptState {
  /** Version of the host's state shown (-1: none yet). */
  readonly version: number;
  /** A change was found missing: the next whole state is taken even at the version shown. */
  readonly resyncing: boolean;
  /** The conversation shown (undefined until the host sent one). */
  readonly conversationId: string | undefined;
  /** Every message of the conversation, oldest first. */
  readonly messages: readonly MessageView[];
  /** The messages not shown (other variants of replies, other branches), for Find in chat. */
  readonly hidden: readonly HiddenMessage[];
  readonly status: ChatStatus;
  /** The reply that says something while it waits (thinking, searching): its first text clears it. */
  readonly waitingId: string | undefined;
}

export const initialTranscript: TranscriptState = {
  version: -1,
  resyncing: false,
  conversationId: undefined,
  messages: [],
  hidden: [],
  status: { busy: false },
  waitingId: undefined,
};

/** What the page does about a change, in order. */
export type TranscriptEffect =
  /** Ask the host for the whole state (a change was missing). */
  | { kind: 'resync' }
  /** Show this conversation in place of the one shown (`opened`: another conversation than before). */
  | { kind: 'conversation'; summary: SummaryView | undefined; notice: string | undefined; opened: boolean }
  /** New messages below the newest (a turn began). */
  | { kind: 'added'; messages: readonly MessageView[] }
  /** Text for a streaming reply; `starts`: it replaces what the reply said while it waited (or nothing yet). */
  | { kind: 'text'; id: string; text: string; starts: boolean }
  /** A message's final or changed state. */
  | { kind: 'message'; message: MessageView }
  /** What a reply says while it waits (empty: nothing any more). */
  | { kind: 'waiting'; id: string; text: string }
  /** The footers of the newest messages may have changed (a message's state). */
  | { kind: 'footers' }
  /** Whether a reply runs, and the last send's error. */
  | { kind: 'status'; status: ChatStatus }
  /** The reply was stopped: said once to a screen reader. */
  | { kind: 'stopped' }
  /** Replies shown in place of others (another variant of each), and messages whose view changed; the rest as it was. */
  | { kind: 'swapped'; summary?: { view: SummaryView | undefined }; swaps: ReadonlyArray<{ from: string; message: MessageView }> };

export interface Reduced {
  state: TranscriptState;
  effects: TranscriptEffect[];
}

/** Index of the message with this id (the newest are searched first), -1 when none. */
export function indexOfMessage(messages: readonly MessageView[], id: string): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i].id === id) return i;
  return -1;
}

/** The message list with `message` in place of the one with its id (the same list when there is none). */
function replaced(messages: readonly MessageView[], message: MessageView): readonly MessageView[] {
  const i = indexOfMessage(messages, message.id);
  if (i < 0) return messages;
  const next = messages.slice();
  next[i] = message;
  return next;
}

const sameView = (a: MessageView, b: MessageView) =>
  a.content === b.content && a.status === b.status && JSON.stringify([a.meta, a.error, a.variant, a.branch]) === JSON.stringify([b.meta, b.error, b.variant, b.branch]);

/**
 * The change from `before` to `after` when it is only replies shown in place of others (another
 * variant) and messages whose view changed in place: each as `from` (the id shown before) and the
 * message now. Undefined for any other change (a message more or less, a question changed): the
 * whole conversation is shown again.
 */
export function variantSwaps(before: readonly MessageView[], after: readonly MessageView[]): Array<{ from: string; message: MessageView }> | undefined {
  if (before.length !== after.length) return undefined;
  const out: Array<{ from: string; message: MessageView }> = [];
  let swapped = false;
  for (let i = 0; i < after.length; i++) {
    const a = before[i];
    const b = after[i];
    if (a.id === b.id) {
      if (!sameView(a, b)) out.push({ from: a.id, message: b });
      continue;
    }
    if (a.role !== 'assistant' || b.role !== 'assistant' || !b.variant) return undefined;
    out.push({ from: a.id, message: b });
    swapped = true;
  }
  return swapped ? out : undefined;
}

/**
 * Whether a message about the conversation is newer than what is shown, and the version state
 * after it; `resync`: a change was found missing.
 */
export function checkVersion(state: TranscriptState, msg: HostMessage): { current: boolean; version: number; resyncing: boolean; resync: boolean } {
  const v = 'version' in msg ? msg.version : undefined;
  const same = { version: state.version, resyncing: state.resyncing, resync: false };
  if (v === undefined) return { current: true, ...same };
  if (msg.type === 'conversation') {
    if (v < state.version) return { current: false, ...same };
    // The same state again (a surface that starts, a restore told twice): nothing to redraw.
    if (v === state.version && !state.resyncing && msg.conversation.id === state.conversationId && !msg.notice) return { current: false, ...same };
    return { current: true, version: v, resyncing: false, resync: false };
  }
  if (v <= state.version) return { current: false, ...same };
  const resync = state.version >= 0 && v > state.version + 1 && !state.resyncing;
  return { current: true, version: v, resyncing: state.resyncing || resync, resync };
}

/** The next state of the transcript after a host message, and what the page does about it. */
export function reduce(state: TranscriptState, msg: HostMessage): Reduced {
  const check = checkVersion(state, msg);
  if (!check.current) return { state, effects: [] };
  const effects: TranscriptEffect[] = check.resync ? [{ kind: 'resync' }] : [];
  let next: TranscriptState = check.version === state.version && check.resyncing === state.resyncing ? state : { ...state, version: check.version, resyncing: check.resyncing };
  switch (msg.type) {
    case 'status':
      next = { ...next, status: msg.status };
      effects.push({ kind: 'status', status: msg.status });
      break;
    case 'conversation': {
      const opened = msg.conversation.id !== state.conversationId;
      // Another variant of a reply shown (the pager, Retry with…): only those replies change on the page.
      const swaps = opened || msg.notice || state.resyncing ? undefined : variantSwaps(state.messages, msg.conversation.messages);
      next = { ...next, conversationId: msg.conversation.id, messages: msg.conversation.messages, hidden: msg.conversation.hidden ?? [], status: msg.status, waitingId: undefined };
      if (swaps) effects.push({ kind: 'swapped', summary: { view: msg.conversation.summary }, swaps }, { kind: 'status', status: msg.status });
      else effects.push({ kind: 'conversation', summary: msg.conversation.summary, notice: msg.notice, opened }, { kind: 'status', status: msg.status });
      break;
    }
    case 'turnStarted': {
      const added = [msg.user, msg.assistant].filter((m, i, both) => indexOfMessage(next.messages, m.id) < 0 && both.findIndex((o) => o.id === m.id) === i);
      next = { ...next, messages: added.length ? [...next.messages, ...added] : next.messages, status: msg.status };
      // (A new variant of a reply above is in place already: the chat stays where it is.)
      if (added.length) effects.push({ kind: 'added', messages: added });
      effects.push({ kind: 'status', status: msg.status });
      break;
    }
    case 'streamChunk': {
      const i = indexOfMessage(next.messages, msg.messageId);
      if (i < 0) break;
      const m = next.messages[i];
      const have = m.content.length;
      const end = msg.offset + msg.text.length;
      // Already shown (the conversation sent when the panel started had it).
      if (end <= have) break;
      const text = msg.offset < have ? msg.text.slice(have - msg.offset) : msg.text;
      const starts = have === 0 || next.waitingId === m.id;
      next = { ...next, messages: replaced(next.messages, { ...m, content: m.content + text }), waitingId: starts ? undefined : next.waitingId };
      effects.push({ kind: 'text', id: m.id, text, starts });
      break;
    }
    case 'turnEnded':
      next = { ...next, messages: replaced(next.messages, msg.message), status: msg.status };
      effects.push({ kind: 'message', message: msg.message }, { kind: 'status', status: msg.status });
      // A complete reply is announced by its view (once, with its text); this would replace that.
      if (msg.message.status === 'stopped') effects.push({ kind: 'stopped' });
      break;
    case 'variantShown': {
      const i = indexOfMessage(next.messages, msg.from);
      if (i < 0) {
        // Not the reply shown here: the whole state again.
        if (!next.resyncing) effects.push({ kind: 'resync' });
        next = { ...next, resyncing: true };
        break;
      }
      const list = next.messages.slice();
      const before = list[i];
      list[i] = msg.message;
      // The reply shown before is not shown any more; the one shown now is.
      const hidden = [...next.hidden.filter((h) => h.id !== msg.message.id), { id: before.id, role: before.role, content: before.content, kind: 'variant' as const }];
      next = { ...next, messages: list, hidden };
      effects.push({ kind: 'swapped', swaps: [{ from: msg.from, message: msg.message }] });
      break;
    }
    case 'messageChanged':
      next = { ...next, messages: replaced(next.messages, msg.message) };
      effects.push({ kind: 'message', message: msg.message }, { kind: 'footers' });
      break;
    case 'streamStatus':
      // Shown under the reply and in the status line, until text arrives (an empty text clears it).
      if (indexOfMessage(next.messages, msg.messageId) < 0) break;
      next = { ...next, waitingId: msg.text ? msg.messageId : next.waitingId === msg.messageId ? undefined : next.waitingId };
      effects.push({ kind: 'waiting', id: msg.messageId, text: msg.text });
      break;
    default:
      // Not about the conversation: its part takes it (main.ts).
      break;
  }
  return { state: next, effects };
}

/** What a message's footer depends on besides the message: its place and the status. */
export interface FooterContext {
  isLastUser: boolean;
  isLast: boolean;
  busy: boolean;
  hasSendError: boolean;
}

/** Footers change with a message's place (last, last of the user) and the status: the newest few, from `first` on. */
export function footerContexts(state: TranscriptState, first: number): Array<{ message: MessageView; context: FooterContext }> {
  const list = state.messages;
  let lastUser: MessageView | undefined;
  for (let i = list.length - 1; i >= 0 && !lastUser; i--) if (list[i].role === 'user') lastUser = list[i];
  const last = list[list.length - 1];
  const out: Array<{ message: MessageView; context: FooterContext }> = [];
  for (let i = Math.max(first, list.length - 4); i < list.length; i++) {
    const m = list[i];
    out.push({ message: m, context: { isLastUser: m === lastUser, isLast: m === last, busy: state.status.busy, hasSendError: !!state.status.sendError } });
  }
  return out;
}

/**
 * What the page shows, on its root for tools that drive it (the end-to-end journeys wait on these
 * instead of on time): the host's state version shown, whether a reply runs, the last message's
 * status and how many messages the conversation has.
 */
export function pageMarks(state: TranscriptState): Record<'sessionVersion' | 'busy' | 'lastStatus' | 'messages', string> {
  const last = state.messages[state.messages.length - 1];
  return {
    sessionVersion: String(state.version),
    busy: String(state.status.busy),
    lastStatus: last?.status ?? 'none',
    messages: String(state.messages.length),
  };
}
