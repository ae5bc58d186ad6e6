// A summary of earlier turns, asked for by the user at a price shown first. Pure.
//
// The turns to summarize are those above the boundary line (the earlier turns the next request
// would leave out), after the conversation's summary when it has one: a new summary is written
// from the old one and the turns after it, so no turn is read twice. The request is one prompt
// (the old summary, then the turns, newest kept first when they do not all fit), sent through the
// one turn pipeline like any other request. From then on a request carries the summary (a system
// message after the system prompt) instead of the messages it replaces; those messages stay in the
// conversation (the transcript, History search, export). Removing the summary is its undo.
import { estimateTokens, messageTokens, sendableTurns, type ContextSelection, type SendableTurn } from '../context/contextBudget';
import { MAX_SUMMARY_TEXT, summaryEnd, type Conversation, type StoredMessage, type TurnSummary } from './conversation';

/** The longest part of one message quoted in a summary's request (a longer one is cut in the middle). */
export const MAX_QUOTED_CHARS = 6_000;

/** What a summary would replace now. */
export interface SummaryPlan {
  conversationId: string;
  /** Messages [from, to) are summarized now; [0, from) are in the conversation's summary already. */
  from: number;
  to: number;
  /** The last message replaced (conversation.messages[to - 1]). */
  throughId: string;
  /** Turns above the line not yet summarized (what the button and the price are for). */
  newTurns: number;
  /** Turns the new summary replaces in all (the old summary's and the new ones). */
  turns: number;
  /** The conversation's summary, when it has one: the new one is written from it. */
  previous?: TurnSummary;
}

/** How many turns of [from, to) the user would count (those that start with a question). */
export function countTurns(messages: readonly StoredMessage[], from: number, to: number): number {
  return sendableTurns(messages.slice(from, to)).filter((t) => t.asked).length;
}

/**
 * What Summarize would replace now, from the selection of the next request (the turns above its
 * boundary line, after the conversation's summary); undefined when no turn is above the line.
 */
export function planSummary(conv: Conversation, selection: ContextSelection): SummaryPlan | undefined {
  if (!selection.ok || selection.omittedTurns === 0) return undefined;
  const end = summaryEnd(conv);
  const from = end ?? 0;
  let to = conv.messages.length;
  if (selection.boundaryId) {
    const at = conv.messages.findIndex((m, i) => i >= from && m.id === selection.boundaryId);
    if (at < 0) return undefined;
    to = at;
  }
  // A reply still streaming is never summarized.
  while (to > from && conv.messages[to - 1].status === 'streaming') to--;
  const newTurns = countTurns(conv.messages, from, to);
  if (to <= from || newTurns === 0) return undefined;
  const previous = end !== undefined ? conv.summary : undefined;
  return {
    conversationId: conv.id,
    from,
    to,
    throughId: conv.messages[to - 1].id,
    newTurns,
    turns: (previous?.turns ?? 0) + newTurns,
    ...(previous ? { previous } : {}),
  };
}

/** The surface's own instructions for the summary's request. */
export const SUMMARY_SYSTEM = [
  'You summarize the earlier part of a conversation between a user and an AI assistant so that the conversation can go on from your summary instead of those turns.', // l10n-ignore: sent to the model
  'Keep what later turns may need: the user\'s goals and constraints, decisions made, facts, names of files, functions, commands and settings, code that was agreed on (briefly), and open questions.', // l10n-ignore: sent to the model
  'Leave out greetings and repetition. Write in the language of the conversation, as short Markdown notes, at most about 400 words. Do not answer any question from it.', // l10n-ignore: sent to the model
].join(' ');

const quote = (text: string): string =>
  text.length <= MAX_QUOTED_CHARS
    ? text
    : text.slice(0, MAX_QUOTED_CHARS / 2) + '\n[…]\n' + text.slice(text.length - MAX_QUOTED_CHARS / 2); // l10n-ignore: sent to the model

const ROLE_NAME = { user: 'User', assistant: 'Assistant' } as const; // l10n-ignore: sent to the model

function turnText(t: SendableTurn): string {
  return t.messages.map((m) => `${ROLE_NAME[m.role]}:\n${quote(m.content)}`).join('\n\n');
}

export type SummaryRequest =
  | {
      ok: true;
      /** The user message of the request. */
      prompt: string;
      system: string;
      /** Turns of the plan its prompt holds (the newest ones); `unread`: those it could not hold. */
      read: number;
      unread: number;
    }
  | { ok: false };

/**
 * The request of a summary within `room` estimated tokens (the model's input budget less the
 * instructions it carries): the old summary, then the plan's turns, newest first while they fit
 * (the oldest left out are counted in `unread`). Not ok when not even the newest turn fits.
 */
export function summaryRequest(conv: Conversation, plan: SummaryPlan, room: number): SummaryRequest {
  const head = plan.previous
    ? 'Summary of the conversation before the turns below:\n\n' + plan.previous.text + '\n\nThe turns that followed it:\n\n' // l10n-ignore: sent to the model
    : 'The turns to summarize, oldest first:\n\n'; // l10n-ignore: sent to the model
  const tail = '\n\nWrite the summary of all of the above now.'; // l10n-ignore: sent to the model
  const turns = sendableTurns(conv.messages.slice(plan.from, plan.to));
  const separator = '\n\n---\n\n';
  let used = messageTokens(head + tail) + messageTokens(SUMMARY_SYSTEM);
  const picked: string[] = [];
  let read = 0;
  for (let i = turns.length - 1; i >= 0; i--) {
    const text = turnText(turns[i]);
    const cost = estimateTokens(text + separator) + 1;
    if (used + cost > room) break;
    used += cost;
    picked.push(text);
    if (turns[i].messages[0].role === 'user') read++;
  }
  if (picked.length === 0) return { ok: false };
  picked.reverse();
  return { ok: true, prompt: head + picked.join(separator) + tail, system: SUMMARY_SYSTEM, read, unread: plan.newTurns - read };
}

/** The summary as a request carries it: a system message that says what it stands for. */
export function summaryMessage(summary: Pick<TurnSummary, 'text' | 'turns'>): string {
  return `Summary of the earlier part of this conversation (${summary.turns} turns), in place of those turns:\n\n${summary.text}`; // l10n-ignore: sent to the model
}

/** The summary a finished request wrote, for the plan it was asked for. */
export function newSummary(
  plan: SummaryPlan,
  text: string,
  facts: { model: string; cost: number | null; unread: number; now: Date },
): TurnSummary {
  const trimmed = text.trim().slice(0, MAX_SUMMARY_TEXT);
  const unread = (plan.previous?.unread ?? 0) + facts.unread;
  return {
    text: trimmed,
    throughId: plan.throughId,
    messageCount: plan.to,
    turns: plan.turns,
    ...(unread > 0 ? { unread } : {}),
    model: facts.model.slice(0, 200),
    cost: facts.cost !== null && Number.isFinite(facts.cost) && facts.cost >= 0 ? facts.cost : null,
    createdAt: facts.now.toISOString(),
  };
}

/**
 * Whether the plan still fits the conversation: the messages it read are where they were (a turn
 * taken back or another summary since makes it stale).
 */
export function planStillFits(conv: Conversation, plan: SummaryPlan): boolean {
  return conv.id === plan.conversationId && conv.messages[plan.to - 1]?.id === plan.throughId && (summaryEnd(conv) ?? 0) === plan.from;
}

/** The earlier messages a request sends after the summary (those it does not replace), and the summary's message. */
export function afterSummary(conv: Conversation, earlier: readonly StoredMessage[]): { earlier: readonly StoredMessage[]; summary?: string; turns?: number } {
  const end = summaryEnd(conv);
  const s = conv.summary;
  if (!s || end === undefined || earlier.length < end || earlier[end - 1] !== conv.messages[end - 1]) return { earlier };
  return { earlier: earlier.slice(end), summary: summaryMessage(s), turns: s.turns };
}

/** aiChat.context.autoSummarize at each level, as VS Code's inspect() reports them. */
export interface AutoSummarizeLevels {
  userValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

/**
 * Whether summaries are automatic: only when the user's own settings turn aiChat.context.autoSummarize
 * on. Each automatic summary is a paid request without a question, so a workspace's value (a cloned
 * repository's `.vscode/settings.json`) neither turns it on nor off, as with the model (C1).
 */
export function autoSummarizeOn(levels: AutoSummarizeLevels): boolean {
  return levels.userValue === true;
}
