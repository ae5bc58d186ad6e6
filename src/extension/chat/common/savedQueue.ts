// The queue of the current conversation, kept between windows with the conversation it belongs
// to, so a reload does not lose what was typed. VS Code-free (the store is the workspace's state).
import { restoreQueue, type MessageQueue } from '../../../core';

/** Where the queue of a conversation is kept between windows (the workspace's state). */
export interface QueueStore {
  load(): unknown;
  save(value: unknown): void;
}

/** Keeps `queue` for `conversationId` (nothing when it is empty). */
export function saveQueue(store: QueueStore, conversationId: string, queue: MessageQueue): void {
  store.save(queue.items.length ? { conversationId, items: queue.items, ...(queue.reason ? { reason: queue.reason } : {}) } : undefined);
}

/** The queue kept for `conversationId` (none for another conversation, or when empty), with the highest `qN` id it holds. */
export function loadQueue(store: QueueStore, conversationId: string): { queue: MessageQueue; lastSeq: number } | undefined {
  const saved = store.load();
  if (!saved || typeof saved !== 'object' || (saved as { conversationId?: unknown }).conversationId !== conversationId) return undefined;
  const queue = restoreQueue(saved);
  if (queue.items.length === 0) return undefined;
  let lastSeq = 0;
  for (const m of queue.items) {
    const n = /^q(\d+)$/.exec(m.id);
    if (n) lastSeq = Math.max(lastSeq, Number(n[1]));
  }
  return { queue, lastSeq };
}
