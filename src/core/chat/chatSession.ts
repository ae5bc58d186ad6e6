// One chat: sending a turn, streaming the reply, Stop, Retry and Edit.
// VS Code-free and free of the webview protocol: the service client, the store and the clock are
// injected, and what happens is told as domain events (SessionEvent) to whoever listens.
import { MAX_EXTRAS, type ErrorView, type ReplyMeta } from '../../protocol';
import { appendMessage, lastUserMessageIndex, refreshTitle, type Conversation, type HistoryMessage, type StoredMessage } from './conversation';
import { halveTurns, isInputTooLong, messageTooLongError, selectContext, type ContextSelection } from '../context/contextBudget';
import { creditsCharged } from '../account/cost';
import { errorKind, errorToView, retryNoticeText } from './errors';
import type { ConversationStore } from '../storage/store';
import { ReplyAssembler, activityOf, type StreamActivity } from '../../client/reply';
import { filesMarkdown, sourcesMarkdown } from './sources';
import { creditAmount, warnOncePerField, type RangeWarning } from '../../client/sanitize';
import type { StreamEvent } from '../../client/schemas';
import * as l10n from '@vscode/l10n';

/** The follow-up Continue sends after a reply cut at the model's length limit. */
export const CONTINUE_PROMPT = 'Please continue your previous reply exactly where it stopped.'; // l10n-ignore: sent to the model as the user message

/** Added to the error of a reply that was paid for, before its Retry. */
export function retryCostsAgain(): string {
  return l10n.t('Retry sends the message again and costs credits again.');
}

/** The request this session sends (a subset of the client's ChatRequest). */
export interface SessionChatRequest {
  messages: HistoryMessage[];
  model: string;
  stream: boolean;
  temperature: number;
  search?: boolean;
}

/** Events of the stream, as the client decodes them (f, 0, e step finish, d, 3 error part). */
export type SessionStreamEvent = StreamEvent;

/** Told by the client before it tries a request again (ChatServiceClient's RetryNotice). */
export interface SessionRetryNotice {
  retry: number;
  maxRetries: number;
  delayMs: number;
  error: unknown;
}

export interface SessionCallOptions {
  signal: AbortSignal;
  onRetry?: (notice: SessionRetryNotice) => void;
}

/** What the session needs from the service client (ChatServiceClient satisfies it). */
export interface ChatBackend {
  chat(
    req: SessionChatRequest,
    opts: SessionCallOptions,
  ): Promise<{ content: string; creditsUsed?: number; creditsRemaining?: number; model?: string; problems?: string[] }>;
  chatStream(req: SessionChatRequest, opts: SessionCallOptions): Promise<AsyncIterable<SessionStreamEvent> & { abort(): void }>;
}

export interface SessionSettings {
  model: string;
  stream: boolean;
  search: boolean;
  temperature: number;
  systemPrompt: string;
  baseUrl: string;
}

export interface ReplyFinished {
  /** From a non-streaming reply. */
  creditsRemaining?: number;
  /** What the service said the reply cost (non-streaming). */
  creditsUsed?: number;
  /** What the reply was expected to cost (the model's price), when known. */
  expectedCost?: number;
  /** Id of the reply, so a charge found later can be shown under it. */
  messageId?: string;
  /** Conversation of the reply. */
  conversationId?: string;
  streamed: boolean;
  /** Kind of the error when the turn failed. */
  errorKind?: string;
  /** The service answered (200): the reply is charged. False for a send that failed before any reply. */
  answered?: boolean;
  /** The model that answered (the request's, or the one a non-streaming reply named). */
  model?: string;
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
  | { type: 'conversationChanged'; restored?: boolean }
  /** The error of the last send appeared or went away. */
  | { type: 'sendErrorChanged' }
  /** Text goes back into the message box (a refused or failed send, Edit). */
  | { type: 'inputReturned'; text: string };

export interface ChatSessionDeps {
  store: ConversationStore;
  backend: () => ChatBackend;
  settings: () => SessionSettings;
  modelCost: (valueId: string) => number | null;
  /** Told of every domain event. */
  onEvent: (event: SessionEvent) => void;
  replyFinished?: (info: ReplyFinished) => void;
  /** A reply starts (before its request is sent). */
  replyStarted?: (info: { conversationId: string; messageId: string }) => void;
  logger?: SessionLogger;
  now?: () => Date;
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
  stream?: { abort(): void };
}

/** How reopening the conversation of the last window went. */
export type RestoreResult = 'restored' | 'kept' | 'failed';

export class ChatSession {
  private running: Running | undefined;
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
  }

  get busy(): boolean {
    return this.running !== undefined;
  }

  get sendError(): ErrorView | undefined {
    return this.sendErrorView;
  }

  /** The current conversation: only the session replaces it, and it says so (conversationChanged). */
  get conversation(): Conversation {
    return this.deps.store.current;
  }

  /**
   * The version of what the chat shows: it grows with every change of the conversation or the
   * status, so a surface can tell an older state from the one the session holds.
   */
  get version(): number {
    return this.stateVersion;
  }

  private emit(event: SessionEvent): void {
    if (event.type !== 'inputReturned') this.stateVersion++;
    // The pointer to the current conversation follows it, so a reload reopens this one.
    if (event.type === 'conversationChanged' || event.type === 'turnStarted') {
      this.deps.store.rememberCurrent().catch((err) => this.deps.logger?.warn('Could not record the current conversation', { error: String(err) }));
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

  private selectFor(conv: Conversation, earlier: readonly StoredMessage[], text: string, attachmentChars: number, messageId?: string): ContextSelection {
    const settings = this.deps.settings();
    const cap = this.turnCap?.conversationId === conv.id && this.turnCap.model === settings.model ? this.turnCap.maxTurns : undefined;
    return selectContext({
      systemPrompt: settings.systemPrompt,
      message: text,
      attachmentChars,
      earlier,
      budget: this.deps.contextBudget ? this.deps.contextBudget(settings.model) : Number.POSITIVE_INFINITY,
      ...(cap !== undefined ? { maxTurns: cap } : {}),
      ...(messageId ? { messageId } : {}),
    });
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
    // A message typed while the last conversation is being reopened continues it.
    if (this.restoring) await this.restoring;
    if (this.running) {
      this.emit({ type: 'inputReturned', text });
      return;
    }
    const conv = this.conversation;
    // A message that alone exceeds the model's budget is refused before anything is sent.
    const fit = this.selectFor(conv, conv.messages, text, 0);
    if (!fit.ok) {
      this.rejectSend(text, messageTooLongError(fit));
      return;
    }
    this.clearSendError();
    const user = appendMessage(conv, 'user', text, this.now());
    await this.run(conv, user, opts.model);
  }

  /** Resends the history of a failed or stopped reply (or a send that failed before any reply). */
  async retry(): Promise<void> {
    if (this.running) return;
    // The turn that failed last is the one to regenerate: a send that failed before any reply comes
    // first, never an older stopped reply above it.
    if (this.failedText !== undefined) {
      await this.send(this.failedText);
      return;
    }
    const conv = this.conversation;
    const last = conv.messages[conv.messages.length - 1];
    if (last && last.role === 'assistant' && (last.status === 'error' || last.status === 'stopped')) {
      conv.messages.pop();
      const user = conv.messages[conv.messages.length - 1];
      if (user && user.role === 'user') {
        this.clearSendError();
        await this.run(conv, user);
        return;
      }
    }
    if (last && last.role === 'user') {
      // A turn whose reply is missing (e.g. the window closed before it started).
      this.clearSendError();
      await this.run(conv, last);
      return;
    }
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
    if (this.running) return;
    const last = this.conversation.messages[this.conversation.messages.length - 1];
    if (!last || last.role !== 'assistant' || last.meta?.ending !== 'length') return;
    await this.send(CONTINUE_PROMPT);
  }

  /** Drops the error of the last send (e.g. its cause was fixed: a key was set). */
  dismissSendError(): void {
    if (!this.sendErrorView) return;
    this.clearSendError();
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

  /** Stops the reply being generated; the partial text is kept, marked stopped. */
  stop(): void {
    const r = this.running;
    if (!r) return;
    r.controller.abort();
    r.stream?.abort();
  }

  /** Takes the last user message (and the reply after it) out and puts its text back in the box. */
  async editLast(): Promise<void> {
    if (this.running) {
      this.stop();
      await this.waitIdle();
    }
    const conv = this.conversation;
    const i = lastUserMessageIndex(conv);
    if (i < 0) return;
    const text = conv.messages[i].content;
    conv.messages.splice(i);
    refreshTitle(conv);
    conv.updatedAt = this.now().toISOString();
    this.clearSendError();
    this.emit({ type: 'conversationChanged' });
    this.emit({ type: 'inputReturned', text });
    await this.deps.store.save(conv).catch((err) => this.deps.logger?.warn('Could not save the conversation', { error: String(err) }));
  }

  async newChat(): Promise<void> {
    if (this.running) {
      this.stop();
      await this.waitIdle();
    }
    this.deps.store.newConversation();
    this.clearSendError();
    this.emit({ type: 'conversationChanged' });
  }

  /**
   * Starts a new conversation from the current one, with every message up to and including
   * `messageId`, and opens it (the original stays as it was). False when there is no such message.
   */
  async fork(messageId: string): Promise<boolean> {
    if (this.running) return false;
    const forked = await this.deps.store.fork(messageId);
    return forked ? this.open(forked.id) : false;
  }

  async open(id: string): Promise<boolean> {
    if (this.running) {
      this.stop();
      await this.waitIdle();
    }
    const conv = await this.deps.store.open(id);
    if (!conv) return false;
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
    const selection = this.selectFor(conv, conv.messages.slice(0, at < 0 ? conv.messages.length : at), user.content, 0, user.id);
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
    this.deps.replyStarted?.({ conversationId: conv.id, messageId: assistant.id });
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
    const signal = running.controller.signal;
    // Before the reply starts, the client may wait and try again (429, 503, refused connection):
    // the panel says why and for how long instead of a silent wait.
    const onRetry = (notice: SessionRetryNotice) =>
      this.emit({ type: 'turnStatus', messageId: assistant.id, text: retryNoticeText(notice, settings.baseUrl) });
    let started = false;
    let paid = false;
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
    const meta: ReplyMeta = { model };
    const finished: ReplyFinished = {
      streamed: settings.stream,
      answered: false,
      model,
      messageId: assistant.id,
      conversationId: conv.id,
      ...(cost !== null ? { expectedCost: cost } : {}),
    };
    const warn = this.rangeWarning;
    const reply = new ReplyAssembler(warn);

    try {
      if (settings.stream) {
        const stream = await this.deps.backend().chatStream(req, { signal, onRetry });
        // The service answered 200: the reply is paid for from here on, and is never thrown away.
        paid = true;
        finished.answered = true;
        running.stream = stream;
        if (signal.aborted) stream.abort();
        let shownActivity: StreamActivity | undefined;
        // Silence is shown too: no part for a while, and the reply says it waits (seconds
        // counting); the next part clears it. The between-parts timeout still ends the reply.
        const silenceMs = this.deps.silenceNoticeMs ?? 10_000;
        let lastPart = Date.now();
        let silent = false;
        const silence = setInterval(() => {
          const quiet = Date.now() - lastPart;
          if (quiet < silenceMs || signal.aborted) return;
          silent = true;
          this.emit({ type: 'turnStatus', messageId: assistant.id, text: l10n.t('Waiting for the service… {0} s', Math.floor(quiet / 1000)) });
        }, Math.min(1000, silenceMs));
        try {
          for await (const ev of stream) {
            lastPart = Date.now();
            if (silent) {
              silent = false;
              // A part came: the waiting is over (text clears it by itself).
              if (ev.event !== '0') this.emit({ type: 'turnStatus', messageId: assistant.id, text: '' });
            }
            if (ev.event === 'f' || ev.event === '0') started = true;
            // Before the text: the reply says that the model thinks, or that a search runs.
            const activity = activityOf(ev);
            if (activity && activity !== shownActivity && assistant.content === '') {
              shownActivity = activity;
              this.emit({ type: 'turnStatus', messageId: assistant.id, text: activity === 'thinking' ? l10n.t('Thinking…') : l10n.t('Searching…') });
            }
            let text = reply.push(ev);
            // The sources a search found end the reply, as a numbered list of links; then the files the model produced.
            if (ev.event === 'd' && reply.outcome.ending !== 'error') text += sourcesMarkdown(reply.sources) + filesMarkdown(reply.files);
            if (text) {
              assistant.content += text;
              pending += text;
              if (flushMs <= 0) flush();
              else if (timer === undefined) timer = setTimeout(flush, flushMs);
              if (saveEveryMs > 0 && Date.now() - lastSave >= saveEveryMs) {
                lastSave = Date.now();
                void saveQuietly();
              }
            } else if (ev.event === 'e' || ev.event === 'd' || ev.event === '3') {
              this.deps.logger?.debug('Stream event', { event: ev.event, finishReason: ev.event === '3' ? undefined : ev.finishReason });
            }
            if (signal.aborted) break;
          }
        } finally {
          clearInterval(silence);
        }
        if (signal.aborted) throw Object.assign(new Error('The request was aborted'), { kind: 'aborted' }); // l10n-ignore: an aborted request shows as Stopped
        const outcome = reply.outcome;
        if (outcome.usage?.promptTokens !== undefined) meta.promptTokens = outcome.usage.promptTokens;
        if (outcome.usage?.completionTokens !== undefined) meta.completionTokens = outcome.usage.completionTokens;
        if (outcome.steps > 1) this.deps.logger?.debug('Multi-step reply', { steps: outcome.steps });
        if (outcome.ending === 'error') {
          throw Object.assign(new Error(outcome.errorMessage ?? l10n.t('The reply failed')), { kind: 'stream' });
        }
        if (outcome.ending === 'length' || outcome.ending === 'content-filter') meta.ending = outcome.ending;
        if (reply.reasoningText.trim()) meta.reasoning = reply.reasoningText;
        // The stream's data and annotations are kept with the reply (never shown).
        const extras = reply.extras;
        const extrasJson = extras ? JSON.stringify(extras) : '';
        if (extrasJson && extrasJson.length <= MAX_EXTRAS) meta.extras = extrasJson;
        if (outcome.problems) meta.note = `The service's reply was not quite right (${outcome.problems.join('; ')}); the text is kept.`.slice(0, 500);
        const charged = creditsCharged(undefined, cost);
        if (charged !== undefined) meta.credits = charged;
      } else {
        const res = await this.deps.backend().chat(req, { signal, onRetry });
        started = true;
        paid = true;
        finished.answered = true;
        assistant.content = res.content;
        pending = res.content;
        if (res.model) meta.model = displayModelId(res.model, model, warn);
        finished.model = meta.model;
        const charged = creditsCharged(creditAmount(res.creditsUsed, 'creditsUsed', warn), cost);
        if (charged !== undefined) meta.credits = charged;
        if (res.creditsUsed !== undefined) finished.creditsUsed = meta.credits;
        if (res.creditsRemaining !== undefined) finished.creditsRemaining = creditAmount(res.creditsRemaining, 'creditsRemaining', warn);
        if (res.problems?.length) meta.note = `The service's reply was incomplete (${res.problems.join('; ')}); the text is kept.`.slice(0, 500);
      }
      flush();
      assistant.status = 'complete';
      assistant.meta = meta;
    } catch (err) {
      flush();
      const kind = signal.aborted ? 'aborted' : errorKind(err);
      finished.errorKind = kind;
      if (kind === 'aborted') {
        assistant.status = 'stopped';
        meta.credits = paid || started ? creditsCharged(undefined, cost) : undefined;
        if (meta.credits === undefined) delete meta.credits;
        assistant.meta = meta;
      } else {
        const view = errorToView(err, settings.baseUrl);
        // The service says the input is too long: offer to send again with fewer earlier messages.
        if (isInputTooLong(err) && selection.ok && selection.sentTurns > 0) view.actions = ['fewerMessages', ...view.actions];
        this.deps.logger?.warn('Chat request failed', { kind, message: view.message });
        if (!paid && !started && assistant.content === '') {
          // Nothing of the reply arrived: take the turn back and return the text to the box.
          const i = conv.messages.indexOf(user);
          if (i >= 0) conv.messages.splice(i);
          refreshTitle(conv);
          this.sendErrorView = view;
          this.failedText = user.content;
          this.finish(running);
          this.emit({ type: 'conversationChanged' });
          this.emit({ type: 'inputReturned', text: user.content });
          this.deps.replyFinished?.(finished);
          await saveQuietly();
          return;
        }
        assistant.status = 'error';
        // The service answered 200, so the reply was paid for: its text stays, and Retry says it costs credits again.
        assistant.error = paid ? { ...view, message: `${view.message} ${retryCostsAgain()}` } : view;
        if (paid && cost !== null) meta.credits = cost;
        assistant.meta = meta;
      }
    } finally {
      if (timer !== undefined) clearTimeout(timer);
    }
    conv.updatedAt = this.now().toISOString();
    this.finish(running);
    // Told after the turn stopped running: the reply is final and the session is idle.
    this.emit({ type: 'turnEnded', message: assistant });
    this.deps.replyFinished?.(finished);
    await this.deps.store.save(conv).catch((err) => this.deps.logger?.warn('Could not save the conversation', { error: String(err) }));
  }

  private finish(running: Running): void {
    if (this.running === running) this.running = undefined;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }
}

/** The model id a reply names, fit to show: an id that is not a plausible model id is replaced by the one asked for. */
export function displayModelId(replyModel: string, asked: string, warn: RangeWarning): string {
  if (/^[\w.:/-]{1,100}$/.test(replyModel)) return replyModel;
  warn('model', replyModel, asked);
  return asked;
}
