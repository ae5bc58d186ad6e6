// The context budget: how much of a conversation is sent with the next request. Pure.
//
// The service charges per message, not per token, but each model has a limit ("max_tokens" in
// GET /ai-model): a request over it is refused or cut. So every request is assembled to fit an
// estimated budget, in this order of priority: the system prompt (with the project
// instructions), the attachments of the message, the new message, then earlier turns newest
// first, whole turns only (a question with its reply). Nothing is cut in the middle.
//
// Tokens are an ESTIMATE: the service publishes no tokenizer, so about four characters make a
// token (a common rule of thumb for English text and code).
import * as l10n from '@vscode/l10n';
import { MESSAGE_ID_SPACE, type HistoryMessage, type StoredMessage } from '../chat/conversation';
import type { ChatError } from '../chat/errors';
import type { ModelLike } from '../account/models';
import { splitSystemPrompt } from './instructions';

/** Characters per estimated token. */
export const CHARS_PER_TOKEN = 4;
/** What a message costs beyond its text (its id, role and JSON framing), in estimated tokens. */
export const MESSAGE_OVERHEAD_TOKENS = 12;
/** `aiChat.context.maxTokens` when not set: the context assumed for a model that states no `max_tokens`. */
export const DEFAULT_CONTEXT_TOKENS = 32_768;
/** The most tokens kept free for the reply. */
export const MAX_REPLY_TOKENS = 4_096;
/** The smallest context accepted from a model or the setting. */
export const MIN_CONTEXT_TOKENS = 256;

/** Estimated tokens of a text: about four characters a token, at least 1 for any text. */
export function estimateTokens(text: string): number {
  return text.length === 0 ? 0 : Math.max(1, Math.ceil(text.length / CHARS_PER_TOKEN));
}

/** Estimated tokens of one message of the request (its text and its framing). */
export function messageTokens(content: string): number {
  return estimateTokens(content) + MESSAGE_OVERHEAD_TOKENS;
}

export interface RequestBudget {
  /** The model's whole context, in tokens (its `max_tokens`, or the setting). */
  contextTokens: number;
  /** Kept free for the reply: a quarter of the context, at most 4,096. */
  replyTokens: number;
  /** What the request itself may hold (estimated tokens): context minus reply. */
  inputTokens: number;
  /** Where the context size came from. */
  source: 'model' | 'setting';
}

/**
 * The budget of one request: the model's `max_tokens` when it states one, else the setting
 * `aiChat.context.maxTokens`; minus room for the reply (a quarter, at most 4,096 tokens).
 */
export function requestBudget(modelMaxTokens: number | null | undefined, settingMaxTokens: number = DEFAULT_CONTEXT_TOKENS): RequestBudget {
  const fromModel = typeof modelMaxTokens === 'number' && Number.isFinite(modelMaxTokens) && modelMaxTokens > 0;
  const setting = Number.isFinite(settingMaxTokens) && settingMaxTokens > 0 ? settingMaxTokens : DEFAULT_CONTEXT_TOKENS;
  const contextTokens = Math.max(MIN_CONTEXT_TOKENS, Math.floor(fromModel ? modelMaxTokens : setting));
  const replyTokens = Math.min(MAX_REPLY_TOKENS, Math.floor(contextTokens / 4));
  return { contextTokens, replyTokens, inputTokens: contextTokens - replyTokens, source: fromModel ? 'model' : 'setting' };
}

/** The budget of a request to the model `valueId` of this list (the setting when it is not listed). */
export function budgetForModel(models: readonly ModelLike[] | undefined, valueId: string, settingMaxTokens: number = DEFAULT_CONTEXT_TOKENS): RequestBudget {
  return requestBudget(models?.find((m) => m.valueId === valueId)?.max_tokens, settingMaxTokens);
}

/** Estimated tokens of each part of a request. */
export interface ContextTokens {
  /** The system prompt with the project instructions. */
  instructions: number;
  /** The attachments of the new message (files, selections). */
  attachments: number;
  /** The earlier turns that are sent. */
  history: number;
  /** The summary of earlier turns sent in their place (0 without one). */
  summary?: number;
  /** The new message's own text. */
  message: number;
  total: number;
}

export interface ContextInput {
  /** The system prompt, project instructions included ('' for none). */
  systemPrompt: string;
  /** The new user message as it is sent (attachments included). */
  message: string;
  /** How many characters of `message` are its attachments (for the breakdown only). */
  attachmentChars?: number;
  /** The conversation's messages before the new one, oldest first. */
  earlier: readonly StoredMessage[];
  /** Input budget in estimated tokens (RequestBudget.inputTokens); Infinity for none. */
  budget: number;
  /** At most this many earlier turns (after "Send with fewer earlier messages"). */
  maxTurns?: number;
  /** Id of the new message when it is already in the conversation (it keeps its id in the request). */
  messageId?: string;
  /**
   * The summary of the turns before `earlier`, as the request carries it (a system message after
   * the system prompt): sent when it fits with the new message, before any earlier turn.
   */
  summary?: string;
  /** How many turns the summary replaces (for the meter). */
  summarizedTurns?: number;
}

interface SelectionBase {
  /** The system prompt as sent (instructions included); set on a refusal, whose advice names its parts. */
  systemPrompt?: string;
  budget: number;
  tokens: ContextTokens;
  /** Earlier turns in the conversation (a turn: a question with its reply). */
  totalTurns: number;
}

export type ContextSelection =
  | (SelectionBase & {
      ok: true;
      /** The request's messages: system prompt, the earlier turns kept, the new message. */
      messages: HistoryMessage[];
      /** Earlier turns sent. */
      sentTurns: number;
      /** Earlier turns left out (older than the boundary). */
      omittedTurns: number;
      /** The first message of the oldest turn sent; undefined when no earlier turn is sent. */
      boundaryId?: string;
      /** The summary of earlier turns went with it (it had one, and it fit). */
      summarySent?: boolean;
      /** Turns the summary replaces (when it is sent). */
      summarizedTurns?: number;
    })
  /**
   * message-too-long: the new message (with its attachments and the instructions) exceeds the
   * budget. instructions-too-long: the instructions alone leave no room for any message.
   */
  | (SelectionBase & { ok: false; reason: 'message-too-long' | 'instructions-too-long' });

export interface SendableTurn {
  messages: StoredMessage[];
  tokens: number;
  /** Starts with a user message (a turn the user would count). */
  asked: boolean;
}

/** The messages that can be sent, grouped in whole turns (a question with its reply), oldest first. */
export function sendableTurns(earlier: readonly StoredMessage[]): SendableTurn[] {
  const turns: SendableTurn[] = [];
  let current: SendableTurn | undefined;
  for (const m of earlier) {
    // As buildHistory: failed and unfinished replies and empty messages are never sent.
    if (m.status === 'error' || m.status === 'streaming' || m.content.length === 0) continue;
    if (m.role === 'user' || !current) {
      current = { messages: [], tokens: 0, asked: m.role === 'user' };
      turns.push(current);
    }
    current.messages.push(m);
    current.tokens += messageTokens(m.content);
  }
  return turns;
}

/**
 * What the next request holds within the budget. The system prompt, the attachments and the new
 * message always go (when they alone exceed the budget the message is refused: ok false); then
 * earlier turns, newest first, each whole or not at all, until the next one does not fit.
 */
export function selectContext(input: ContextInput): ContextSelection {
  const system = input.systemPrompt.trim();
  const attachmentChars = Math.max(0, Math.min(input.attachmentChars ?? 0, input.message.length));
  const instructions = system ? messageTokens(system) : 0;
  const messageAll = messageTokens(input.message);
  const attachments = attachmentChars > 0 ? Math.min(messageAll, estimateTokens(input.message.slice(input.message.length - attachmentChars))) : 0;
  const message = messageAll - attachments;
  const budget = input.budget;
  const turns = sendableTurns(input.earlier);
  const totalTurns = turns.filter((t) => t.asked).length;
  const fixed = instructions + messageAll;
  if (fixed > budget) {
    // Not even an empty message would fit: the instructions are what is too large.
    const reason = instructions + messageTokens(' ') > budget ? 'instructions-too-long' : 'message-too-long';
    return { ok: false, reason, budget, totalTurns, tokens: { instructions, attachments, message, history: 0, total: fixed }, systemPrompt: system };
  }
  // The summary of the turns before `earlier` goes first of the history, when it fits.
  const summaryText = input.summary?.trim() ?? '';
  const summaryCost = summaryText ? messageTokens(summaryText) : 0;
  const summarySent = summaryCost > 0 && fixed + summaryCost <= budget;
  const summary = summarySent ? summaryCost : 0;
  const maxTurns = input.maxTurns ?? Number.POSITIVE_INFINITY;
  // The newest 4096 messages at most (the id space): an older message reusing an id would clash.
  const seen = new Set<string>(input.messageId ? [input.messageId] : []);
  let history = summary;
  let sentTurns = 0;
  let first = turns.length;
  for (let i = turns.length - 1; i >= 0; i--) {
    const t = turns[i];
    if (t.asked && sentTurns >= maxTurns) break;
    if (fixed + history + t.tokens > budget) break;
    if (seen.size + t.messages.length > MESSAGE_ID_SPACE || t.messages.some((m) => seen.has(m.id))) break;
    for (const m of t.messages) seen.add(m.id);
    history += t.tokens;
    if (t.asked) sentTurns++;
    first = i;
  }
  // A reply whose question is not sent is not sent either (the history starts with the user).
  while (first < turns.length && !turns[first].asked) {
    history -= turns[first].tokens;
    first++;
  }
  const kept = turns.slice(first);
  const messages: HistoryMessage[] = [];
  if (system) messages.push({ role: 'system', content: system });
  if (summarySent) messages.push({ role: 'system', content: summaryText });
  for (const t of kept) for (const m of t.messages) messages.push({ id: m.id, role: m.role, content: m.content });
  messages.push({ ...(input.messageId ? { id: input.messageId } : {}), role: 'user', content: input.message });
  return {
    ok: true,
    messages,
    budget,
    totalTurns,
    sentTurns,
    omittedTurns: totalTurns - sentTurns,
    ...(kept.length ? { boundaryId: kept[0].messages[0].id } : {}),
    ...(summarySent ? { summarySent, summarizedTurns: input.summarizedTurns ?? 0 } : {}),
    tokens: { instructions, attachments, message, history: history - summary, ...(summarySent ? { summary } : {}), total: fixed + history },
  };
}

/** A part of the instructions that takes at least a quarter of them is named, with its buttons. */
function largeParts(systemPrompt: string, total: number): { project?: { name: string; tokens: number }; own?: number; rule?: { path: string; tokens: number } } {
  const { own, project, name, rules } = splitSystemPrompt(systemPrompt);
  const projectTokens = project ? messageTokens(project) : 0;
  const ownTokens = own ? messageTokens(own) : 0;
  const large = (n: number) => n > 0 && n * 4 >= total;
  // The largest of the repository's rules (a rule, not the project instructions file).
  const rule = rules.map((r) => ({ path: r.path, tokens: estimateTokens(r.text) })).reduce<{ path: string; tokens: number } | undefined>((a, b) => (!a || b.tokens > a.tokens ? b : a), undefined);
  return {
    ...(large(projectTokens) ? { project: { name: name ?? '', tokens: projectTokens } } : {}),
    ...(large(ownTokens) ? { own: ownTokens } : {}),
    ...(rule && large(rule.tokens) ? { rule } : {}),
  };
}

/** The buttons that act on the instructions named. */
function instructionActions(parts: ReturnType<typeof largeParts>): ChatError['actions'] {
  return [
    ...(parts.project ? (['openInstructions', 'toggleInstructions'] as const) : []),
    ...(parts.rule ? (['showRules'] as const) : []),
    ...(parts.own !== undefined ? (['openSystemPrompt'] as const) : []),
  ];
}

/** The sentence naming a large rule, when one is. */
function ruleAdvice(parts: ReturnType<typeof largeParts>): string {
  return parts.rule
    ? ' ' + l10n.t('The rule {0} alone takes about {1} tokens: turn it off for this workspace if this request does not need it.', parts.rule.path, parts.rule.tokens)
    : '';
}

/**
 * The refusal of a request that does not fit the budget: the instructions alone (the project
 * instructions file, the aiChat.systemPrompt setting) with the buttons that open them or turn
 * them off, or the message with its attachments and the instructions.
 */
export function messageTooLongError(selection: Extract<ContextSelection, { ok: false }>): ChatError {
  const t = selection.tokens;
  const parts = largeParts(selection.systemPrompt ?? '', t.instructions);
  if (selection.reason === 'instructions-too-long') {
    const { project, own } = parts;
    const advice =
      project && own !== undefined
        ? l10n.t(
            'The project instructions ({0}) take about {1} tokens and the system prompt (aiChat.systemPrompt) about {2}: shorten them or turn the project instructions off, or pick a model with a larger context.',
            project.name,
            project.tokens,
            own,
          )
        : project
          ? l10n.t('They are the project instructions ({0}): shorten them or turn them off for this workspace, or pick a model with a larger context.', project.name)
          : own !== undefined
            ? l10n.t('They are the system prompt (aiChat.systemPrompt): shorten it, or pick a model with a larger context.')
            : l10n.t('Shorten them, or pick a model with a larger context.');
    return {
      kind: 'validation',
      message: l10n.t(
        'The instructions are too large for the model: about {0} tokens (estimated), and at most {1} can be sent in all, the message included. Nothing was sent. {2}',
        t.instructions,
        selection.budget,
        advice,
      ) + ruleAdvice(parts),
      actions: instructionActions(parts),
    };
  }
  const what = t.attachments > 0
    ? l10n.t('Shorten it or remove an attachment, or pick a model with a larger context.')
    : l10n.t('Shorten it, or pick a model with a larger context.');
  // Instructions that take most of the budget are said too, with their buttons.
  const heavy = t.instructions * 2 > selection.budget;
  return {
    kind: 'validation',
    message: l10n.t(
      'This message is too long for the model: about {0} tokens with the instructions and attachments (estimated), and at most {1} can be sent. It was not sent. {2}',
      t.total,
      selection.budget,
      what,
    ) + (heavy ? ' ' + l10n.t('The instructions alone take about {0} of them.', t.instructions) + ruleAdvice(parts) : ''),
    actions: heavy ? instructionActions(parts) : [],
  };
}

interface ErrorLike {
  kind?: unknown;
  status?: unknown;
  code?: unknown;
  message?: unknown;
}

/** A refusal by the service that says the input is too long (400/413 INVALID_INPUT). */
export function isInputTooLong(err: unknown): boolean {
  const e = (err ?? {}) as ErrorLike;
  if (e.status !== 400 && e.status !== 413) return false;
  if (e.code !== undefined && e.code !== 'INVALID_INPUT') return false;
  // 413: the request body itself was too large.
  if (e.status === 413) return true;
  const text = typeof e.message === 'string' ? e.message : '';
  return /too (long|large|many tokens)|context (length|window)|maximum context|max(imum)?[ _]tokens|token limit|exceeds? the (model|limit)/i.test(text);
}

/** Half the earlier turns that were sent (0 when there was one or none). */
export function halveTurns(sentTurns: number): number {
  return Math.max(0, Math.floor(sentTurns / 2));
}
