// A range of a conversation's turns, for Export Chat and Copy Conversation: a turn is a question
// and the replies after it, up to the next question. Every format takes the range's conversation
// (its own title, the messages of those turns, the summary only when every message it replaces is
// in the range). VS Code-free.
import * as l10n from '@vscode/l10n';
import { summaryEnd, type Conversation } from '../chat/conversation';

/** First and last turn (0-based, inclusive). */
export interface TurnRange {
  first: number;
  last: number;
}

/** A question of the conversation, as the range's pick lists it. */
export interface TurnQuestion {
  /** The turn's index (0-based). */
  turn: number;
  /** Its first line, shortened. */
  text: string;
  createdAt: string;
}

/** Where each turn starts in `conv.messages` (a reply before the first question belongs to the first turn). */
export function turnStarts(conv: Pick<Conversation, 'messages'>): number[] {
  const starts: number[] = [];
  conv.messages.forEach((m, i) => {
    if (m.role === 'user' || i === 0) starts.push(i);
  });
  return starts;
}

export function turnCount(conv: Pick<Conversation, 'messages'>): number {
  return turnStarts(conv).length;
}

/** The questions of the conversation, one per turn. */
export function turnQuestions(conv: Pick<Conversation, 'messages'>): TurnQuestion[] {
  return turnStarts(conv).map((at, turn) => {
    const m = conv.messages[at];
    const line = m.content.trim().split('\n', 1)[0] ?? '';
    return { turn, text: line.length > 80 ? line.slice(0, 79) + '…' : line, createdAt: m.createdAt };
  });
}

/**
 * The conversation of turns `range.first` to `range.last` (a copy; the whole conversation, copied,
 * when the range covers it). Its title says which turns.
 */
export function conversationTurns(conv: Conversation, range: TurnRange): Conversation {
  const starts = turnStarts(conv);
  const first = Math.max(0, Math.min(range.first, range.last));
  const last = Math.min(starts.length - 1, Math.max(range.first, range.last));
  const copy = structuredClone(conv);
  if (starts.length === 0 || (first === 0 && last === starts.length - 1)) return copy;
  const from = starts[first];
  const to = last + 1 < starts.length ? starts[last + 1] : conv.messages.length;
  copy.messages = copy.messages.slice(from, to);
  copy.title = l10n.t('{0} (turns {1}–{2} of {3})', conv.title, first + 1, last + 1, starts.length);
  // The summary replaces the first messages: kept only when all of them are in the range.
  const replaced = summaryEnd(conv);
  if (copy.summary && !(from === 0 && replaced !== undefined && replaced <= to)) delete copy.summary;
  return copy;
}
