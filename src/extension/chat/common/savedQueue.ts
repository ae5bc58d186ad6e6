// The queues of conversations, kept between windows with the conversation each belongs to, so a
// reload (or leaving a conversation) does not lose what was typed. VS Code-free (the store is the
// workspace's state). Earlier versions kept one conversation's queue as one object: still read.
import { restoreQueue, type MessageQueue } from '../../../core';

/** Where the queues are kept between windows (the workspace's state). */
export interface QueueStore {
  load(): unknown;
  save(value: unknown): void;
}

/** At most this many conversations keep a queue (the oldest kept goes first). */
export const MAX_KEPT_QUEUES = 20;

type Entry = { conversationId: string; items: unknown; reason?: unknown };

function entries(store: QueueStore): Entry[] {
  const saved = store.load();
  const list = Array.isArray(saved) ? (saved as unknown[]) : saved ? [saved] : [];
  return list.filter((e): e is Entry => !!e && typeof e === 'object' && typeof (e as { conversationId?: unknown }).conversationId === 'string');
}

/** Keeps `queue` for `conversationId` (nothing when it is empty); the queues of other conversations stay. */
export function saveQueue(store: QueueStore, conversationId: string, queue: MessageQueue): void {
  const others = entries(store).filter((e) => e.conversationId !== conversationId);
  const mine = queue.items.length ? [{ conversationId, items: queue.items, ...(queue.reason ? { reason: queue.reason } : {}) }] : [];
  const next = [...others, ...mine].slice(-MAX_KEPT_QUEUES);
  store.save(next.length ? next : undefined);
}

/** The queue kept for `conversationId` (none for another conversation, or when empty), with the highest `qN` id it holds. */
export function loadQueue(store: QueueStore, conversationId: string): { queue: MessageQueue; lastSeq: number } | undefined {
  const saved = entries(store).find((e) => e.conversationId === conversationId);
  if (!saved) return undefined;
  const queue = restoreQueue(saved);
  if (queue.items.length === 0) return undefined;
  let lastSeq = 0;
  for (const m of queue.items) {
    const n = /^q(\d+)$/.exec(m.id);
    if (n) lastSeq = Math.max(lastSeq, Number(n[1]));
  }
  return { queue, lastSeq };
}
