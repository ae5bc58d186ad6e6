// What a saved conversation may hold, checked whenever one is read (its log, an imported file, an
// older file): the schemas of a conversation and of each part kept with it (a message, its reply's
// facts and error, what was sent with a question, the pins, the summary, where it came from), and
// the reading of a damaged one field by field. The modules that own these shapes take their types
// from here; only code that reads or checks what was stored loads this module, and zod with it
// (activation does not). VS Code-free.
import * as z from 'zod/mini';
import * as l10n from '@vscode/l10n';
import { CHAT_ERROR_ACTIONS, CHAT_ERROR_KINDS } from './errors';
import { MAX_KEPT_EXTRAS, MAX_KEPT_REASONING, MAX_SENT_RULES } from './replyFacts';
import { MAX_SENT_ITEMS } from '../context/sentWith';
import { MAX_PINS } from '../context/pins';
import { DEFAULT_TITLE, MAX_MESSAGE_FILES, MAX_SUMMARY_TEXT, MESSAGE_ID_PATTERN, MESSAGE_ID_SPACE, nextMessageId, refreshTitle } from './conversation';

// The chat's errors (./errors).
export const ChatErrorActionSchema = z.enum(CHAT_ERROR_ACTIONS);
export const ChatErrorKindSchema = z.enum(CHAT_ERROR_KINDS);

export const ChatErrorSchema = z.object({
  kind: ChatErrorKindSchema,
  message: z.string(),
  actions: z.array(ChatErrorActionSchema),
  /** Rate limit: seconds to wait before Retry is offered. */
  retryAfterSeconds: z.optional(z.number().check(z.int(), z.gte(0))),
  /** Connection/timeout: the base URL that was tried. */
  baseUrl: z.optional(z.string()),
  traceId: z.optional(z.string()),
});
export type ChatError = z.infer<typeof ChatErrorSchema>;

// A reply's facts (./replyFacts).
/** How a complete reply ended when it is worth a note under it: cut at the model's limit, or filtered. */
export const ReplyEndSchema = z.enum(['length', 'content-filter']);

/** A rule that went with the request: its file, and why (as the rules list words it). */
export const SentRuleSchema = z.object({ path: z.string().check(z.maxLength(1000)), why: z.string().check(z.maxLength(500)) });
export type SentRule = z.infer<typeof SentRuleSchema>;

export const ReplyFactsSchema = z.object({
  model: z.string(),
  credits: z.optional(z.number().check(z.gte(0))),
  promptTokens: z.optional(z.number().check(z.int(), z.gte(0))),
  completionTokens: z.optional(z.number().check(z.int(), z.gte(0))),
  /** `length`: a note and a Continue button under the reply; `content-filter`: a note. */
  ending: z.optional(ReplyEndSchema),
  /** What the service got wrong in a reply that was kept (e.g. a missing field). */
  note: z.optional(z.string().check(z.maxLength(500))),
  /** What a reasoning model thought before it answered (shown collapsed above the reply, never in its text). */
  reasoning: z.optional(z.string().check(z.maxLength(MAX_KEPT_REASONING))),
  /** The stream's data and message annotations as JSON: kept with the reply, never shown. */
  extras: z.optional(z.string().check(z.maxLength(MAX_KEPT_EXTRAS))),
  /** The rules that went with the request (the project instructions among them), each with why. */
  rules: z.optional(z.array(SentRuleSchema).check(z.maxLength(MAX_SENT_RULES))),
});
export type ReplyFacts = z.infer<typeof ReplyFactsSchema>;

// What went with a question (../context/sentWith).
export const SentItemSchema = z.object({
  kind: z.enum(['file', 'range', 'problems', 'terminal', 'changes', 'instructions', 'rule']),
  /** As its chip named it: "utils.ts", "src/a.ts:12-40", "AGENTS.md". */
  name: z.string().check(z.maxLength(1100)),
  /** Workspace-relative path (a file, range, Problems, rule or the instructions file). */
  path: z.optional(z.string().check(z.maxLength(1000))),
  startLine: z.optional(z.number().check(z.int(), z.gt(0))),
  endLine: z.optional(z.number().check(z.int(), z.gt(0))),
  /** Bytes of what went: its block in the message, or its text in the system message. */
  bytes: z.number().check(z.int(), z.gte(0)),
  /** Pinned to the conversation: read again at this send. */
  pinned: z.optional(z.literal(true)),
});
export type SentItem = z.infer<typeof SentItemSchema>;
export const SentWithSchema = z.array(SentItemSchema).check(z.maxLength(MAX_SENT_ITEMS));

// Pins (../context/pins).
export const PinSchema = z.object({
  kind: z.enum(['file', 'range']),
  /** Workspace-relative, as its chip named it. */
  path: z.string().check(z.minLength(1), z.maxLength(1000)),
  /** A range's lines, 1-based and inclusive. */
  startLine: z.optional(z.number().check(z.int(), z.gt(0))),
  endLine: z.optional(z.number().check(z.int(), z.gt(0))),
  /** A range that is a symbol: its name. */
  symbol: z.optional(z.string().check(z.maxLength(300))),
});
export type Pin = z.infer<typeof PinSchema>;
export const PinsSchema = z.array(PinSchema).check(z.maxLength(MAX_PINS));

// The conversation and its messages (./conversation).
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
