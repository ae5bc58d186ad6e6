// The messages typed while a reply streams, owned with the conversation they belong to: kept in
// the workspace's state with it (a reload loses nothing), held when the user leaves it, back when the
// user returns, dropped with it when it is deleted, and never sent into another conversation.
// VS Code-free: the store is the workspace's state, the surface is told through `post`.
import * as l10n from '@vscode/l10n';
import { clearQueue, editQueued, emptyQueue, enqueue, removeQueued, resumeQueue, stopQueue, takeNext, type Carried, type MessageQueue, type QueuedMessage } from '../../../core';
import type { HostMessage } from '../../../protocol';
import { queueMessageOf } from './presenter';
import { loadQueue, saveQueue, type QueueStore } from './savedQueue';

export interface ConversationQueueDeps {
  /** The id of the conversation the chat shows. */
  current: () => string;
  /** Tells the surface showing the chat. */
  post: (message: HostMessage) => void;
  store?: QueueStore;
}

export class ConversationQueue {
  private queue: MessageQueue = emptyQueue();
  /** The conversation the queued messages belong to. */
  private owner: string | undefined;
  private seq = 0;

  constructor(private readonly deps: ConversationQueueDeps) {}

  get length(): number {
    return this.queue.items.length;
  }

  /** What the chat shows of the queue. */
  message(): HostMessage {
    return queueMessageOf(this.queue);
  }

  private set(q: MessageQueue): void {
    this.queue = q;
    this.save();
    this.deps.post(this.message());
  }

  /** Kept with the conversation it belongs to (nothing when empty). */
  private save(): void {
    if (this.deps.store) saveQueue(this.deps.store, this.owner ?? this.deps.current(), this.queue);
  }

  /** A message of the current conversation waits for the running reply, with its model, price and files (`pins`: the pins join it when it goes). */
  add(text: string, model: string, cost: number | null, with_: Carried = {}, pins = false): void {
    if (this.queue.items.length === 0) this.owner = this.deps.current();
    const { files, sent } = with_;
    this.set(enqueue(this.queue, { id: `q${++this.seq}`, text, model, ...(cost !== null ? { cost } : {}), ...(files?.length ? { files: [...files] } : {}), ...(sent ? { sent: [...sent] } : {}), ...(pins ? { pins: true as const } : {}) }));
  }

  remove(id: string): void {
    this.set(removeQueued(this.queue, id));
  }

  edit(id: string, text: string): void {
    this.set(editQueued(this.queue, id, text));
  }

  /** The surface shows the queue as it is (e.g. a refused edit goes back to its text). */
  show(): void {
    this.deps.post(this.message());
  }

  clear(): void {
    this.set(clearQueue());
  }

  resume(): void {
    this.set(resumeQueue(this.queue));
  }

  /** Held (not sent on) until the user resumes, edits or clears it, saying why. */
  stop(reason: string): void {
    this.set(stopQueue(this.queue, reason));
  }

  /** The next message to send now, taken out of the queue; none when it is empty, held, or of another conversation. */
  next(): QueuedMessage | undefined {
    if (this.owner !== undefined && this.owner !== this.deps.current()) return undefined;
    const { queue, next } = takeNext(this.queue);
    if (next) this.set(queue);
    return next;
  }

  /** The next message, left in the queue (to check before taking it). */
  peek(): QueuedMessage | undefined {
    return takeNext(this.queue).next;
  }

  /**
   * The chat shows another conversation (new, opened, restored, deleted): the queue of the one left
   * is kept with it, held; this one's own kept queue comes back, held until the user sends it on.
   */
  follow(restored: boolean): void {
    const current = this.deps.current();
    if (this.queue.items.length > 0 && this.owner !== undefined && this.owner !== current) {
      this.queue = stopQueue(this.queue, l10n.t('Not sent before you left this conversation'));
      this.save();
      this.queue = emptyQueue();
      this.owner = undefined;
      this.deps.post(this.message());
    }
    if (this.queue.items.length > 0) return;
    const saved = this.deps.store && loadQueue(this.deps.store, current);
    if (!saved) return;
    this.owner = current;
    this.seq = Math.max(this.seq, saved.lastSeq);
    this.set({ ...saved.queue, reason: restored ? l10n.t('Not sent before the window closed') : l10n.t('Not sent before you left this conversation') });
  }

  /** A conversation was deleted: its queued messages go with it (in memory and in the workspace's state). */
  drop(conversationId: string): void {
    if (this.deps.store) saveQueue(this.deps.store, conversationId, emptyQueue());
    if (this.owner === conversationId) {
      this.owner = undefined;
      this.set(clearQueue());
    }
  }
}
