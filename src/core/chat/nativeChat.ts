// One answer of the @aichat participant in VS Code's Chat view: the Chat view's earlier turns
// and the new prompt become the service's messages, the reply streams through the same client
// as the panel's, and a failure is described with the panel's wording. Pure: the participant
// (src/extension/chat/native) passes the Chat view's turns in and writes the text out.
import { ReplyAssembler } from '../../client/reply';
import type { ChatBackend, SessionRetryNotice, SessionSettings } from './chatSession';
import { formatMessageId, MESSAGE_ID_SPACE, type HistoryMessage, type StoredMessage } from './conversation';
import { selectContext, type ContextSelection } from '../context/contextBudget';
import { errorKind, errorToView, retryNoticeText } from './errors';
import type { ErrorView } from '../../protocol';

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

export interface NativeAnswerSink {
  /** Text of the reply as it streams. */
  text(chunk: string): void;
  /** A waiting notice (the client tries again after a 429, 503 or refused connection). */
  progress(message: string): void;
}

export type NativeAnswer = { ok: true; text: string } | { ok: false; aborted: boolean; error: ErrorView; text: string };

/** Streams one reply of the service into `sink`. Never throws: a failure is returned, described. */
export async function answerNative(
  backend: ChatBackend,
  settings: Pick<SessionSettings, 'model' | 'temperature' | 'search' | 'baseUrl'>,
  messages: HistoryMessage[],
  sink: NativeAnswerSink,
  signal: AbortSignal,
): Promise<NativeAnswer> {
  let text = '';
  try {
    const stream = await backend.chatStream(
      { messages, model: settings.model, stream: true, temperature: settings.temperature, ...(settings.search ? { search: true } : {}) },
      { signal, onRetry: (n: SessionRetryNotice) => sink.progress(retryNoticeText(n, settings.baseUrl)) },
    );
    if (signal.aborted) stream.abort();
    const reply = new ReplyAssembler();
    for await (const ev of stream) {
      const chunk = reply.push(ev);
      if (chunk) {
        text += chunk;
        sink.text(chunk);
      }
      if (signal.aborted) break;
    }
    if (signal.aborted) return { ok: false, aborted: true, error: errorToView(Object.assign(new Error('aborted'), { name: 'AbortError' }), settings.baseUrl), text };
    const outcome = reply.outcome;
    if (outcome.ending === 'error') {
      return { ok: false, aborted: false, error: errorToView(Object.assign(new Error(outcome.errorMessage ?? ''), { kind: 'stream' }), settings.baseUrl), text };
    }
    return { ok: true, text };
  } catch (err) {
    const aborted = signal.aborted || errorKind(err) === 'aborted';
    return { ok: false, aborted, error: errorToView(err, settings.baseUrl), text };
  }
}
