// A question and its answer asked elsewhere (@aichat, edit in the editor) kept as a conversation of
// its own, saved and listed in History. The store owns it: no window's conversation changes.
// VS Code-free.
import { appendMessage, createConversation } from './conversation';
import type { ReplyFacts } from './replyFacts';
import type { ConversationStore } from '../storage/store';

/** Saves the turn as a new conversation; its id. */
export async function keepTurn(store: ConversationStore, question: string, answer: string, meta?: ReplyFacts, now: () => Date = () => new Date()): Promise<string> {
  const conv = createConversation(globalThis.crypto.randomUUID(), now());
  appendMessage(conv, 'user', question, now());
  appendMessage(conv, 'assistant', answer, now(), meta ? { meta } : {});
  await store.restore(conv);
  return conv.id;
}
