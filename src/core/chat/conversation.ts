// Conversations: ids, titles, messages with `msg_xxx` ids, and the history sent to the service.
import type { ChatError } from './errors';
import type { ReplyFacts } from './replyFacts';
import type { SentItem } from '../context/sentWith';
import type { Conversation, ForkOrigin, ImportOrigin, StoredMessage, TurnSummary } from './conversationFormat';

// The stored shapes are the format's (./conversationFormat: their schemas, checked when read).
export type { Conversation, ForkOrigin, ImportOrigin, StoredMessage, TurnSummary };

/** The interface's message id rule: `^msg_[0-9a-f]{3}$`, so 4096 distinct ids. */
export const MESSAGE_ID_PATTERN = /^msg_[0-9a-f]{3}$/;
export const MESSAGE_ID_SPACE = 4096;

/** Most files a question records (its attachments). */
export const MAX_MESSAGE_FILES = 100;

/** Longest summary of earlier turns kept (the model's reply, or the user's edit of it). */
export const MAX_SUMMARY_TEXT = 100_000;


export interface ConversationSummary {
  id: string;
  title: string;
  createdAt: string;
  updatedAt: string;
  messageCount: number;
  /** Model of the newest reply, when one has a model. */
  model?: string;
  /** First line of the first reply (what the conversation is about, beside its title). */
  firstLine: string;
  /** Set on a fork: the conversation it was started from. */
  forkedFrom?: { id: string; title: string };
}

export const DEFAULT_TITLE = 'New chat'; // l10n-ignore: stored in conversation files and compared

export function createConversation(id: string, now: Date = new Date()): Conversation {
  const at = now.toISOString();
  return { version: 1, id, title: DEFAULT_TITLE, createdAt: at, updatedAt: at, nextSeq: 0, messages: [] };
}

export function formatMessageId(seq: number): string {
  return 'msg_' + (((seq % MESSAGE_ID_SPACE) + MESSAGE_ID_SPACE) % MESSAGE_ID_SPACE).toString(16).padStart(3, '0');
}

/**
 * Assigns the next free message id of the conversation. Ids count up and wrap after `msg_fff`;
 * an id still used by one of the newest 4095 messages is skipped, so the newest 4096 messages
 * (the most that can ever be sent at once) always have distinct ids.
 */
export function nextMessageId(conv: Conversation): string {
  // The hidden variants of replies keep their ids too, as far as the id space allows.
  const hidden = (conv.variants ?? []).slice(-(MESSAGE_ID_SPACE / 2));
  const recent = new Set([...conv.messages.slice(-(MESSAGE_ID_SPACE - 1 - hidden.length)), ...hidden].map((m) => m.id));
  for (let i = 0; i < MESSAGE_ID_SPACE; i++) {
    const id = formatMessageId(conv.nextSeq + i);
    if (!recent.has(id)) {
      conv.nextSeq = (conv.nextSeq + i + 1) % MESSAGE_ID_SPACE;
      return id;
    }
  }
  // Unreachable: at most 4095 ids are in `recent`.
  throw new Error('no free message id'); // l10n-ignore: repair notes for the log
}

/** A title from the first line of the first user message. */
export function deriveTitle(text: string, max = 60): string {
  const line = text
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l.length > 0 && !l.startsWith('```'));
  const base = (line ?? text.trim()).replace(/\s+/g, ' ');
  if (!base) return DEFAULT_TITLE;
  return base.length > max ? base.slice(0, max - 1).trimEnd() + '…' : base;
}

export function appendMessage(
  conv: Conversation,
  role: 'user' | 'assistant',
  content: string,
  now: Date = new Date(),
  extra: { status?: StoredMessage['status']; meta?: ReplyFacts; error?: ChatError; files?: readonly string[]; sent?: readonly SentItem[]; branchOf?: string } = {},
): StoredMessage {
  // A message after an edited question belongs to its branch (src/core/variants/branches.ts).
  const last = conv.messages[conv.messages.length - 1];
  const branch = extra.branchOf !== undefined ? undefined : last?.branchOf !== undefined ? last.id : last?.branch;
  const message: StoredMessage = {
    id: nextMessageId(conv),
    role,
    content,
    createdAt: now.toISOString(),
    status: extra.status ?? 'complete',
    ...(extra.meta ? { meta: extra.meta } : {}),
    ...(extra.error ? { error: extra.error } : {}),
    ...(extra.files?.length ? { files: [...new Set(extra.files)].slice(0, MAX_MESSAGE_FILES) } : {}),
    ...(extra.sent ? { sent: [...extra.sent] } : {}),
    ...(extra.branchOf !== undefined ? { branchOf: extra.branchOf } : branch !== undefined ? { branch } : {}),
  };
  conv.messages.push(message);
  conv.updatedAt = message.createdAt;
  if (role === 'user' && conv.title === DEFAULT_TITLE) conv.title = deriveTitle(content);
  return message;
}

/** The title again from the first user message (after messages were taken out). */
export function refreshTitle(conv: Conversation): void {
  const first = conv.messages.find((m) => m.role === 'user');
  conv.title = first ? deriveTitle(first.content) : DEFAULT_TITLE;
}

export function findMessage(conv: Conversation, id: string): StoredMessage | undefined {
  return conv.messages.find((m) => m.id === id);
}

export function lastUserMessageIndex(conv: Conversation): number {
  for (let i = conv.messages.length - 1; i >= 0; i--) if (conv.messages[i].role === 'user') return i;
  return -1;
}

/**
 * How many of the conversation's first messages its summary replaces: up to its `throughId` (found
 * where the summary says, else where that id is now); undefined when there is no summary or its
 * messages are not in the conversation any more.
 */
export function summaryEnd(conv: Pick<Conversation, 'messages' | 'summary'>): number | undefined {
  const s = conv.summary;
  if (!s) return undefined;
  if (conv.messages[s.messageCount - 1]?.id === s.throughId) return s.messageCount;
  const i = conv.messages.findIndex((m) => m.id === s.throughId);
  return i >= 0 ? i + 1 : undefined;
}

/** A summary whose messages were taken out (Edit of a turn it replaced, a turn taken back) goes with them. */
export function dropStaleSummary(conv: Conversation): void {
  if (conv.summary && summaryEnd(conv) === undefined) delete conv.summary;
}

export interface HistoryMessage {
  id?: string;
  role: 'user' | 'assistant' | 'system';
  content: string;
}

export interface HistoryOptions {
  systemPrompt?: string;
  /** At most this many conversation messages (capped at 4096, the id space). */
  maxMessages?: number;
  /** Approximate budget of characters of conversation messages; the newest message is always kept. */
  maxChars?: number;
}

/**
 * The message history to send: the conversation's finished messages (complete or stopped with
 * text; failed replies left out), newest kept first when trimming, ids unique, and the system
 * prompt in front when set. Leading assistant messages left by trimming are dropped so the
 * history starts with the user.
 */
export function buildHistory(messages: readonly StoredMessage[], opts: HistoryOptions = {}): HistoryMessage[] {
  const maxMessages = Math.min(opts.maxMessages ?? MESSAGE_ID_SPACE, MESSAGE_ID_SPACE);
  const maxChars = opts.maxChars ?? Number.POSITIVE_INFINITY;
  const picked: HistoryMessage[] = [];
  const seen = new Set<string>();
  let chars = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.status === 'error' || m.status === 'streaming') continue;
    if (m.content.length === 0) continue;
    if (seen.has(m.id)) break; // an older message reusing an id: everything older is out
    if (picked.length >= maxMessages) break;
    if (picked.length > 0 && chars + m.content.length > maxChars) break;
    seen.add(m.id);
    chars += m.content.length;
    picked.push({ id: m.id, role: m.role, content: m.content });
  }
  picked.reverse();
  while (picked.length > 1 && picked[0].role === 'assistant') picked.shift();
  const system = opts.systemPrompt?.trim();
  return system ? [{ role: 'system', content: system }, ...picked] : picked;
}

export function summarize(conv: Conversation): ConversationSummary {
  let model: string | undefined;
  for (let i = conv.messages.length - 1; i >= 0 && model === undefined; i--) model = conv.messages[i].meta?.model;
  const reply = conv.messages.find((m) => m.role === 'assistant' && m.content.trim() !== '');
  return {
    id: conv.id,
    title: conv.title,
    createdAt: conv.createdAt,
    updatedAt: conv.updatedAt,
    messageCount: conv.messages.length,
    ...(model ? { model } : {}),
    firstLine: reply ? deriveTitle(reply.content.replace(/^[#>\s]+/, ''), 120) : '',
    ...(conv.forkedFrom ? { forkedFrom: { id: conv.forkedFrom.id, title: conv.forkedFrom.title } } : {}),
  };
}

/**
 * A new conversation holding copies of every message of `conv` up to and including
 * `messageId` (ids kept, replies still streaming not copied); the original is not touched.
 * Undefined when there is no such message.
 */
export function forkConversation(conv: Conversation, messageId: string, newId: string, now: Date = new Date()): Conversation | undefined {
  const at = conv.messages.findIndex((m) => m.id === messageId);
  if (at < 0) return undefined;
  const messages = conv.messages
    .slice(0, at + 1)
    .filter((m) => m.status !== 'streaming')
    // The branch shown, as a conversation of one branch.
    .map(({ branchOf: _of, branch: _in, ...m }) => structuredClone(m));
  if (messages.length === 0) return undefined;
  const stamp = now.toISOString();
  // The summary goes with the fork when every message it replaces does.
  const replaced = conv.summary ? summaryEnd(conv) : undefined;
  const summary = conv.summary && replaced !== undefined && replaced <= at + 1 ? structuredClone(conv.summary) : undefined;
  return {
    version: 1,
    id: newId,
    title: conv.title,
    forkedFrom: { id: conv.id, title: conv.title.slice(0, 500), messageId },
    ...(summary ? { summary } : {}),
    ...(conv.pins?.length ? { pins: structuredClone(conv.pins) } : {}),
    createdAt: stamp,
    updatedAt: stamp,
    nextSeq: conv.nextSeq,
    messages,
  };
}
