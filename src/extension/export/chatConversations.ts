// The chat's conversations as the export room sees them: the one the chat shows, the store, and
// opening one in the chat. extension.ts wires it to the chat, built on its first use; the export
// room never imports the chat.
import type { Conversation, ConversationStore } from '../../core';

export interface ChatConversations {
  /** The conversation the chat shows (the last window's reopened first, after a reload). */
  current(): Promise<Conversation>;
  /** The conversation store, where an import is written (History lists it from there). */
  store(): Promise<ConversationStore>;
  /** Opens a saved conversation in the chat and shows the chat; false when it could not be read. */
  open(id: string): Promise<boolean>;
  /** Whether a text holds the user's API key (a file that does is not imported: its turns would be sent). */
  holdsKey(text: string): Promise<boolean>;
}
