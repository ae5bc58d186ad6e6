// Typed messages between the extension host and the chat webview.
//
// Both sides validate what they receive with these schemas (`parseHostMessage`,
// `parseWebviewMessage`) and drop anything that does not match. The API key never appears
// in any of these messages.
import * as z from 'zod/mini';
import { useZodEnglish } from '../wording/zodEnglish';
import { MAX_DROPPED_URIS, MAX_URI_LENGTH } from './drop';
import { HiddenMessageSchema, VariantPlaceSchema, VariantRequestSchemas, variantShownSchema } from './variants';
import { ContextChooseSchema, ContextOptionsSchema, ContextSearchSchema, OpenSentSchema, PinContextSchema, SentViewSchema } from './context';

useZodEnglish();

// ---------------------------------------------------------------------------------------------
// Limits (the host cuts what it sends to them at the source; the webview refuses more)

/** Longest text of a message, a queued message, a draft or a prompt, in characters. */
export const MAX_TEXT = 10_000_000;
/** Longest reasoning kept with a reply (a longer one is cut). */
export const MAX_REASONING = 200_000;
/** Longest JSON of the data and annotations kept with a reply. */
export const MAX_EXTRAS = 80_000;
/** Longest notice shown in the panel (the ignored service address, the instructions line). */
export const MAX_NOTICE = 1000;
/** Longest name of the instructions file shown. */
export const MAX_INSTRUCTIONS_NAME = 300;
/** Longest model id in a message. */
export const MAX_MODEL_ID = 200;
/** Most chips above the message box. */
export const MAX_CHIPS = 200;
/** Most messages queued behind a running reply. */
export const MAX_QUEUED = 1000;

/**
 * Version of the conversation's state in the host: every change of what the chat shows counts
 * one up. A webview never applies a state older than the one it shows, and asks for the whole
 * state (`resync`) when it finds one missing.
 */
const version = z.optional(z.number().check(z.int(), z.gte(0)));

// ---------------------------------------------------------------------------------------------
// Shared shapes

/** What fixes an error; the webview shows one button per action. */
export const ErrorActionSchema = z.enum([
  'setApiKey',
  'showSubscriptions',
  'retry',
  'openSettings',
  'fewerMessages',
  'selectModel',
  'openInstructions',
  'toggleInstructions',
  'openSystemPrompt',
  'showRules',
]);
export type ErrorAction = z.infer<typeof ErrorActionSchema>;

export const ErrorKindSchema = z.enum([
  'auth',
  'invalid',
  'credits',
  'rate-limit',
  'server',
  'connection',
  'timeout',
  'aborted',
  'protocol',
  'stream',
  'too-large',
  'validation',
  'unknown',
]);
export type ErrorKind = z.infer<typeof ErrorKindSchema>;

export const ErrorViewSchema = z.object({
  kind: ErrorKindSchema,
  message: z.string(),
  actions: z.array(ErrorActionSchema),
  /** Rate limit: seconds to wait before Retry is offered. */
  retryAfterSeconds: z.optional(z.number().check(z.int(), z.gte(0))),
  /** Connection/timeout: the base URL that was tried. */
  baseUrl: z.optional(z.string()),
  traceId: z.optional(z.string()),
});
export type ErrorView = z.infer<typeof ErrorViewSchema>;

/** How a complete reply ended when it is worth a note under it: cut at the model's limit, or filtered. */
export const ReplyEndingSchema = z.enum(['length', 'content-filter']);
export type ReplyEnding = z.infer<typeof ReplyEndingSchema>;

export const ReplyMetaSchema = z.object({
  model: z.string(),
  credits: z.optional(z.number().check(z.gte(0))),
  promptTokens: z.optional(z.number().check(z.int(), z.gte(0))),
  completionTokens: z.optional(z.number().check(z.int(), z.gte(0))),
  /** `length`: a note and a Continue button under the reply; `content-filter`: a note. */
  ending: z.optional(ReplyEndingSchema),
  /** What the service got wrong in a reply that was kept (e.g. a missing field). */
  note: z.optional(z.string().check(z.maxLength(500))),
  /** What a reasoning model thought before it answered (shown collapsed above the reply, never in its text). */
  reasoning: z.optional(z.string().check(z.maxLength(MAX_REASONING))),
  /** The stream's data and message annotations as JSON: kept with the reply, never shown (not sent to the panel). */
  extras: z.optional(z.string().check(z.maxLength(MAX_EXTRAS))),
  /** The rules that went with the request, each with its file and why ("Rules: N" under the reply). */
  rules: z.optional(z.array(z.object({ path: z.string().check(z.maxLength(1000)), why: z.string().check(z.maxLength(500)) })).check(z.maxLength(200))),
});
export type ReplyMeta = z.infer<typeof ReplyMetaSchema>;

export const MessageStatusSchema = z.enum(['complete', 'streaming', 'stopped', 'error']);
export type MessageStatus = z.infer<typeof MessageStatusSchema>;

export const MessageViewSchema = z.object({
  id: z.string(),
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  status: MessageStatusSchema,
  meta: z.optional(ReplyMetaSchema),
  error: z.optional(ErrorViewSchema),
  variant: z.optional(VariantPlaceSchema),
  /** A question with branches (Edit of an earlier question): where it stands among the questions of its place, "1 / 2". */
  branch: z.optional(VariantPlaceSchema),
  /** A question's "Sent with this message" (protocol/context.ts). */
  sent: z.optional(SentViewSchema),
});
export type MessageView = z.infer<typeof MessageViewSchema>;

/** Longest summary text shown (and edited) in the summary card. */
export const MAX_SUMMARY_VIEW = 100_000;

/** The summary of earlier turns as its card shows it: what it replaced, what it cost, its text. */
export const SummaryViewSchema = z.object({
  text: z.string().check(z.minLength(1), z.maxLength(MAX_SUMMARY_VIEW)),
  /** The last message it replaces: the card goes below it, above the turns still sent. */
  throughId: z.string().check(z.regex(/^msg_[0-9a-f]{3}$/)),
  turns: z.number().check(z.int(), z.gte(0)),
  /** The oldest of those turns its request could not hold. */
  unread: z.optional(z.number().check(z.int(), z.gte(0))),
  model: z.string().check(z.maxLength(200)),
  /** The price shown before it was asked for (null: unknown); `credits`: what it cost, once known. */
  cost: z.nullable(z.number().check(z.gte(0))),
  credits: z.optional(z.number().check(z.gte(0))),
  edited: z.optional(z.boolean()),
});
export type SummaryView = z.infer<typeof SummaryViewSchema>;

export const ConversationViewSchema = z.object({
  id: z.string(),
  title: z.string(),
  messages: z.array(MessageViewSchema),
  /** The summary requests send instead of the turns it replaced (those stay in the list). */
  summary: z.optional(SummaryViewSchema),
  /** The messages not shown (other variants, other branches): Find in chat finds text there too. */
  hidden: z.optional(z.array(HiddenMessageSchema)),
});
export type ConversationView = z.infer<typeof ConversationViewSchema>;

export const ModelSummarySchema = z.object({
  valueId: z.string(),
  name: z.string(),
  cost: z.number(),
  usable: z.boolean(),
  reason: z.optional(z.string()),
});
export type ModelSummary = z.infer<typeof ModelSummarySchema>;

/**
 * Everything the panel shows apart from the conversation. Sent whole when any of it changes:
 * its size does not depend on the conversation's.
 */
/** The project instructions file (AGENTS.md) as the panel shows it. */
export const InstructionsViewSchema = z.object({
  name: z.string().check(z.maxLength(MAX_INSTRUCTIONS_NAME)),
  /** Sent with every message now. */
  active: z.boolean(),
  /** Turned off by the user for this workspace (the panel offers to turn it on). */
  off: z.boolean(),
  /** What the panel says about it. */
  text: z.string().check(z.maxLength(MAX_NOTICE)),
});
export type InstructionsView = z.infer<typeof InstructionsViewSchema>;

export const ChatSettingsSchema = z.object({
  models: z.array(ModelSummarySchema),
  modelsLoading: z.boolean(),
  modelsError: z.optional(z.string()),
  selectedModel: z.string(),
  /** Cost per use of the selected model, null when unknown. */
  selectedModelCost: z.nullable(z.number()),
  search: z.boolean(),
  temperature: z.number().check(z.gte(0), z.lte(2)),
  /** Chat font size in px; 0 means the editor's default. */
  fontSize: z.number().check(z.gte(0), z.lte(100)),
  hasKey: z.boolean(),
  /** Why the workspace's service address is not used (the user has not allowed it). */
  addressNotice: z.optional(z.string().check(z.maxLength(MAX_NOTICE))),
  /** The workspace's settings name a model: in use (the user allowed it) or ignored. */
  modelNotice: z.optional(z.string().check(z.maxLength(MAX_NOTICE))),
  /** The project instructions file, when the workspace has one. */
  instructions: z.optional(InstructionsViewSchema),
  /** Shown after a message the balance could not pay, until it can (or the user dismisses it). */
  outOfCredits: z.optional(
    z.object({
      balance: z.number(),
      cost: z.number(),
      model: z.string().check(z.maxLength(MAX_MODEL_ID)),
      affordable: z.number().check(z.int(), z.gte(0)),
    }),
  ),
});
export type ChatSettings = z.infer<typeof ChatSettingsSchema>;

/** Whether a reply is running and the error of the last send (before any reply started). */
export const ChatStatusSchema = z.object({
  busy: z.boolean(),
  sendError: z.optional(ErrorViewSchema),
});
export type ChatStatus = z.infer<typeof ChatStatusSchema>;

export const CodeActionSchema = z.enum(['copy', 'insert', 'newEditor', 'apply']);
export type CodeActionKind = z.infer<typeof CodeActionSchema>;

/** A reply's changes across files: on disk (applied), taken back (undone), or their kept copies let go (gone). */
export const ReplyChangesStateSchema = z.enum(['applied', 'undone', 'gone']);
export type ReplyChangesState = z.infer<typeof ReplyChangesStateSchema>;

/** Commands the webview may ask the host to run; nothing else is accepted. */
export const AllowedCommandSchema = z.enum([
  'setApiKey',
  'showSubscriptions',
  'openSettings',
  'selectModel',
  'reviewServiceAddress',
  'openInstructions',
  'toggleInstructions',
  'openSystemPrompt',
  'refreshBalance',
  'pickCheaperModel',
  'showRules',
]);
export type AllowedCommand = z.infer<typeof AllowedCommandSchema>;

/** An attachment of the next message as its chip shows it. */
export const ContextChipSchema = z.object({
  id: z.string().check(z.regex(/^ctx_[0-9]+$/)),
  name: z.string().check(z.maxLength(300)),
  detail: z.string().check(z.maxLength(300)),
  icon: z.string().check(z.regex(/^[a-z0-9-]{1,40}$/)),
  /** Full path, for the tooltip. */
  path: z.string().check(z.maxLength(2000)),
  /** Pinned to the conversation (its × unpins it); `pinnable`: a file or range that can be. */
  pinned: z.optional(z.boolean()),
  pinnable: z.optional(z.boolean()),
});
export type ContextChip = z.infer<typeof ContextChipSchema>;

const tokens = z.number().check(z.int(), z.gte(0), z.lte(1_000_000_000));

/** The estimate of the next request against the model's budget, in estimated tokens. */
export const ContextMeterSchema = z.object({
  /** Input budget of the request. */
  budget: tokens,
  /** From the model's max_tokens, or the aiChat.context.maxTokens setting. */
  source: z.enum(['model', 'setting']),
  instructions: tokens,
  attachments: tokens,
  history: tokens,
  message: tokens,
  total: tokens,
  /** Earlier turns not sent (older than the boundary). */
  omittedTurns: z.number().check(z.int(), z.gte(0)),
  /** Earlier turns sent. */
  sentTurns: z.number().check(z.int(), z.gte(0)),
  /** The summary of earlier turns sent in their place (its estimated tokens), and the turns it replaces. */
  summary: z.optional(tokens),
  summarizedTurns: z.optional(z.number().check(z.int(), z.gte(0))),
  /** The first message still sent: the boundary line goes above it (below everything when absent). */
  boundaryId: z.optional(z.string().check(z.regex(/^msg_[0-9a-f]{3}$/))),
  /** The message alone exceeds the budget (it will be refused). */
  tooLong: z.boolean(),
});
export type ContextMeter = z.infer<typeof ContextMeterSchema>;

/** Most slash commands sent to the `/` menu. */
export const MAX_PROMPTS = 500;

/** A slash command as the `/` menu lists it (the host keeps its text; the webview asks it to expand one). */
export const PromptItemSchema = z.object({
  /** What follows `/`. */
  name: z.string().check(z.minLength(1), z.maxLength(200)),
  description: z.string().check(z.maxLength(1000)),
  /** Where it comes from: built-in, the user's own, or the file's path. */
  source: z.string().check(z.maxLength(600)),
  argumentHint: z.optional(z.string().check(z.maxLength(300))),
  /** What the user should know before choosing it (fields not supported, the model it names, a clash). */
  note: z.optional(z.string().check(z.maxLength(MAX_NOTICE))),
  /** Why it cannot be used (a malformed file): listed, not chosen. */
  error: z.optional(z.string().check(z.maxLength(MAX_NOTICE))),
});
export type PromptItem = z.infer<typeof PromptItemSchema>;

// ---------------------------------------------------------------------------------------------
// Host -> webview

const text = z.string().check(z.maxLength(MAX_TEXT));

export const HostMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('settings'), settings: ChatSettingsSchema }),
  z.object({ type: z.literal('status'), status: ChatStatusSchema, version }),
  /**
   * The whole conversation: when a surface starts, and when one is opened, switched to or
   * restored, or changed other than by a turn. `notice`: why it is not the conversation the
   * user had (e.g. the last one could not be reopened), shown in its place.
   */
  z.object({ type: z.literal('conversation'), conversation: ConversationViewSchema, status: ChatStatusSchema, version, notice: z.optional(z.string().check(z.maxLength(MAX_NOTICE))) }),
  /** A turn began: the user message (new, or already shown when resent) and the empty reply. */
  z.object({ type: z.literal('turnStarted'), user: MessageViewSchema, assistant: MessageViewSchema, status: ChatStatusSchema, version }),
  /** `offset`: length of the reply text before this chunk. */
  z.object({ type: z.literal('streamChunk'), messageId: z.string(), offset: z.number().check(z.int(), z.gte(0)), text, version }),
  /** The final state of the reply (complete, stopped or error). */
  z.object({ type: z.literal('turnEnded'), message: MessageViewSchema, status: ChatStatusSchema, version }),
  /** A finished message changed (e.g. its charge became known after the turn). */
  z.object({ type: z.literal('messageChanged'), message: MessageViewSchema, version }),
  /** Progress of a reply that has not started yet (e.g. waiting to try again after a 429). */
  z.object({ type: z.literal('streamStatus'), messageId: z.string(), text: z.string().check(z.maxLength(MAX_NOTICE)), version }),
  /** Put text (back) into the message box, e.g. after a failed send or for Edit (`editOf`: as the edit of that earlier question). */
  z.object({ type: z.literal('restoreInput'), text, editOf: z.optional(z.string().check(z.regex(/^msg_[0-9a-f]{3}$/))) }),
  z.object({ type: z.literal('focusInput') }),
  /** Whether the message box holds the user's API key (the draft is then neither kept nor sendable). */
  z.object({ type: z.literal('draftHoldsKey'), holds: z.boolean() }),
  /** The chips above the message box (all of them, after any change). */
  z.object({ type: z.literal('contextChips'), chips: z.array(ContextChipSchema).check(z.maxLength(MAX_CHIPS)) }),
  /** Messages typed while a reply streams, in the order they go; held (stopped) after a failure or Stop. */
  z.object({
    type: z.literal('queue'),
    items: z.array(z.object({ id: z.string().check(z.maxLength(200)), text, cost: z.optional(z.number()) })).check(z.maxLength(MAX_QUEUED)),
    state: z.enum(['idle', 'waiting', 'stopped']),
    reason: z.optional(z.string().check(z.maxLength(MAX_NOTICE))),
  }),
  // Adds a prompt to the message box (after a blank line when it holds text) and focuses it.
  // `model`: the prompt's own model (its id, and its name and price shown by the box): the next send uses it.
  z.object({ type: z.literal('insertPrompt'), text: text.check(z.minLength(1)), model: z.optional(z.object({ id: z.string().check(z.minLength(1), z.maxLength(200)), label: z.string().check(z.maxLength(300)) })) }),
  /** What the next request holds against the model's budget (the context meter and the boundary line). */
  z.object({ type: z.literal('contextMeter'), meter: ContextMeterSchema }),
  /** Open the find bar ("Find in Chat"), with a query to search for when given. */
  z.object({ type: z.literal('find'), query: z.optional(z.string().check(z.maxLength(1000))) }),
  /** Bring a message into view and give it the keyboard ("Go to Question"); rendered first if it is not. */
  z.object({ type: z.literal('revealMessage'), messageId: z.string().check(z.regex(/^msg_[0-9a-f]{3}$/)) }),
  /**
   * A summary of earlier turns being written (`running`: its turns, the message it goes below, the
   * text so far), or done (`running` false).
   */
  z.object({
    type: z.literal('summaryProgress'),
    running: z.boolean(),
    turns: z.optional(z.number().check(z.int(), z.gte(0))),
    throughId: z.optional(z.string().check(z.regex(/^msg_[0-9a-f]{3}$/))),
    text: z.optional(z.string().check(z.maxLength(MAX_SUMMARY_VIEW))),
  }),
  /** The slash commands of the `/` menu (all of them, after any change); `notice`: why some are missing. */
  /** What each reply's changes across files are now (Apply All, Undo, Redo), for the conversation shown. */
  z.object({
    type: z.literal('replyChanges'),
    conversationId: z.string().check(z.minLength(1), z.maxLength(200)),
    replies: z
      .array(z.object({ messageId: z.string().check(z.regex(/^msg_[0-9a-f]{3}$/)), state: ReplyChangesStateSchema, files: z.number().check(z.int(), z.gte(1), z.lte(1000)) }))
      .check(z.maxLength(10_000)),
  }),
  z.object({ type: z.literal('promptList'), prompts: z.array(PromptItemSchema).check(z.maxLength(MAX_PROMPTS)), notice: z.optional(z.string().check(z.maxLength(MAX_NOTICE))) }),
  variantShownSchema(MessageViewSchema),
  ContextOptionsSchema,
]);
export type HostMessage = z.infer<typeof HostMessageSchema>;

// ---------------------------------------------------------------------------------------------
// Webview -> host

export const WebviewMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  /** The webview found a change of the conversation missing: it asks for the whole state again. */
  z.object({ type: z.literal('resync') }),
  /** The chat got the focus (the user came back to it): what other windows added is shown. */
  z.object({ type: z.literal('chatFocused') }),
  /** `model`: a slash command's own model for this send (default: the selected one). */
  /** `editOf`: the earlier question this text edits (a branch starts there). */
  z.object({ type: z.literal('send'), text: text.check(z.minLength(1)), model: z.optional(z.string().check(z.minLength(1), z.maxLength(200))), editOf: z.optional(z.string().check(z.regex(/^msg_[0-9a-f]{3}$/))) }),
  z.object({ type: z.literal('stop') }),
  z.object({ type: z.literal('retry') }),
  /** Ask the model to go on with a reply cut at its length limit. */
  z.object({ type: z.literal('continue') }),
  /** `messageId`: the question whose Edit was clicked (nothing is edited when it is not the last one any more). */
  z.object({ type: z.literal('editLast'), messageId: z.optional(z.string().check(z.regex(/^msg_[0-9a-f]{3}$/))) }),
  /** A new conversation with every message up to and including this one. */
  z.object({ type: z.literal('fork'), messageId: z.string().check(z.regex(/^msg_[0-9a-f]{3}$/)) }),
  z.object({ type: z.literal('newChat') }),
  z.object({ type: z.literal('openHistory') }),
  z.object({ type: z.literal('loadConversation'), id: z.string().check(z.minLength(1), z.maxLength(200)) }),
  /** With a valueId: choose that model; without: open the model quick pick. */
  z.object({ type: z.literal('selectModel'), valueId: z.optional(z.string().check(z.maxLength(200))) }),
  z.object({ type: z.literal('setSearch'), value: z.boolean() }),
  z.object({ type: z.literal('setTemperature'), value: z.number().check(z.gte(0), z.lte(2)) }),
  z.object({
    type: z.literal('codeAction'),
    action: CodeActionSchema,
    code: text,
    language: z.string().check(z.maxLength(100)),
    /** The file the block names (Apply to File); checked again by the host. */
    path: z.optional(z.string().check(z.minLength(1), z.maxLength(300))),
  }),
  /** Apply All of a reply's code blocks that name files, or Undo or Redo of what it wrote. */
  z.object({ type: z.literal('replyChangesAction'), action: z.enum(['apply', 'undo', 'redo']), messageId: z.string().check(z.regex(/^msg_[0-9a-f]{3}$/)) }),
  z.object({ type: z.literal('openLink'), href: z.string().check(z.maxLength(8192)) }),
  z.object({ type: z.literal('runCommand'), command: AllowedCommandSchema }),
  /** The unsent text in the box (kept by the host too, so a reload never loses it). */
  z.object({ type: z.literal('draft'), text }),
  z.object({ type: z.literal('removeContext'), id: z.string().check(z.regex(/^ctx_[0-9]+$/)) }),
  OpenSentSchema,
  PinContextSchema,
  ContextSearchSchema,
  ContextChooseSchema,
  z.object({ type: z.literal('queueRemove'), id: z.string().check(z.maxLength(200)) }),
  z.object({ type: z.literal('queueEdit'), id: z.string().check(z.maxLength(200)), text }),
  z.object({ type: z.literal('queueResume') }),
  z.object({ type: z.literal('queueClear') }),
  /** Files dropped on the panel (URIs as the drop carried them; the host checks each). */
  z.object({
    type: z.literal('dropUris'),
    uris: z.array(z.string().check(z.minLength(1), z.maxLength(MAX_URI_LENGTH))).check(z.maxLength(MAX_DROPPED_URIS)),
    /** How many the drop carried (more than `uris` when cut to the limit). */
    total: z.number().check(z.int(), z.gte(0), z.lte(1_000_000)),
    /** Files from outside VS Code (no URI the extension can read). */
    outsideFiles: z.number().check(z.int(), z.gte(0), z.lte(1_000_000)),
  }),
  /** The out-of-credits card closed by the user. */
  z.object({ type: z.literal('dismissOutOfCredits') }),
  /** "Send with fewer earlier messages" after the service said the input is too long (the text of the box, when any). */
  z.object({ type: z.literal('sendFewer'), text: z.optional(text.check(z.minLength(1))) }),
  /** Summarize the turns above the boundary line (the meter's button: its price was on it). */
  z.object({ type: z.literal('summarize') }),
  /** Stop the summary being written. */
  z.object({ type: z.literal('summaryStop') }),
  /** The user's own text for the summary card. */
  z.object({ type: z.literal('summaryEdit'), text: z.string().check(z.minLength(1), z.maxLength(MAX_SUMMARY_VIEW)) }),
  /** Remove the summary: requests send the turns it replaced again. */
  z.object({ type: z.literal('summaryRemove') }),
  /** A slash command chosen in the `/` menu: the host asks for its inputs and puts its text in the box (`args`: what followed its name). */
  // The `/` list opened: the host reads the prompt files again (a change its watchers missed).
  z.object({ type: z.literal('promptsWanted') }),
  z.object({ type: z.literal('expandPrompt'), name: z.string().check(z.minLength(1), z.maxLength(200)), args: z.optional(z.string().check(z.maxLength(10_000))) }),
  ...VariantRequestSchemas,
]);
export type WebviewMessage = z.infer<typeof WebviewMessageSchema>;

export type ParseResult<T> = { ok: true; message: T } | { ok: false; error: string };

function parseWith<T>(schema: z.ZodMiniType<T>, data: unknown): ParseResult<T> {
  const result = schema.safeParse(data);
  if (result.success) return { ok: true, message: result.data };
  const first = result.error.issues[0];
  const where = first && first.path.length ? first.path.join('.') + ': ' : '';
  return { ok: false, error: where + (first?.message ?? 'invalid message') }; // l10n-ignore: validation detail for the log
}

/** Validates a message received by the webview from the host. */
export function parseHostMessage(data: unknown): ParseResult<HostMessage> {
  return parseWith(HostMessageSchema, data);
}

/** A string cut to `max` characters (with an ellipsis when cut), for text that has a limit on the wire. */
export function clip(value: string, max: number): string {
  return value.length <= max ? value : value.slice(0, Math.max(0, max - 1)) + '…';
}

/**
 * What the host posts, checked with the schema the webview parses it with. A message with strings
 * or lists over their maxima is cut to them (`cut` names where); anything else that would not
 * parse is refused with the reason, so that the host knows the webview would drop it.
 */
export function fitHostMessage(message: HostMessage): { ok: true; message: HostMessage; cut: string[] } | { ok: false; error: string } {
  let current: unknown = message;
  const cut: string[] = [];
  for (let round = 0; round < 20; round++) {
    const result = HostMessageSchema.safeParse(current);
    if (result.success) return { ok: true, message: result.data, cut };
    let fixed = false;
    for (const issue of result.error.issues) {
      const limit = issue.code === 'too_big' && (issue.origin === 'string' || issue.origin === 'array') ? Number(issue.maximum) : undefined;
      if (limit === undefined || !Number.isFinite(limit) || issue.path.length === 0) continue;
      if (!fixed) current = structuredClone(current);
      const parent = issue.path.slice(0, -1).reduce<unknown>((o, k) => (o as Record<PropertyKey, unknown>)?.[k], current) as Record<PropertyKey, unknown> | undefined;
      const key = issue.path[issue.path.length - 1];
      const value = parent?.[key];
      if (typeof value === 'string') parent![key] = clip(value, limit);
      else if (Array.isArray(value)) parent![key] = value.slice(0, limit);
      else continue;
      cut.push(issue.path.join('.'));
      fixed = true;
    }
    if (!fixed) return parseWith(HostMessageSchema, current) as { ok: false; error: string };
  }
  return { ok: false, error: 'message still over its limits after cutting' }; // l10n-ignore: validation detail for the log
}

/** Validates a message received by the host from the webview. */
export function parseWebviewMessage(data: unknown): ParseResult<WebviewMessage> {
  return parseWith(WebviewMessageSchema, data);
}
