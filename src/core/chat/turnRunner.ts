// The running turn of the chat session: it builds the request, runs it through the turn pipeline
// (runTurn), tells the reply's text as it streams (flushed at most once per interval), saves the
// turn when it starts, now and then while it streams and when it ends, and settles it (the reply
// then shows its charge). Owns the running reply and whoever waits for it to end; which
// conversation is shown stays the session's. VS Code-free.
import { appendMessage, dropStaleSummary, refreshTitle, type Conversation, type HistoryMessage, type StoredMessage } from './conversation';
import { addVariant, dropOrphanVariants, dropVariant } from '../variants/variants';
import { rearrange } from '../variants/branches';
import { isInputTooLong } from '../context/contextBudget';
import type { TurnCharge } from '../account/charge';
import { warnOncePerField, type RangeWarning } from '../../client/sanitize';
import { runTurn, type SessionChatRequest } from './turn';
import { replyRecord } from './turnRecord';
import type { ChatError } from './errors';
import { attachedPart, carried, withInstructions, type Carried } from '../context/sentWith';
import type { RequestContext } from './requestContext';
import type { ChatSessionDeps, SessionEvent } from './sessionPorts';

/** What the runner asks of the session whose conversation the turn is in. */
export interface TurnHost {
  emit(event: SessionEvent): void;
  /** Nothing of the reply came (the turn was taken back): `error` is the send's, `text` and `files` are kept for Retry. */
  takenBack(error: ChatError, text: string, with_: Carried): void;
  /** Nothing of a new variant came: the error is shown (the question stays where it is). */
  variantFailed(error: ChatError): void;
  /** The conversation the chat shows now (a settled charge goes to a reply of it). */
  conversation(): Conversation;
}

interface Running {
  conv: Conversation;
  assistant: StoredMessage;
  controller: AbortController;
}

export class TurnRunner {
  private current: Running | undefined;
  private idleWaiters: Array<() => void> = [];
  private readonly now: () => Date;
  /** Out-of-range values in replies are logged once per field. */
  private readonly rangeWarning: RangeWarning;

  constructor(
    private readonly deps: ChatSessionDeps,
    private readonly context: RequestContext,
    private readonly host: TurnHost,
  ) {
    this.now = deps.now ?? (() => new Date());
    this.rangeWarning = warnOncePerField({ warn: (msg, data) => deps.logger?.warn(msg, data) });
  }

  /** A reply is running. */
  get running(): boolean {
    return this.current !== undefined;
  }

  /** The reply that streams now, if any. */
  get reply(): StoredMessage | undefined {
    return this.current?.assistant;
  }

  /** Stops the reply being generated; the partial text is kept, marked stopped. */
  stop(): void {
    this.current?.controller.abort();
  }

  /** Resolves when no reply is running. */
  waitIdle(): Promise<void> {
    if (!this.current) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Runs the turn of `user` (already in `conv`) with `modelOverride` or the selected model; resolves
   * when it ended. `variant`: the reply is a new variant of the one to `user` (Retry with…), shown
   * in its place; the one it replaces on screen stays as a variant.
   */
  async run(conv: Conversation, user: StoredMessage, modelOverride?: string, variant = false): Promise<void> {
    const settings = this.deps.settings();
    const model = modelOverride || settings.model;
    const cost = this.deps.modelCost(model);
    // The earlier turns that fit the model's budget, newest first, whole turns only.
    const at = conv.messages.indexOf(user);
    // The repository's rules for the question's files (and the active editor's) go after the system prompt.
    const rules = this.context.rules(user.files);
    const selection = this.context.select(conv, conv.messages.slice(0, at < 0 ? conv.messages.length : at), user.content, 0, user.id, model, rules);
    // (A resent message that no longer fits, e.g. after a model change, goes alone: the service decides.)
    const system = this.context.system(rules);
    // "Sent with this message": the instructions and rules of this request beside its attachments.
    if (user.sent) user.sent = withInstructions(user.sent, system);
    const history: HistoryMessage[] = selection.ok
      ? selection.messages
      : [...(system ? [{ role: 'system' as const, content: system }] : []), { id: user.id, role: 'user', content: user.content }];
    if (selection.ok) this.context.sent(conv.id, selection.sentTurns);
    const replaced = variant && conv.messages[at + 1]?.role === 'assistant' ? conv.messages[at + 1] : undefined;
    const assistant = variant ? addVariant(conv, user, this.now()) : appendMessage(conv, 'assistant', '', this.now(), { status: 'streaming' });
    const running: Running = { conv, assistant, controller: new AbortController() };
    this.current = running;
    // A variant takes its reply's place above: the chat shows it there.
    if (variant) this.host.emit(replaced && !conv.summary ? { type: 'variantShown', from: replaced.id, message: assistant } : { type: 'conversationChanged' });
    // The first turn of a branch: the turns after its question are not shown any more.
    else if (user.branchOf !== undefined) this.host.emit({ type: 'conversationChanged' });
    this.host.emit({ type: 'turnStarted', user, assistant, model });
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
      this.host.emit({ type: 'textAppended', messageId: assistant.id, offset: flushed, text });
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
        status: (text) => this.host.emit({ type: 'turnStatus', messageId: assistant.id, text }),
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
    if (record.takeBack && variant) {
      // A variant of which nothing came goes: the reply shown before it is back, and the chat says why.
      dropVariant(conv, assistant, replaced);
      this.host.variantFailed(record.error);
      this.finish(running);
      this.host.emit({ type: 'conversationChanged' });
      void this.settle(turn.settle(result), conv.id, assistant.id, result.errorKind);
      await saveQuietly();
      return;
    }
    if (record.takeBack) {
      const view = record.error;
      // The service says the input is too long: offer to send again with fewer earlier messages.
      if (isInputTooLong(result.cause) && selection.ok && selection.sentTurns > 0) view.actions = ['fewerMessages', ...view.actions];
      // Nothing of the reply arrived: take the turn back and return the text to the box.
      const i = conv.messages.indexOf(user);
      if (i >= 0) conv.messages.splice(i);
      dropOrphanVariants(conv);
      // The first question of a branch: the branch shown before it is back.
      if (user.branchOf !== undefined) rearrange(conv);
      dropStaleSummary(conv);
      refreshTitle(conv);
      this.host.takenBack(view, user.content, carried(user.files, user.sent && attachedPart(user.sent)));
      this.finish(running);
      this.host.emit({ type: 'conversationChanged' });
      // The edit of a question: the text goes back as the edit of the question shown in its place.
      const again = user.branchOf !== undefined ? conv.messages.find((m) => m.role === 'user' && (m.branchOf ?? m.id) === user.branchOf) : undefined;
      this.host.emit({ type: 'inputReturned', text: user.content, ...(again ? { editOf: again.id } : {}) });
      void this.settle(turn.settle(result), conv.id, assistant.id, result.errorKind);
      await saveQuietly();
      return;
    }
    assistant.status = record.status;
    assistant.meta = rules.sent.length ? { ...record.meta, rules: rules.sent } : record.meta;
    if (record.error) {
      if (isInputTooLong(result.cause) && selection.ok && selection.sentTurns > 0) record.error.actions = ['fewerMessages', ...record.error.actions];
      assistant.error = record.error;
    }
    conv.updatedAt = this.now().toISOString();
    this.finish(running);
    // Told after the turn stopped running: the reply is final and the session is idle.
    this.host.emit({ type: 'turnEnded', message: assistant });
    void this.settle(turn.settle(result), conv.id, assistant.id, result.errorKind);
    await this.deps.store.save(conv).catch((err) => this.deps.logger?.warn('Could not save the conversation', { error: String(err) }));
  }

  /** The charge of a turn became known: the reply shows it, and whoever listens is told. */
  private async settle(charge: Promise<TurnCharge>, conversationId: string, messageId: string, errorKind: string | undefined): Promise<void> {
    const settled: TurnCharge = await charge.catch(() => ({ pending: false }));
    if (settled.charged !== undefined) this.setReplyCredits(conversationId, messageId, settled.charged);
    this.host.emit({ type: 'turnSettled', conversationId, messageId, charged: settled.charged, errorKind });
  }

  /** The charge of a finished reply of the conversation shown: its footer shows it, and it is saved. */
  setReplyCredits(conversationId: string, messageId: string, credits: number): void {
    const conv = this.host.conversation();
    if (conv.id !== conversationId) return;
    const m = conv.messages.find((x) => x.id === messageId && x.role === 'assistant');
    if (!m?.meta || m.meta.credits === credits) return;
    m.meta = { ...m.meta, credits };
    this.host.emit({ type: 'messageChanged', message: m });
    void this.deps.store.save(conv).catch((err) => this.deps.logger?.warn('Could not save the conversation', { error: String(err) }));
  }

  private finish(running: Running): void {
    if (this.current === running) this.current = undefined;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }
}
