// The conversation store as one window's chat uses it, for tests of the store alone: the store
// keeps no current conversation (the chat session holds it), so this keeps one the way the session
// does: `current` is the conversation worked on, replaced by newConversation(), open() and a
// delete of it; save(), refresh(), fork() and saveAll() act on it unless told otherwise.
import { ConversationStore, type Conversation, type ConversationStoragePort, type ConversationStoreOptions } from '../../src/core';

export class WindowStore extends ConversationStore {
  private conv: Conversation;

  constructor(storage: ConversationStoragePort, opts: ConversationStoreOptions = {}) {
    super(storage, opts);
    // Made at once, as the session makes its first conversation.
    this.conv = this.create();
  }

  /** The conversation this window works on. */
  get current(): Conversation {
    return this.conv;
  }

  newConversation(): Conversation {
    this.conv = this.create();
    return this.conv;
  }

  override save(conv: Conversation = this.current): Promise<void> {
    return super.save(conv);
  }

  override saveAll(shown: Conversation = this.current): Promise<void> {
    return super.saveAll(shown);
  }

  override refresh(conv: Conversation = this.current): Promise<'same' | 'changed' | 'deleted'> {
    return super.refresh(conv);
  }

  override async open(id: string): Promise<Conversation | undefined> {
    if (id === this.conv.id) return this.conv;
    const conv = await super.open(id);
    if (conv) this.conv = conv;
    return conv;
  }

  override async load(id: string): Promise<Conversation | undefined> {
    // The one this window works on, as it holds it.
    if (id === this.conv.id && this.conv.messages.length > 0) return this.conv;
    return super.load(id);
  }

  override async remove(id: string): Promise<void> {
    await super.remove(id);
    if (id === this.conv.id) this.newConversation();
  }

  override rename(id: string, title: string, open: Conversation | undefined = this.conv): Promise<void> {
    return super.rename(id, title, open);
  }

  /** Forks the conversation worked on (or `conv`) up to `messageId`. */
  forkCurrent(messageId: string, conv: Conversation = this.current): Promise<Conversation | undefined> {
    return super.fork(conv, messageId);
  }

  rememberCurrent(): Promise<void> {
    return this.keepLastOpened(this.current.id);
  }
}
