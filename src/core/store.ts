// The conversation store: the current conversation plus the saved ones, persisted through a port.
import {
  createConversation,
  parseConversation,
  summarize,
  type Conversation,
  type ConversationSummary,
} from './conversation';

/** Where conversations are kept (the extension writes JSON files; tests use memory). */
export interface ConversationStoragePort {
  list(): Promise<ConversationSummary[]>;
  read(id: string): Promise<unknown | undefined>;
  write(conv: Conversation): Promise<void>;
  remove(id: string): Promise<void>;
  /** Which conversation was current (kept beside the conversations, written at once). */
  readCurrentId(): Promise<string | undefined>;
  writeCurrentId(id: string): Promise<void>;
}

export class MemoryConversationStorage implements ConversationStoragePort {
  readonly data = new Map<string, string>();
  async list(): Promise<ConversationSummary[]> {
    return [...this.data.values()].map((json) => summarize(JSON.parse(json) as Conversation));
  }
  async read(id: string): Promise<unknown | undefined> {
    const json = this.data.get(id);
    return json === undefined ? undefined : JSON.parse(json);
  }
  async write(conv: Conversation): Promise<void> {
    this.data.set(conv.id, JSON.stringify(conv));
  }
  async remove(id: string): Promise<void> {
    this.data.delete(id);
  }
  currentId: string | undefined;
  async readCurrentId(): Promise<string | undefined> {
    return this.currentId;
  }
  async writeCurrentId(id: string): Promise<void> {
    this.currentId = id;
  }
}

export interface ConversationStoreOptions {
  newId?: () => string;
  now?: () => Date;
}

export class ConversationStore {
  private currentConv: Conversation;
  private readonly newId: () => string;
  private readonly now: () => Date;
  /** Serialises writes so an older snapshot never overwrites a newer one. */
  private writing: Promise<void> = Promise.resolve();
  private rememberedId: string | undefined;

  constructor(
    private readonly storage: ConversationStoragePort,
    opts: ConversationStoreOptions = {},
  ) {
    this.newId = opts.newId ?? (() => globalThis.crypto.randomUUID());
    this.now = opts.now ?? (() => new Date());
    this.currentConv = createConversation(this.newId(), this.now());
  }

  get current(): Conversation {
    return this.currentConv;
  }

  /** Starts a new, empty conversation (saved once it has a message). */
  newConversation(): Conversation {
    this.currentConv = createConversation(this.newId(), this.now());
    return this.currentConv;
  }

  /**
   * Records which conversation is current, so that a reload or restart reopens it. Written with
   * the conversations (not in VS Code's state, which a browser window saves only now and then).
   */
  rememberCurrent(): Promise<void> {
    const id = this.currentConv.id;
    if (id === this.rememberedId) return Promise.resolve();
    this.rememberedId = id;
    const next = this.writing.then(() => this.storage.writeCurrentId(id));
    this.writing = next.catch(() => undefined);
    return next;
  }

  /** The conversation that was current when the last window closed, if one was recorded. */
  rememberedCurrentId(): Promise<string | undefined> {
    return this.storage.readCurrentId();
  }

  /** Saved conversations, newest first. Empty ones are never saved. */
  async list(): Promise<ConversationSummary[]> {
    const all = await this.storage.list();
    return all.filter((c) => c.messageCount > 0).sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  }

  /** Makes a saved conversation current; returns undefined when it is missing or unreadable. */
  async open(id: string): Promise<Conversation | undefined> {
    if (id === this.currentConv.id) return this.currentConv;
    const conv = parseConversation(await this.storage.read(id), id);
    if (!conv) return undefined;
    this.currentConv = conv;
    return conv;
  }

  /**
   * Writes the conversation (a snapshot of it now); resolves when it is on storage. A
   * conversation left without messages is not kept.
   */
  save(conv: Conversation = this.currentConv): Promise<void> {
    const snapshot = JSON.parse(JSON.stringify(conv)) as Conversation;
    const next = this.writing.then(() =>
      snapshot.messages.length === 0 ? this.storage.remove(snapshot.id) : this.storage.write(snapshot),
    );
    this.writing = next.catch(() => undefined);
    return next;
  }

  async remove(id: string): Promise<void> {
    await this.storage.remove(id);
    if (id === this.currentConv.id) this.newConversation();
  }
}
