// One chat: sending a turn, streaming the reply, Stop, Retry and Edit.
// VS Code-free and free of the webview protocol: the service client, the store and the clock are
// injected, and what happens is told as domain events (SessionEvent) to whoever listens.
import * as l10n from '@vscode/l10n';
import type { ErrorView, ReplyMeta } from '../../protocol';
import { appendMessage, createConversation, lastUserMessageIndex, refreshTitle, summaryEnd, MAX_SUMMARY_TEXT, type Conversation, type HistoryMessage, type StoredMessage } from './conversation';
import { afterSummary, newSummary, planStillFits, planSummary, type SummaryPlan } from './summary';
import { halveTurns, isInputTooLong, messageTooLongError, selectContext, type ContextSelection } from '../context/contextBudget';
import type { ConversationStore } from '../storage/store';
import type { TurnCharge } from '../account/charge';
import { warnOncePerField, type RangeWarning } from '../../client/sanitize';
import { runTurn, type ChatBackend, type SessionChatRequest, type TurnResult } from './turn';
import { replyRecord } from './turnRecord';

export { retryCostsAgain } from './turnRecord';

/** The follow-up Continue sends after a reply cut at the model's length limit. */
export const CONTINUE_PROMPT = 'Please continue your previous reply exactly where it stopped.'; // l10n-ignore: sent to the model as the user message

/** One turn of the session as the extension runs it: the backend it answers through, and its settlement. */
export interface SessionTurn {
  backend: ChatBackend;
  /** The turn ended: its charge is settled (and recorded) from the result. Never rejects. */
  settle(result: TurnResult): Promise<TurnCharge>;
}

/**
 * The session's port to the extension's one turn pipeline: a turn starts (before its request is
 * built), with the reply's ids, the model and its price.
 */
export interface TurnPort {
  start(turn: { conversationId: string; messageId: string; model: string; expected: number | null }): SessionTurn;
}

/** A port that answers through `backend` and settles nothing (benchmarks, tests, tools). */
export function directTurns(backend: () => ChatBackend): TurnPort {
  return { start: () => ({ backend: backend(), settle: async () => ({ pending: false }) }) };
}

export interface SessionSettings {
  model: string;
  stream: boolean;
  search: boolean;
  temperature: number;
  systemPrompt: string;
  baseUrl: string;
}

export interface SessionLogger {
  debug(msg: string, data?: Record<string, unknown>): void;
  warn(msg: string, data?: Record<string, unknown>): void;
}

/** What happened in the session, in order. */
export type SessionEvent =
  /** A turn began: `user` is the message sent (or resent), `assistant` the empty reply that streams. */
  | { type: 'turnStarted'; user: StoredMessage; assistant: StoredMessage; model: string }
  /** Text of the running reply; `offset` is the length of the reply before it. */
  | { type: 'textAppended'; messageId: string; offset: number; text: string }
  /** Progress of a reply that has not started yet (e.g. waiting to try again after a 429). */
  | { type: 'turnStatus'; messageId: string; text: string }
  /** The reply reached its final state (complete, stopped or error). */
  | { type: 'turnEnded'; message: StoredMessage }
  /** A finished message changed (e.g. its charge became known). */
  | { type: 'messageChanged'; message: StoredMessage }
  /**
   * The conversation was replaced or changed other than by a turn (open, new, edit, a turn taken
   * back). `restored`: the conversation of the last window was reopened (after a reload or restart).
   */
  | { type: 'conversationChanged'; restored?: boolean; notice?: string }
  /** A summary of earlier turns, a turn of the session, ended (kept or not): what waited for it goes on. */
  | { type: 'summaryEnded' }
  /** A saved conversation was deleted (the current one or another): what was kept for it goes too. */
  | { type: 'conversationRemoved'; id: string }
  /** The error of the last send appeared or went away. */
  | { type: 'sendErrorChanged' }
  /** Text goes back into the message box (a refused or failed send, Edit). */
  | { type: 'inputReturned'; text: string }
  /**
   * A turn's accounting is settled (after its end): `charged` is what it cost when known,
   * `errorKind` why it failed (e.g. 'credits'). Changes nothing the chat shows by itself.
   */
  | { type: 'turnSettled'; conversationId: string; messageId: string; charged: number | undefined; errorKind: string | undefined };

export interface ChatSessionDeps {
  store: ConversationStore;
  /** The extension's turn pipeline: every turn answers through it and is settled by it. */
  turns: TurnPort;
  settings: () => SessionSettings;
  modelCost: (valueId: string) => number | null;
  /** Told of every domain event. */
  onEvent: (event: SessionEvent) => void;
  logger?: SessionLogger;
  now?: () => Date;
  /** Ids of conversations the session makes itself (keepTurn); default random UUIDs. */
  newId?: () => string;
  /** Streamed text is posted at most once per this many ms (0: every chunk). */
  flushIntervalMs?: number;
  /** After this long without any part of a streaming reply, the reply says it waits for the service (default 10 s). */
  silenceNoticeMs?: number;
  /** Input budget of a request to this model, in estimated tokens (contextBudget.ts); none: no limit. */
  contextBudget?: (model: string) => number;
  /** A streaming reply is saved at most this often (0: only when it ends). */
  partialSaveIntervalMs?: number;
}

interface Running {
  conv: Conversation;
  assistant: StoredMessage;
  controller: AbortController;
}

/** How reopening the conversation of the last window went. */
export type RestoreResult = 'restored' | 'kept' | 'failed';

export class ChatSession {
  /** The conversation the chat shows and works on: the session alone replaces it, and says so. */
  private conv: Conversation;
  private running: Running | undefined;
  /** A summary of earlier turns being written: a turn of the session too (a send meanwhile is queued). */
  private summarizing = false;
  /** Counts every change of what the chat shows (every event but `inputReturned`). */
  private stateVersion = 0;
  private restoring: Promise<RestoreResult> | undefined;
  private sendErrorView: ErrorView | undefined;
  /** Text of a send that failed before any reply, for Retry when the box was emptied. */
  private failedText: string | undefined;
  private readonly now: () => Date;
  /** Out-of-range values in replies are logged once per field. */
  private readonly rangeWarning: RangeWarning;
  /** Earlier turns sent with the last request (for "Send with fewer earlier messages"). */
  private lastSentTurns: { conversationId: string; turns: number } | undefined;
  /** At most this many earlier turns in this conversation with this model, after "Send with fewer earlier messages". */
  private turnCap: { conversationId: string; model: string; maxTurns: number } | undefined;

  constructor(private readonly deps: ChatSessionDeps) {
    this.now = deps.now ?? (() => new Date());
    this.rangeWarning = warnOncePerField({ warn: (msg, data) => deps.logger?.warn(msg, data) });
    this.conv = deps.store.create();
  }

  /** A reply is running, or a summary is being written. */
  get busy(): boolean {
    return this.running !== undefined || this.summarizing;
  }

  get sendError(): ErrorView | undefined {
    return this.sendErrorView;
  }

  /** The current conversation: only the session replaces it, and it says so (conversationChanged). */
  get conversation(): Conversation {
    return this.conv;
  }

  /** A new, empty conversation in place of the current one (the caller says so). */
  private startNew(): void {
    this.conv = this.deps.store.create();
  }

  /**
   * The version of what the chat shows: it grows with every change of the conversation or the
   * status, so a surface can tell an older state from the one the session holds.
   */
  get version(): number {
    return this.stateVersion;
  }

  private emit(event: SessionEvent): void {
    if (event.type !== 'inputReturned' && event.type !== 'turnSettled' && event.type !== 'summaryEnded') this.stateVersion++;
    // The pointer to the current conversation follows it, so a reload reopens this one.
    if (event.type === 'conversationChanged' || event.type === 'turnStarted') {
      this.deps.store.keepLastOpened(this.conv.id).catch((err: unknown) => this.deps.logger?.warn('Could not record the current conversation', { error: String(err) }));
    }
    this.deps.onEvent(event);
  }

  /**
   * What the next request would hold with `text` as the new message (`attachmentChars`: how much of
   * it is attachments): the estimate the context meter and the boundary line show.
   */
  previewContext(text: string, attachmentChars = 0): ContextSelection {
    const conv = this.conversation;
    const earlier = this.running ? conv.messages.filter((m) => m !== this.running?.assistant) : conv.messages;
    return this.selectFor(conv, earlier, text, attachmentChars);
  }

  /** The context of a request to `model` (default: the selected one): its budget and turn cap are that model's. */
  private selectFor(conv: Conversation, earlier: readonly StoredMessage[], text: string, attachmentChars: number, messageId?: string, model?: string): ContextSelection {
    const settings = this.deps.settings();
    const target = model || settings.model;
    const cap = this.turnCap?.conversationId === conv.id && this.turnCap.model === target ? this.turnCap.maxTurns : undefined;
    // The summary of earlier turns goes in place of the messages it replaces.
    const after = afterSummary(conv, earlier);
    return selectContext({
      systemPrompt: settings.systemPrompt,
      message: text,
      attachmentChars,
      earlier: after.earlier,
      ...(after.summary !== undefined ? { summary: after.summary, summarizedTurns: after.turns } : {}),
      budget: this.deps.contextBudget ? this.deps.contextBudget(target) : Number.POSITIVE_INFINITY,
      ...(cap !== undefined ? { maxTurns: cap } : {}),
      ...(messageId ? { messageId } : {}),
    });
  }

  /**
   * What Summarize would replace now with `text` in the box (the turns above the boundary line);
   * undefined when no turn is above it or a reply is running.
   */
  summaryPlan(text = '', attachmentChars = 0): SummaryPlan | undefined {
    if (this.running) return undefined;
    return planSummary(this.conversation, this.previewContext(text, attachmentChars));
  }

  /**
   * Keeps the summary a finished request wrote for `plan` (it replaces the conversation's summary,
   * if any): false when the conversation changed so that the plan no longer fits it.
   */
  applySummary(plan: SummaryPlan, text: string, facts: { model: string; cost: number | null; unread: number }): boolean {
    const conv = this.conversation;
    if (!text.trim() || !planStillFits(conv, plan)) return false;
    conv.summary = newSummary(plan, text, { ...facts, now: this.now() });
    this.summaryChanged(conv);
    return true;
  }

  /**
   * A summary of earlier turns, run as a turn of the session: it first takes in what other windows
   * wrote (as every change does), and while `write` runs the session is busy (a send is queued,
   * Retry and Edit wait). Undefined when a reply or another summary runs; summaryEnded is told at its end.
   */
  async summary<T>(write: () => Promise<T>): Promise<T | undefined> {
    if (this.busy) return undefined;
    this.summarizing = true;
    try {
      await this.catchUp();
      return await write();
    } finally {
      this.summarizing = false;
      this.emit({ type: 'summaryEnded' });
    }
  }

  /** The user's own text for the summary (an empty text changes nothing). */
  async editSummary(text: string): Promise<boolean> {
    const trimmed = text.trim();
    if (!trimmed) return false;
    // (While a turn runs, what other windows wrote is taken in when it is saved.)
    if (!this.busy) await this.catchUp();
    const conv = this.conversation;
    if (!conv.summary) return false;
    if (trimmed === conv.summary.text) return true;
    conv.summary = { ...conv.summary, text: trimmed.slice(0, MAX_SUMMARY_TEXT), edited: true };
    this.summaryChanged(conv);
    return true;
  }

  /** Every surface shows the conversation again as it is (an edit that was refused goes back). */
  showAgain(): void {
    this.emit({ type: 'conversationChanged' });
  }

  /** Removes the summary (the undo of Summarize): requests send the turns it replaced again. */
  async removeSummary(): Promise<boolean> {
    if (!this.busy) await this.catchUp();
    const conv = this.conversation;
    if (!conv.summary) return false;
    delete conv.summary;
    this.summaryChanged(conv);
    return true;
  }

  /** What the summary of `conversationId` cost, once the balance showed it. */
  setSummaryCredits(conversationId: string, createdAt: string, credits: number): void {
    const conv = this.conversation;
    if (conv.id !== conversationId || conv.summary?.createdAt !== createdAt || conv.summary.credits === credits) return;
    conv.summary = { ...conv.summary, credits };
    this.summaryChanged(conv);
  }

  private summaryChanged(conv: Conversation): void {
    conv.updatedAt = this.now().toISOString();
    this.emit({ type: 'conversationChanged' });
    void this.deps.store.save(conv).catch((err) => this.deps.logger?.warn('Could not save the conversation', { error: String(err) }));
  }

  /** A summary whose messages were taken out (Edit of a turn it replaced) goes with them. */
  private dropStaleSummary(conv: Conversation): void {
    if (conv.summary && summaryEnd(conv) === undefined) delete conv.summary;
  }

  /**
   * After the service said the input is too long: the next requests of this conversation (with this
   * model) send at most half the earlier turns the last one sent.
   */
  fewerEarlierTurns(): void {
    const conv = this.conversation;
    const last = this.lastSentTurns?.conversationId === conv.id ? this.lastSentTurns.turns : undefined;
    const preview = last === undefined ? this.previewContext(this.failedText ?? '') : undefined;
    const base = last ?? (preview?.ok ? preview.sentTurns : 0);
    this.turnCap = { conversationId: conv.id, model: this.deps.settings().model, maxTurns: halveTurns(base) };
  }

  /**
   * The first step of every change of the conversation (send, Edit, Retry, Continue, a summary,
   * Fork): takes in what other windows wrote to it since (their turns, shown at once), so that a
   * change never writes over them. `deleted`: another window deleted it; with `followDelete` the
   * chat then starts a new conversation (the deleted turns are neither shown nor sent again).
   * Nothing while a reply of this window runs (its save takes them in after it).
   */
  private async catchUp(opts: { followDelete?: boolean; moved?: { test: () => boolean; notice: string } } = {}): Promise<'same' | 'changed' | 'deleted' | 'moved'> {
    // A change asked for while the last conversation is being reopened acts on that one.
    if (this.restoring) await this.restoring;
    if (this.running) return 'same';
    const shown = this.conversation;
    const fromDisk = await this.deps.store.refresh(shown).catch((err: unknown) => {
      this.deps.logger?.warn('Could not read the conversation from disk', { error: String(err) });
      return 'same' as const;
    });
    if (shown !== this.conversation || this.running) return 'same';
    if (fromDisk === 'deleted') {
      if (opts.followDelete === false) return 'deleted';
      this.startNew();
      this.emit({ type: 'conversationChanged' });
      return 'deleted';
    }
    // What the user clicked is not where it was any more (another window's turn follows it): the
    // chat shows the conversation as it is and says so, and nothing is changed.
    if (opts.moved?.test()) {
      this.emit({ type: 'conversationChanged', notice: opts.moved.notice });
      return 'moved';
    }
    if (fromDisk === 'changed') this.emit({ type: 'conversationChanged' });
    return fromDisk;
  }

  /**
   * The window got the focus back, or its chat became visible: what other windows added to the
   * conversation is shown now, without a send. True when something was.
   */
  async showLatest(): Promise<boolean> {
    return (await this.catchUp({ followDelete: false })) === 'changed';
  }

  /**
   * Reopens the conversation of the last window (`id`, from the recorded pointer) when the
   * current one is still empty; every surface is told (conversationChanged, restored). `kept`:
   * nothing to reopen, or the user already started a conversation; `failed`: it could not be read.
   */
  async restore(id: string | undefined): Promise<RestoreResult> {
    if (!id || id === this.conversation.id || this.conversation.messages.length > 0 || this.running) return 'kept';
    if (this.restoring) return this.restoring;
    this.restoring = (async (): Promise<RestoreResult> => {
      const conv = await this.deps.store.open(id).catch((err) => {
        this.deps.logger?.warn('Could not reopen the last conversation', { error: String(err) });
        return undefined;
      });
      if (!conv) return 'failed';
      this.conv = conv;
      this.clearSendError();
      this.emit({ type: 'conversationChanged', restored: true });
      return 'restored';
    })().finally(() => (this.restoring = undefined));
    return this.restoring;
  }

  /**
   * Sends a user message; resolves when the reply finished, failed or was stopped. `model`: the
   * model to send it with (a queued message goes with the model its card showed), else the
   * selected one.
   */
  async send(text: string, opts: { model?: string } = {}): Promise<void> {
    if (this.restoring) await this.restoring;
    if (this.busy) {
      this.emit({ type: 'inputReturned', text });
      return;
    }
    // The model selected when the message is sent, whatever is picked while the disk is read.
    const model = opts.model || this.deps.settings().model;
    // Another window may have added turns to this conversation, or deleted it: the request is
    // built from what is on disk, and the chat shows it.
    await this.catchUp();
    if (this.busy) {
      this.emit({ type: 'inputReturned', text });
      return;
    }
    const conv = this.conversation;
    // A message that alone exceeds the model's budget is refused before anything is sent.
    const fit = this.selectFor(conv, conv.messages, text, 0, undefined, opts.model);
    if (!fit.ok) {
      this.rejectSend(text, messageTooLongError(fit));
      return;
    }
    this.clearSendError();
    const user = appendMessage(conv, 'user', text, this.now());
    await this.run(conv, user, model);
  }

  /**
   * Resends the history of a failed or stopped reply (or a send that failed before any reply).
   * False when it was not resent: another window's turn now follows it (the chat shows that turn
   * and says so), or there is nothing to retry.
   */
  async retry(): Promise<boolean> {
    if (this.busy) return false;
    // The turn that failed last is the one to regenerate: a send that failed before any reply comes
    // first, never an older stopped reply above it.
    if (this.failedText !== undefined) {
      await this.send(this.failedText);
      return true;
    }
    const target = this.conversation.messages.at(-1);
    const caught = await this.catchUp({
      moved: { test: () => this.conversation.messages.at(-1) !== target, notice: l10n.t('Another window added a turn after this reply, shown above: nothing was sent again. Send a new message to go on from it.') },
    });
    if (this.running || caught === 'moved' || caught === 'deleted') return false;
    const conv = this.conversation;
    const last = conv.messages.at(-1);
    if (last && last.role === 'assistant' && (last.status === 'error' || last.status === 'stopped')) {
      const user = conv.messages.at(-2);
      if (user && user.role === 'user') {
        conv.messages.pop();
        this.clearSendError();
        await this.run(conv, user);
        return true;
      }
    }
    if (last && last.role === 'user') {
      // A turn whose reply is missing (e.g. the window closed before it started).
      this.clearSendError();
      await this.run(conv, last);
      return true;
    }
    return false;
  }

  /**
   * The charge of a reply became known after it finished (from the balance change): the reply's
   * footer shows it, the same figure the status bar's balance moved by.
   */
  setReplyCredits(conversationId: string, messageId: string, credits: number): void {
    const conv = this.conversation;
    if (conv.id !== conversationId) return;
    const m = conv.messages.find((x) => x.id === messageId && x.role === 'assistant');
    if (!m?.meta || m.meta.credits === credits) return;
    m.meta = { ...m.meta, credits };
    this.emit({ type: 'messageChanged', message: m });
    void this.deps.store.save(conv).catch((err) => this.deps.logger?.warn('Could not save the conversation', { error: String(err) }));
  }

  /** After a reply cut at the model's length limit: asks the model to go on (a new turn). */
  async continueReply(): Promise<void> {
    if (this.busy) return;
    const target = this.conversation.messages.at(-1);
    if (!target || target.role !== 'assistant' || target.meta?.ending !== 'length') return;
    const caught = await this.catchUp({
      moved: { test: () => this.conversation.messages.at(-1) !== target, notice: l10n.t('Another window added a turn after this reply, shown above: it was not continued. Send a new message to go on from it.') },
    });
    if (this.running || caught === 'moved' || caught === 'deleted') return;
    await this.send(CONTINUE_PROMPT);
  }

  /** Drops the error of the last send (e.g. its cause was fixed: a key was set). */
  dismissSendError(): void {
    if (!this.sendErrorView) return;
    this.clearSendError();
    this.emit({ type: 'sendErrorChanged' });
  }

  /** A Retry or Continue refused before any request (e.g. the instructions hold the key): the error is shown. */
  showSendError(error: ErrorView): void {
    this.sendErrorView = error;
    this.emit({ type: 'sendErrorChanged' });
  }

  /** A send refused before any request (e.g. no API key): the error is shown and the text goes back. */
  rejectSend(text: string, error: ErrorView, keepForRetry = true): void {
    this.sendErrorView = error;
    // A text that must not be sent as it is (it holds the API key) is not kept for Retry either.
    this.failedText = keepForRetry ? text : undefined;
    this.emit({ type: 'sendErrorChanged' });
    this.emit({ type: 'inputReturned', text });
  }

  /**
   * Keeps a question and its answer asked elsewhere (@aichat, edit in the editor) as a conversation
   * of its own, saved and listed in History; the current conversation is unchanged. Its id.
   */
  async keepTurn(question: string, answer: string, meta?: ReplyMeta): Promise<string> {
    const conv = createConversation(this.deps.newId?.() ?? globalThis.crypto.randomUUID(), this.now());
    appendMessage(conv, 'user', question, this.now());
    appendMessage(conv, 'assistant', answer, this.now(), meta ? { meta } : {});
    await this.deps.store.restore(conv);
    return conv.id;
  }

  /** Stops the reply being generated; the partial text is kept, marked stopped. */
  stop(): void {
    const r = this.running;
    if (!r) return;
    r.controller.abort();
  }

  /**
   * Takes the last user message (and the reply after it) out and puts its text back in the box.
   * `messageId`: the question the user clicked; when another window's turn now follows it, nothing
   * is taken out (the chat shows that turn and says so). False when nothing was taken out.
   */
  async editLast(messageId?: string): Promise<boolean> {
    if (this.running) {
      this.stop();
      await this.waitIdle();
    }
    const before = this.conversation;
    const clicked = messageId ?? before.messages[lastUserMessageIndex(before)]?.id;
    const caught = await this.catchUp({
      moved: {
        test: () => this.conversation.messages[lastUserMessageIndex(this.conversation)]?.id !== clicked,
        notice: l10n.t('Another window added a turn after this question, shown above: nothing was edited. Edit the last question to change it.'),
      },
    });
    const conv = this.conversation;
    const i = lastUserMessageIndex(conv);
    if (this.running || caught === 'moved' || conv !== before || i < 0) return false;
    const text = conv.messages[i].content;
    conv.messages.splice(i);
    this.dropStaleSummary(conv);
    refreshTitle(conv);
    conv.updatedAt = this.now().toISOString();
    this.clearSendError();
    this.emit({ type: 'conversationChanged' });
    this.emit({ type: 'inputReturned', text });
    await this.deps.store.save(conv).catch((err) => this.deps.logger?.warn('Could not save the conversation', { error: String(err) }));
    return true;
  }

  /**
   * Deletes a saved conversation (History > Delete), the current one or another: whatever was kept
   * for it goes too (conversationRemoved). The current one is replaced by one new conversation (one
   * conversationChanged). Rejects when it could not be deleted: then nothing was.
   */
  async remove(id: string): Promise<void> {
    const current = id === this.conversation.id;
    if (current) {
      if (this.restoring) await this.restoring;
      if (this.running) {
        this.stop();
        await this.waitIdle();
      }
    }
    const shown = this.conversation;
    await this.deps.store.remove(id);
    this.emit({ type: 'conversationRemoved', id });
    if (shown.id !== id) return;
    if (this.conversation === shown) this.startNew();
    this.clearSendError();
    this.emit({ type: 'conversationChanged' });
  }

  /** Gives a saved conversation (the current one or another) a new title; the chat shows it. */
  async rename(id: string, title: string): Promise<void> {
    const open = id === this.conv.id ? this.conv : undefined;
    await this.deps.store.rename(id, title, open);
    if (open) this.emit({ type: 'conversationChanged' });
  }

  /**
   * Saves the current conversation and every one whose turns could not be written yet (the Retry
   * of the "could not save" warning); rejects with the first failure.
   */
  saveAll(): Promise<void> {
    return this.deps.store.saveAll(this.conv);
  }

  async newChat(): Promise<void> {
    // The last window's conversation, being reopened, would otherwise replace the new one when it is read.
    if (this.restoring) await this.restoring;
    if (this.running) {
      this.stop();
      await this.waitIdle();
    }
    this.startNew();
    this.clearSendError();
    this.emit({ type: 'conversationChanged' });
  }

  /**
   * Starts a new conversation from the current one, with every message up to and including
   * `messageId`, and opens it (the original stays as it was). False when there is no such message.
   */
  async fork(messageId: string): Promise<boolean> {
    if (this.busy) return false;
    await this.catchUp();
    if (this.running) return false;
    const forked = await this.deps.store.fork(this.conv, messageId);
    return forked ? this.open(forked.id) : false;
  }

  async open(id: string): Promise<boolean> {
    // (As for New Chat: the conversation opened is the one that stays.)
    if (this.restoring) await this.restoring;
    if (this.running) {
      this.stop();
      await this.waitIdle();
    }
    if (id === this.conv.id) {
      // The conversation on screen, opened again: brought up to date with what other windows added.
      await this.deps.store.refresh(this.conv).catch((err: unknown) => this.deps.logger?.warn('Could not read the conversation from disk', { error: String(err) }));
    } else {
      const conv = await this.deps.store.open(id);
      if (!conv) return false;
      this.conv = conv;
    }
    this.clearSendError();
    this.emit({ type: 'conversationChanged' });
    return true;
  }

  private idleWaiters: Array<() => void> = [];
  /** Resolves when no reply is running. */
  waitIdle(): Promise<void> {
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private clearSendError(): void {
    this.sendErrorView = undefined;
    this.failedText = undefined;
  }

  private async run(conv: Conversation, user: StoredMessage, modelOverride?: string): Promise<void> {
    const settings = this.deps.settings();
    const model = modelOverride || settings.model;
    const cost = this.deps.modelCost(model);
    // The earlier turns that fit the model's budget, newest first, whole turns only.
    const at = conv.messages.indexOf(user);
    const selection = this.selectFor(conv, conv.messages.slice(0, at < 0 ? conv.messages.length : at), user.content, 0, user.id, model);
    // (A resent message that no longer fits, e.g. after a model change, goes alone: the service decides.)
    const system = settings.systemPrompt.trim();
    const history: HistoryMessage[] = selection.ok
      ? selection.messages
      : [...(system ? [{ role: 'system' as const, content: system }] : []), { id: user.id, role: 'user', content: user.content }];
    if (selection.ok) this.lastSentTurns = { conversationId: conv.id, turns: selection.sentTurns };
    const assistant = appendMessage(conv, 'assistant', '', this.now(), { status: 'streaming' });
    const running: Running = { conv, assistant, controller: new AbortController() };
    this.running = running;
    this.emit({ type: 'turnStarted', user, assistant, model });
    // The turn starts in the pipeline before its request is built (its charge is measured from now).
    const turn = this.deps.turns.start({ conversationId: conv.id, messageId: assistant.id, model, expected: cost });
    // The turn is on disk from the start (a reply cut by a crash reopens as stopped, with Retry),
    // and the partial reply is written now and then while it streams.
    const saveQuietly = () =>
      this.deps.store.save(conv).catch((err) => this.deps.logger?.warn('Could not save the conversation', { error: String(err) }));
    void saveQuietly();
    const saveEveryMs = this.deps.partialSaveIntervalMs ?? 2000;
    let lastSave = Date.now();

    const req: SessionChatRequest = {
      messages: history,
      model,
      stream: settings.stream,
      temperature: settings.temperature,
      ...(settings.search ? { search: true } : {}),
    };
    let pending = '';
    let flushed = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flushMs = this.deps.flushIntervalMs ?? 24;
    const flush = () => {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      if (!pending) return;
      const text = pending;
      pending = '';
      this.emit({ type: 'textAppended', messageId: assistant.id, offset: flushed, text });
      flushed += text.length;
    };
    const result = await runTurn(
      turn.backend,
      req,
      {
        text: (chunk) => {
          assistant.content += chunk;
          pending += chunk;
          if (flushMs <= 0) flush();
          else if (timer === undefined) timer = setTimeout(flush, flushMs);
          if (saveEveryMs > 0 && Date.now() - lastSave >= saveEveryMs) {
            lastSave = Date.now();
            void saveQuietly();
          }
        },
        status: (text) => this.emit({ type: 'turnStatus', messageId: assistant.id, text }),
      },
      running.controller.signal,
      {
        baseUrl: settings.baseUrl,
        ...(this.deps.silenceNoticeMs !== undefined ? { silenceNoticeMs: this.deps.silenceNoticeMs } : {}),
        ...(this.deps.logger ? { logger: this.deps.logger } : {}),
        warn: this.rangeWarning,
      },
    );
    flush();
    if (timer !== undefined) clearTimeout(timer);
    const record = replyRecord(result, cost);
    if (record.takeBack) {
      const view = record.error;
      // The service says the input is too long: offer to send again with fewer earlier messages.
      if (isInputTooLong(result.cause) && selection.ok && selection.sentTurns > 0) view.actions = ['fewerMessages', ...view.actions];
      // Nothing of the reply arrived: take the turn back and return the text to the box.
      const i = conv.messages.indexOf(user);
      if (i >= 0) conv.messages.splice(i);
      this.dropStaleSummary(conv);
      refreshTitle(conv);
      this.sendErrorView = view;
      this.failedText = user.content;
      this.finish(running);
      this.emit({ type: 'conversationChanged' });
      this.emit({ type: 'inputReturned', text: user.content });
      void this.settle(turn.settle(result), conv.id, assistant.id, result.errorKind);
      await saveQuietly();
      return;
    }
    assistant.status = record.status;
    assistant.meta = record.meta;
    if (record.error) {
      if (isInputTooLong(result.cause) && selection.ok && selection.sentTurns > 0) record.error.actions = ['fewerMessages', ...record.error.actions];
      assistant.error = record.error;
    }
    conv.updatedAt = this.now().toISOString();
    this.finish(running);
    // Told after the turn stopped running: the reply is final and the session is idle.
    this.emit({ type: 'turnEnded', message: assistant });
    void this.settle(turn.settle(result), conv.id, assistant.id, result.errorKind);
    await this.deps.store.save(conv).catch((err) => this.deps.logger?.warn('Could not save the conversation', { error: String(err) }));
  }

  /** The charge of a turn became known: the reply shows it, and whoever listens is told. */
  private async settle(charge: Promise<TurnCharge>, conversationId: string, messageId: string, errorKind: string | undefined): Promise<void> {
    const settled: TurnCharge = await charge.catch(() => ({ pending: false }));
    if (settled.charged !== undefined) this.setReplyCredits(conversationId, messageId, settled.charged);
    this.emit({ type: 'turnSettled', conversationId, messageId, charged: settled.charged, errorKind });
  }

  private finish(running: Running): void {
    if (this.running === running) this.running = undefined;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }
}
