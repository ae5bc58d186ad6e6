// One chat: sending a turn, streaming the reply, Stop, Retry and Edit.
// VS Code-free and free of the webview protocol: the service client, the store and the clock are
// injected, and what happens is told as domain events (SessionEvent) to whoever listens.
import type { ErrorView, ReplyMeta } from '../protocol';
import { appendMessage, buildHistory, lastUserMessageIndex, refreshTitle, type Conversation, type HistoryMessage, type StoredMessage } from './conversation';
import { creditsCharged } from './cost';
import { errorKind, errorToView, retryNoticeText } from './errors';
import type { ConversationStore } from './store';

/** The request this session sends (a subset of the client's ChatRequest). */
export interface SessionChatRequest {
  messages: HistoryMessage[];
  model: string;
  stream: boolean;
  temperature: number;
  search?: boolean;
}

export type SessionStreamEvent =
  | { event: 'f'; messageId: string }
  | { event: '0'; data: string }
  | { event: 'e'; finishReason: string; isContinued?: boolean }
  | { event: 'd'; finishReason: string; usage?: { promptTokens: number; completionTokens: number } };

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
  ): Promise<{ content: string; creditsUsed: number; creditsRemaining: number; model?: string }>;
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
  streamed: boolean;
  /** Kind of the error when the turn failed. */
  errorKind?: string;
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
  /** The conversation was replaced or changed other than by a turn (open, new, edit, a turn taken back). */
  | { type: 'conversationChanged' }
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
  logger?: SessionLogger;
  now?: () => Date;
  /** Streamed text is posted at most once per this many ms (0: every chunk). */
  flushIntervalMs?: number;
  /** History limits. */
  maxHistoryChars?: number;
  /** A streaming reply is saved at most this often (0: only when it ends). */
  partialSaveIntervalMs?: number;
}

interface Running {
  conv: Conversation;
  assistant: StoredMessage;
  controller: AbortController;
  stream?: { abort(): void };
}

export class ChatSession {
  private running: Running | undefined;
  private sendErrorView: ErrorView | undefined;
  /** Text of a send that failed before any reply, for Retry when the box was emptied. */
  private failedText: string | undefined;
  private readonly now: () => Date;

  constructor(private readonly deps: ChatSessionDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  get busy(): boolean {
    return this.running !== undefined;
  }

  get sendError(): ErrorView | undefined {
    return this.sendErrorView;
  }

  get conversation(): Conversation {
    return this.deps.store.current;
  }

  private emit(event: SessionEvent): void {
    this.deps.onEvent(event);
  }

  /** Sends a user message; resolves when the reply finished, failed or was stopped. */
  async send(text: string): Promise<void> {
    if (this.running) {
      this.emit({ type: 'inputReturned', text });
      return;
    }
    const conv = this.conversation;
    this.clearSendError();
    const user = appendMessage(conv, 'user', text, this.now());
    await this.run(conv, user);
  }

  /** Resends the history of a failed or stopped reply (or a send that failed before any reply). */
  async retry(): Promise<void> {
    if (this.running) return;
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
    if (this.failedText !== undefined) {
      await this.send(this.failedText);
    }
  }

  /** Drops the error of the last send (e.g. its cause was fixed: a key was set). */
  dismissSendError(): void {
    if (!this.sendErrorView) return;
    this.clearSendError();
    this.emit({ type: 'sendErrorChanged' });
  }

  /** A send refused before any request (e.g. no API key): the error is shown and the text goes back. */
  rejectSend(text: string, error: ErrorView): void {
    this.sendErrorView = error;
    this.failedText = text;
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

  private async run(conv: Conversation, user: StoredMessage): Promise<void> {
    const settings = this.deps.settings();
    const model = settings.model;
    const cost = this.deps.modelCost(model);
    const history = buildHistory(conv.messages, {
      systemPrompt: settings.systemPrompt,
      ...(this.deps.maxHistoryChars !== undefined ? { maxChars: this.deps.maxHistoryChars } : {}),
    });
    const assistant = appendMessage(conv, 'assistant', '', this.now(), { status: 'streaming' });
    const running: Running = { conv, assistant, controller: new AbortController() };
    this.running = running;
    this.emit({ type: 'turnStarted', user, assistant, model });
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
    const finished: ReplyFinished = { streamed: settings.stream };

    try {
      if (settings.stream) {
        const stream = await this.deps.backend().chatStream(req, { signal, onRetry });
        running.stream = stream;
        if (signal.aborted) stream.abort();
        for await (const ev of stream) {
          if (ev.event === 'f') {
            started = true;
          } else if (ev.event === '0') {
            started = true;
            assistant.content += ev.data;
            pending += ev.data;
            if (flushMs <= 0) flush();
            else if (timer === undefined) timer = setTimeout(flush, flushMs);
            if (saveEveryMs > 0 && Date.now() - lastSave >= saveEveryMs) {
              lastSave = Date.now();
              void saveQuietly();
            }
          } else if (ev.event === 'd') {
            if (ev.usage) {
              meta.promptTokens = ev.usage.promptTokens;
              meta.completionTokens = ev.usage.completionTokens;
            }
          } else if (ev.event === 'e') {
            this.deps.logger?.warn('Stream error event', { finishReason: ev.finishReason, isContinued: ev.isContinued });
          }
          if (signal.aborted) break;
        }
        if (signal.aborted) throw Object.assign(new Error('The request was aborted'), { kind: 'aborted' });
        const charged = creditsCharged(undefined, cost);
        if (charged !== undefined) meta.credits = charged;
      } else {
        const res = await this.deps.backend().chat(req, { signal, onRetry });
        started = true;
        assistant.content = res.content;
        pending = res.content;
        if (res.model) meta.model = res.model;
        const charged = creditsCharged(res.creditsUsed, cost);
        if (charged !== undefined) meta.credits = charged;
        finished.creditsRemaining = res.creditsRemaining;
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
        meta.credits = started ? creditsCharged(undefined, cost) : undefined;
        if (meta.credits === undefined) delete meta.credits;
        assistant.meta = meta;
      } else {
        const view = errorToView(err, settings.baseUrl);
        this.deps.logger?.warn('Chat request failed', { kind, message: view.message });
        if (!started && assistant.content === '') {
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
        assistant.error = view;
        if (started && cost !== null) meta.credits = cost;
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
