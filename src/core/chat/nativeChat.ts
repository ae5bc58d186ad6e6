// The Chat view's turns (@aichat, the language model provider) as the service's messages: earlier
// turns and the new prompt, within the model's budget, without any turn that holds the API key.
// Pure: the native adapters (src/extension/chat/native) pass the Chat view's turns in.
import { formatMessageId, MESSAGE_ID_SPACE, type HistoryMessage, type StoredMessage } from './conversation';
import { selectContext, type ContextSelection } from '../context/contextBudget';
import { escapeMarkdown } from '../text/markdown';
import * as l10n from '@vscode/l10n';

export interface NativeTurn {
  role: 'user' | 'assistant';
  content: string;
}

/** The messages to send: earlier turns (empty ones left out), the prompt, the system prompt first. */
export function nativeHistory(turns: readonly NativeTurn[], prompt: string, systemPrompt: string): HistoryMessage[] {
  const selection = nativeContext(turns, prompt, systemPrompt, Number.POSITIVE_INFINITY);
  return selection.ok ? selection.messages : [];
}

/**
 * The same within a budget of estimated tokens (the panel's rule, contextBudget.ts): the system
 * prompt and the prompt always, then earlier turns newest first, whole turns only; not ok when
 * the prompt alone exceeds the budget.
 */
export function nativeContext(turns: readonly NativeTurn[], prompt: string, systemPrompt: string, budget: number): ContextSelection {
  // The newest turns keep their ids when a very long Chat view history is trimmed.
  const kept = turns.filter((t) => t.content.trim() !== '').slice(-(MESSAGE_ID_SPACE - 1));
  const stored: StoredMessage[] = kept.map((t, i) => ({
    id: formatMessageId(i),
    role: t.role,
    content: t.content,
    status: 'complete',
    createdAt: '',
  }));
  return selectContext({ systemPrompt, message: prompt, earlier: stored, budget, messageId: formatMessageId(kept.length) });
}

/**
 * The Chat view's turns without any that holds the API key (`holds`): a request refused for it,
 * with the answer after it (the refusal), and an answer that quotes the key (another model's, or
 * one built by the extension that calls). VS Code keeps them in its history and hands them back
 * with every later request.
 */
export function turnsWithout(turns: readonly NativeTurn[], holds: (text: string) => boolean): NativeTurn[] {
  const kept: NativeTurn[] = [];
  let refused = false;
  for (const turn of turns) {
    if (turn.role === 'user') refused = holds(turn.content);
    else if (refused) {
      // The answer to a refused request.
      refused = false;
      continue;
    }
    if (!holds(turn.content)) kept.push(turn);
  }
  return kept;
}

/** What a @aichat answer keeps in its result's metadata: the text really sent and the reply itself. */
export interface SentTurn {
  prompt: string;
  reply: string;
}

/** The metadata a @aichat answer returns, from which a later request reads the turn back. */
export function sentTurnMetadata(prompt: string, reply: string): { sent: SentTurn } {
  return { sent: { prompt, reply } };
}

/**
 * The metadata of a @aichat answer given without the model (a slash command's list, a refusal):
 * later requests send neither it nor the request it answered.
 */
export function answeredHereMetadata(): { answeredHere: true } {
  return { answeredHere: true };
}

function answeredHere(metadata: unknown): boolean {
  return typeof metadata === 'object' && metadata !== null && (metadata as { answeredHere?: unknown }).answeredHere === true;
}

/** The turn a response's metadata says was sent, when it is one of ours and well formed. */
function sentTurnOf(metadata: unknown): SentTurn | undefined {
  if (typeof metadata !== 'object' || metadata === null) return undefined;
  const sent = (metadata as { sent?: unknown }).sent;
  if (typeof sent !== 'object' || sent === null) return undefined;
  const { prompt, reply } = sent as { prompt?: unknown; reply?: unknown };
  return typeof prompt === 'string' && typeof reply === 'string' ? { prompt, reply } : undefined;
}

/** One entry of the Chat view's history with @aichat: a request as typed, or a response as shown. */
export type ChatViewEntry = { kind: 'request'; text: string } | { kind: 'response'; shown: string; metadata?: unknown };

/**
 * The earlier turns to send from the Chat view's history. A response that says what was sent
 * (`sentTurnMetadata`) gives the text really asked (a slash command's expansion, not `/prompt name`)
 * and the model's reply alone (not the price line above it or a note below it); one answered without
 * the model (`answeredHereMetadata`) is left out with its request; others are taken as shown.
 */
export function nativeTurns(entries: readonly ChatViewEntry[]): NativeTurn[] {
  const turns: NativeTurn[] = [];
  for (const entry of entries) {
    if (entry.kind === 'request') {
      turns.push({ role: 'user', content: entry.text });
      continue;
    }
    if (answeredHere(entry.metadata)) {
      if (turns[turns.length - 1]?.role === 'user') turns.pop();
      continue;
    }
    const sent = sentTurnOf(entry.metadata);
    if (!sent) {
      turns.push({ role: 'assistant', content: entry.shown });
      continue;
    }
    const last = turns[turns.length - 1];
    if (last?.role === 'user') last.content = sent.prompt;
    turns.push({ role: 'assistant', content: sent.reply });
  }
  return turns;
}

/**
 * What the Chat view attached but was not sent, and why (one line each, as the chat's notifications
 * say it), as a note above @aichat's answer; the notes are text, never Markdown.
 */
export function referencesNote(notes: readonly string[]): string {
  return `${[l10n.t('Not all that was attached went with your question:'), ...notes.map((n) => `- ${escapeMarkdown(n)}`)].join('\n')}\n\n`;
}
