// The conversation of the last window: reopened once, through the session (so every surface is
// told), from the pointer the store recorded (or a restored panel's state); when it cannot be read,
// the chat says so until the conversation changes.
import * as vscode from 'vscode';
import type { ChatSession, ConversationStore } from '../../core';
import { isSafeConversationId } from '../platform/links';
import type { Logger } from '../platform/log';

export interface LastConversationDeps {
  session: ChatSession;
  store: ConversationStore;
  logger: Logger;
  /** The notice changed: the chat shows the conversation again with it. */
  noticeChanged(): void;
}

export class LastConversation {
  private restored: Promise<void> | undefined;
  private why: string | undefined;

  constructor(private readonly deps: LastConversationDeps) {}

  /** Why the conversation of the last window is not shown (it could not be reopened). */
  get notice(): string | undefined {
    return this.why;
  }

  /** The chat shows another conversation: the notice is over. */
  conversationChanged(): void {
    this.why = undefined;
  }

  /** Reopens it (once); `preferred`: a restored panel's conversation, when the store recorded none. */
  restore(preferred?: string): Promise<void> {
    this.restored ??= (async () => {
      // The recorded pointer wins: a browser window may reload before it saved the panel's state.
      const id = (await this.deps.store.lastOpenedId()) ?? preferred;
      if (!id || !isSafeConversationId(id)) return;
      const result = await this.deps.session.restore(id);
      if (result === 'failed') {
        this.why = vscode.l10n.t('The last conversation could not be reopened. Look for it in History.');
        this.deps.noticeChanged();
      }
      this.deps.logger.info('Last conversation', { result, messages: this.deps.session.conversation.messages.length });
    })().catch((err) => this.deps.logger.warn('Could not reopen the last conversation', { message: String(err) }));
    return this.restored;
  }

  /** The conversation a restored panel's saved state names, if any. */
  static savedId(state: unknown): string | undefined {
    return state && typeof state === 'object' && typeof (state as { conversationId?: unknown }).conversationId === 'string'
      ? (state as { conversationId: string }).conversationId
      : undefined;
  }
}
