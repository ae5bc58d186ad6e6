// Messages typed while a reply streams: kept in order, editable and removable until they go.
// A failure stops the queue (the messages stay, marked stopped) until the user resumes or clears it.
// Stop on the current reply also pauses the queue: nothing is sent behind the user's back.
import type { SentItem } from '../context/sentWith';
import { SentWithSchema } from './conversationFormat';

export interface QueuedMessage {
  id: string;
  text: string;
  /** The model chosen when the message was queued, and its price (undefined when unknown). */
  model: string;
  cost?: number;
  /** The workspace files it carries (its attachments): the rules that apply to them go with it. */
  files?: string[];
  /** Its attachments as "Sent with this message" records them. */
  sent?: SentItem[];
  /** The conversation's pins go with it, read when it is sent (not when it was queued). */
  pins?: true;
}

export type QueueState = 'idle' | 'waiting' | 'stopped';

export interface MessageQueue {
  items: QueuedMessage[];
  /** idle: empty; waiting: sends the next item when the current reply finishes; stopped: held after a failure or Stop. */
  state: QueueState;
  /** Why the queue stopped, for the card. */
  reason?: string;
}

export const emptyQueue = (): MessageQueue => ({ items: [], state: 'idle' });

const settle = (q: MessageQueue, items: QueuedMessage[]): MessageQueue => {
  if (items.length === 0) return { items, state: 'idle' };
  return q.state === 'idle' ? { items, state: 'waiting' } : { ...q, items };
};

export function enqueue(q: MessageQueue, msg: QueuedMessage): MessageQueue {
  if (!msg.text.trim()) return q;
  return settle(q, [...q.items, msg]);
}

export function removeQueued(q: MessageQueue, id: string): MessageQueue {
  return settle(q, q.items.filter((m) => m.id !== id));
}

/** Edits the text of a queued message; an empty text removes it. */
export function editQueued(q: MessageQueue, id: string, text: string): MessageQueue {
  if (!text.trim()) return removeQueued(q, id);
  return settle(q, q.items.map((m) => (m.id === id ? { ...m, text } : m)));
}

/** Called when a reply finished well: the next message to send, if the queue is not held. */
export function takeNext(q: MessageQueue): { queue: MessageQueue; next?: QueuedMessage } {
  if (q.state !== 'waiting' || q.items.length === 0) return { queue: q };
  const [next, ...rest] = q.items;
  return { queue: settle(q, rest), next };
}

/** A reply failed (error, 402, network) or the user pressed Stop: hold what is left. */
export function stopQueue(q: MessageQueue, reason: string): MessageQueue {
  if (q.items.length === 0) return q;
  return { items: q.items, state: 'stopped', reason };
}

export function resumeQueue(q: MessageQueue): MessageQueue {
  return q.items.length === 0 ? emptyQueue() : { items: q.items, state: 'waiting' };
}

export function clearQueue(): MessageQueue {
  return emptyQueue();
}

/** Reads a queue saved by an earlier webview (untrusted shape): keeps the well-formed items, held as stopped. */
export function restoreQueue(saved: unknown): MessageQueue {
  if (!saved || typeof saved !== 'object') return emptyQueue();
  const raw = (saved as { items?: unknown }).items;
  if (!Array.isArray(raw)) return emptyQueue();
  const items: QueuedMessage[] = [];
  for (const r of raw as unknown[]) {
    if (!r || typeof r !== 'object') continue;
    const { id, text, model, cost, files, sent, pins } = r as Record<string, unknown>;
    if (typeof id !== 'string' || typeof text !== 'string' || typeof model !== 'string' || !text.trim()) continue;
    const paths = Array.isArray(files) ? files.filter((f): f is string => typeof f === 'string' && f.length <= 1000).slice(0, 100) : [];
    const record = SentWithSchema.safeParse(sent);
    items.push({ id, text, model, ...(typeof cost === 'number' && Number.isFinite(cost) ? { cost } : {}), ...(paths.length ? { files: paths } : {}), ...(record.success ? { sent: record.data } : {}), ...(pins === true ? { pins: true as const } : {}) });
  }
  if (items.length === 0) return emptyQueue();
  const reason = (saved as { reason?: unknown }).reason;
  return { items, state: 'stopped', reason: typeof reason === 'string' ? reason : undefined };
}

/** Total price of what is queued (unknown prices count as zero, and are reported). */
export function queuedCost(q: MessageQueue): { total: number; unknown: number } {
  let total = 0;
  let unknown = 0;
  for (const m of q.items) {
    if (m.cost === undefined) unknown++;
    else total += m.cost;
  }
  return { total: Math.round(total * 100) / 100, unknown };
}
