// Conversations: ids, titles, messages with `msg_xxx` ids, and the history sent to the service.
import * as z from 'zod/mini';
import * as l10n from '@vscode/l10n';
import { ChatErrorSchema, type ChatError } from './errors';
import { ReplyFactsSchema, type ReplyFacts } from './replyFacts';
import { SentWithSchema, type SentItem } from '../context/sentWith';
import { PinsSchema } from '../context/pins';

/** The interface's message id rule: `^msg_[0-9a-f]{3}$`, so 4096 distinct ids. */
export const MESSAGE_ID_PATTERN = /^msg_[0-9a-f]{3}$/;
export const MESSAGE_ID_SPACE = 4096;

/** Most files a question records (its attachments). */
export const MAX_MESSAGE_FILES = 100;

export const StoredMessageSchema = z.object({
  id: z.string().check(z.regex(MESSAGE_ID_PATTERN)),
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  createdAt: z.string(),
  status: z.enum(['complete', 'streaming', 'stopped', 'error']),
  meta: z.optional(ReplyFactsSchema),
  error: z.optional(ChatErrorSchema),
  /** A question's workspace files (its attachments, workspace-relative): the rules that apply to them go with it, sent again too. */
  files: z.optional(z.array(z.string().check(z.maxLength(1000))).check(z.maxLength(MAX_MESSAGE_FILES))),
  /** A reply with variants (Retry with…): the question it answers, shared by all its variants (src/core/variants). */
  variantOf: z.optional(z.string().check(z.regex(MESSAGE_ID_PATTERN))),
  /** An edited question (a branch): the first question of its place, shared by all its questions (src/core/variants/branches.ts). */
  branchOf: z.optional(z.string().check(z.regex(MESSAGE_ID_PATTERN))),
  /** A message after an edited question: that question (the branch it belongs to). */
  branch: z.optional(z.string().check(z.regex(MESSAGE_ID_PATTERN))),
  /** A question's "Sent with this message": its attachments, the instructions and rules that went (absent in older files). */
  sent: z.optional(SentWithSchema),
});
export type StoredMessage = z.infer<typeof StoredMessageSchema>;

/** Where a forked conversation came from: the original and the message it was forked at. */
export const ForkOriginSchema = z.object({ id: z.string().check(z.minLength(1), z.maxLength(200)), title: z.string().check(z.maxLength(500)), messageId: z.string().check(z.maxLength(20)) });
export type ForkOrigin = z.infer<typeof ForkOriginSchema>;

/**
 * Where an imported conversation came from (src/core/export): the id it had in the exported file
 * and the hash of that file's conversation, so that importing the same file again finds it.
 */
export const ImportOriginSchema = z.object({ id: z.string().check(z.minLength(1), z.maxLength(200)), hash: z.string().check(z.regex(/^[0-9a-f]{64}$/)) });
export type ImportOrigin = z.infer<typeof ImportOriginSchema>;

/** Longest summary of earlier turns kept (the model's reply, or the user's edit of it). */
export const MAX_SUMMARY_TEXT = 100_000;

/**
 * A summary of the conversation's first messages (up to and including `throughId`): requests send
 * it instead of them; the messages themselves stay in the conversation. See summary.ts.
 */
export const TurnSummarySchema = z.object({
  text: z.string().check(z.minLength(1), z.maxLength(MAX_SUMMARY_TEXT)),
  /** The last message it replaces: its card goes below it, above the turns still sent. */
  throughId: z.string().check(z.regex(MESSAGE_ID_PATTERN)),
  turns: z.number().check(z.int(), z.gte(0)),
  /** The oldest of those turns its request could not hold. */
  unread: z.optional(z.number().check(z.int(), z.gte(0))),
  model: z.string().check(z.maxLength(200)),
  /** The price shown before it was asked for (null: unknown); `credits`: what it cost, once known. */
  cost: z.nullable(z.number().check(z.gte(0))),
  credits: z.optional(z.number().check(z.gte(0))),
  edited: z.optional(z.boolean()),
  /** How many messages it replaces (the first ones of the conversation). */
  messageCount: z.number().check(z.int(), z.gt(0)),
  createdAt: z.string(),
});
export type TurnSummary = z.infer<typeof TurnSummarySchema>;

export const ConversationSchema = z.object({
  version: z.literal(1),
  id: z.string().check(z.minLength(1), z.maxLength(200)),
  title: z.string(),
  forkedFrom: z.optional(ForkOriginSchema),
  /** Set on an imported conversation: the file's conversation it was imported from. */
  importedFrom: z.optional(ImportOriginSchema),
  /** The summary of earlier turns that requests send in their place (absent in older files). */
  summary: z.optional(TurnSummarySchema),
  /** Files and ranges pinned to the conversation, read again at each send (absent in older files). */
  pins: z.optional(PinsSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Sequence number of the next message id (wraps at 4096). */
  nextSeq: z.number().check(z.int(), z.gte(0)),
  messages: z.array(StoredMessageSchema),
  /** The variants of replies not shown (src/core/variants): `messages` holds the one shown of each. */
  variants: z.optional(z.array(StoredMessageSchema)),
});
export type Conversation = z.infer<typeof ConversationSchema>;

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

/**
 * Parses stored JSON. A conversation that fails its schema is repaired (see repairConversation);
 * undefined only when nothing can be read (not an object, or no usable id).
 */
export function parseConversation(data: unknown, fallbackId?: string): Conversation | undefined {
  const conv = repairConversation(data, fallbackId).conv;
  if (!conv) return undefined;
  // A reply that was streaming when the window closed is kept as stopped.
  for (const m of [...conv.messages, ...(conv.variants ?? [])]) if (m.status === 'streaming') m.status = 'stopped';
  return conv;
}

export interface RepairResult {
  /** The conversation, repaired; undefined when nothing can be read. */
  conv: Conversation | undefined;
  /** What was wrong and what was done about it (empty for a valid conversation). */
  problems: string[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isDate = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length < 100;

/**
 * A stored conversation as far as it can be read (pure): fields that fail the schema are replaced
 * by sensible values, messages that cannot be read are dropped, ids are made valid and distinct,
 * out-of-range reply meta is dropped field by field. Each repair is named in `problems`.
 * `fallbackId` (e.g. from the file name) is used when the id itself is unusable.
 */
export function repairConversation(raw: unknown, fallbackId?: string): RepairResult {
  const ok = ConversationSchema.safeParse(raw);
  if (ok.success) return { conv: ok.data, problems: [] };
  const problems: string[] = [];
  if (!isRecord(raw)) return { conv: undefined, problems: ['not a JSON object'] }; // l10n-ignore: repair notes for the log
  let id = typeof raw.id === 'string' && raw.id.length > 0 && raw.id.length <= 200 ? raw.id : undefined;
  if (id === undefined && fallbackId) {
    id = fallbackId;
    problems.push('id replaced by the file name'); // l10n-ignore: repair notes for the log
  }
  if (id === undefined) return { conv: undefined, problems: ['no usable id'] }; // l10n-ignore: repair notes for the log
  const createdAt = isDate(raw.createdAt) ? raw.createdAt : isDate(raw.updatedAt) ? raw.updatedAt : new Date(0).toISOString();
  if (!isDate(raw.createdAt)) problems.push('createdAt missing'); // l10n-ignore: repair notes for the log
  const updatedAt = isDate(raw.updatedAt) ? raw.updatedAt : createdAt;
  if (!isDate(raw.updatedAt)) problems.push('updatedAt missing'); // l10n-ignore: repair notes for the log
  const conv: Conversation = { version: 1, id, title: DEFAULT_TITLE, createdAt, updatedAt, nextSeq: 0, messages: [] };
  if (raw.version !== 1) problems.push(`version ${JSON.stringify(raw.version)} read as 1`); // l10n-ignore: repair notes for the log
  const rawMessages = Array.isArray(raw.messages) ? raw.messages : [];
  if (!Array.isArray(raw.messages)) problems.push('messages missing'); // l10n-ignore: repair notes for the log
  const needsId: StoredMessage[] = [];
  const seen = new Set<string>();
  rawMessages.forEach((m, i) => {
    const msg = repairMessage(m, createdAt, `messages[${i}]`, problems);
    if (!msg) return;
    if (seen.has(msg.id) || !MESSAGE_ID_PATTERN.test(msg.id)) needsId.push(msg);
    else seen.add(msg.id);
    conv.messages.push(msg);
  });
  const maxSeq = Math.max(-1, ...[...seen].map((x) => parseInt(x.slice(4), 16)));
  conv.nextSeq =
    typeof raw.nextSeq === 'number' && Number.isInteger(raw.nextSeq) && raw.nextSeq >= 0 && raw.nextSeq < MESSAGE_ID_SPACE
      ? raw.nextSeq
      : (maxSeq + 1) % MESSAGE_ID_SPACE;
  // The variants of replies not shown, read as the messages are (ids made distinct from theirs).
  if (Array.isArray(raw.variants)) {
    const variants = raw.variants.map((m, i) => repairMessage(m, createdAt, `variants[${i}]`, problems)).filter((m): m is StoredMessage => !!m);
    for (const v of variants) if (seen.has(v.id) || !MESSAGE_ID_PATTERN.test(v.id)) needsId.push(v); else seen.add(v.id);
    if (variants.length) conv.variants = variants;
  }
  for (const msg of needsId) {
    problems.push(`message id ${JSON.stringify(msg.id).slice(0, 30)} replaced`); // l10n-ignore: repair notes for the log
    msg.id = nextMessageId(conv);
  }
  const summary = TurnSummarySchema.safeParse(raw.summary);
  if (summary.success) conv.summary = summary.data;
  else if (raw.summary !== undefined) problems.push('summary dropped'); // l10n-ignore: repair notes for the log
  const pins = PinsSchema.safeParse(raw.pins);
  if (pins.success && pins.data.length) conv.pins = pins.data;
  else if (raw.pins !== undefined) problems.push('pins dropped'); // l10n-ignore: repair notes for the log
  // An import's origin stays: a second import of its file finds this conversation by it.
  const importedFrom = ImportOriginSchema.safeParse(raw.importedFrom);
  if (importedFrom.success) conv.importedFrom = importedFrom.data;
  if (typeof raw.title === 'string') conv.title = raw.title;
  else {
    problems.push('title missing'); // l10n-ignore: repair notes for the log
    refreshTitle(conv);
  }
  return { conv, problems };
}

/**
 * A stored message that fails its schema, repaired field by field (a value out of range is left
 * out, never the message); undefined when it has no role or no text.
 */
export function repairStoredMessage(raw: unknown, fallbackDate: string): StoredMessage | undefined {
  return repairMessage(raw, fallbackDate, 'message', []);
}

function repairMessage(raw: unknown, fallbackDate: string, where: string, problems: string[]): StoredMessage | undefined {
  const ok = StoredMessageSchema.safeParse(raw);
  if (ok.success) return ok.data;
  if (!isRecord(raw) || (raw.role !== 'user' && raw.role !== 'assistant')) {
    problems.push(`${where} dropped (no role)`); // l10n-ignore: repair notes for the log
    return undefined;
  }
  const content = typeof raw.content === 'string' ? raw.content : typeof raw.content === 'number' ? String(raw.content) : undefined;
  if (content === undefined) {
    problems.push(`${where} dropped (no text)`); // l10n-ignore: repair notes for the log
    return undefined;
  }
  const statuses = ['complete', 'streaming', 'stopped', 'error'] as const;
  const status = statuses.find((x) => x === raw.status) ?? (raw.role === 'user' ? 'complete' : 'stopped');
  const msg: StoredMessage = {
    id: typeof raw.id === 'string' ? raw.id : '',
    role: raw.role,
    content,
    createdAt: isDate(raw.createdAt) ? raw.createdAt : fallbackDate,
    status,
  };
  if (raw.meta !== undefined) {
    const meta = repairMeta(raw.meta);
    if (meta) msg.meta = meta;
  }
  for (const k of ['variantOf', 'branchOf', 'branch'] as const) if (typeof raw[k] === 'string' && MESSAGE_ID_PATTERN.test(raw[k])) msg[k] = raw[k];
  const files = StoredMessageSchema.shape.files.safeParse(raw.files);
  if (files.success && files.data?.length) msg.files = files.data;
  const sent = StoredMessageSchema.shape.sent.safeParse(raw.sent);
  if (sent.success && sent.data) msg.sent = sent.data;
  const error = ChatErrorSchema.safeParse(raw.error);
  if (error.success) msg.error = error.data;
  else if (status === 'error') msg.error = { kind: 'unknown', message: l10n.t('The reply failed.'), actions: ['retry'] };
  problems.push(`${where} repaired`);
  return msg;
}

/** Reply meta field by field: what fails its rule (e.g. negative credits) is left out. */
function repairMeta(raw: unknown): ReplyFacts | undefined {
  const ok = ReplyFactsSchema.safeParse(raw);
  if (ok.success) return ok.data;
  if (!isRecord(raw) || typeof raw.model !== 'string') return undefined;
  const meta: Record<string, unknown> = { model: raw.model };
  for (const [key, schema] of Object.entries(ReplyFactsSchema.shape)) {
    if (key === 'model' || raw[key] === undefined) continue;
    const r = schema.safeParse(raw[key]);
    if (r.success) meta[key] = r.data;
  }
  return meta as ReplyFacts;
}
