// The Chat view's turns (@aichat, the language model provider) as the service's messages: earlier
// turns and the new prompt, within the model's budget, without any turn that holds the API key.
// Pure: the native adapters (src/extension/chat/native) pass the Chat view's turns in.
import { formatMessageId, MESSAGE_ID_SPACE, type HistoryMessage, type StoredMessage } from './conversation';
import { selectContext, type ContextSelection } from '../context/contextBudget';

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
