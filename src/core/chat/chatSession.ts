// The chat session: the owner of the window's conversation (it makes, opens, restores, forks,
// renames and replaces it, and says so) and of every change to it: send, Retry, Continue, Edit,
// Stop, a summary, Fork, Delete, each starting with one step (catchUp) that takes in what other
// windows wrote. Its parts own the rest: the running turn (turnRunner.ts), what requests hold
// (requestContext.ts), the summary being written (sessionSummary.ts), the last send's error
// (sendError.ts). VS Code-free: the store, the turn pipeline and the clock are injected
// (sessionPorts.ts), and what happens is told as domain events (SessionEvent).
import * as l10n from '@vscode/l10n';
import type { ChatError } from './errors';
import { appendMessage, dropStaleSummary, lastUserMessageIndex, refreshTitle, type Conversation } from './conversation';
import type { SummaryPlan } from './summary';
import { SessionSummary } from './sessionSummary';
import { SendError } from './sendError';
import { carried, type Carried } from '../context/sentWith';
import { messageTooLongError, type ContextSelection } from '../context/contextBudget';
import { RequestContext } from './requestContext';
import { TurnRunner } from './turnRunner';
import type { ChatSessionDeps, RestoreResult, SessionEvent } from './sessionPorts';
import { SessionVariants } from '../variants/sessionVariants';
import { dropOrphanVariants } from '../variants/variants';
import { startBranch } from '../variants/branches';

export { retryCostsAgain } from './turnRecord';

/** The follow-up Continue sends after a reply cut at the model's length limit. */
export const CONTINUE_PROMPT = 'Please continue your previous reply exactly where it stopped.'; // l10n-ignore: sent to the model as the user message

export class ChatSession {
  /** The conversation the chat shows and works on: the session alone replaces it, and says so. */
  private conv: Conversation;
  /** The reply running now, if any. */
  private readonly runner: TurnRunner;
  /** What the requests hold of the conversation (and the cap "Send with fewer earlier messages" left). */
  private readonly context: RequestContext;
  /** The summary of earlier turns: the one being written (a turn of the session too), and its changes. */
  private readonly summaries: SessionSummary;
  /** Counts every change of what the chat shows (every event but `inputReturned`). */
  private stateVersion = 0;
  private restoring: Promise<RestoreResult> | undefined;
  /** The error of the last send, and its text for Retry. */
  private readonly lastSend: SendError;
  private readonly now: () => Date;
  /** The variants of replies: Retry with… and the pager (src/core/variants). */
  readonly variants: SessionVariants;

  constructor(private readonly deps: ChatSessionDeps) {
    this.now = deps.now ?? (() => new Date());
    this.context = new RequestContext(deps);
    this.lastSend = new SendError((event) => this.emit(event));
    this.runner = new TurnRunner(deps, this.context, {
      emit: (event) => this.emit(event),
      takenBack: (error, text, with_) => this.lastSend.failed(error, text, with_),
      variantFailed: (error) => this.lastSend.show(error),
      conversation: () => this.conversation,
    });
    this.variants = new SessionVariants({
      conversation: () => this.conversation, busy: () => this.busy, emit: (event) => this.emit(event),
      catchUp: (moved) => this.catchUp({ moved }), clearSendError: () => this.lastSend.clear(),
      runVariant: (conv, user, model) => this.runner.run(conv, user, model, true),
      save: (conv) => this.deps.store.save(conv).catch((err) => this.deps.logger?.warn('Could not save the conversation', { error: String(err) })),
    });
    this.summaries = new SessionSummary(deps, {
      conversation: () => this.conversation,
      replyRunning: () => this.runner.running,
      catchUp: () => this.catchUp(),
      previewContext: (text, attachmentChars) => this.previewContext(text, attachmentChars),
      emit: (event) => this.emit(event),
    });
    this.conv = deps.store.create();
  }

  /** A reply is running, or a summary is being written. */
  get busy(): boolean {
    return this.runner.running || this.summaries.running;
  }

  get sendError(): ChatError | undefined {
    return this.lastSend.view;
  }

  /** The current conversation: only the session replaces it, and it says so (conversationChanged). */
  get conversation(): Conversation {
    return this.conv;
  }

  /** A new, empty conversation in place of the current one (the caller says so). */
  private startNew(): void { this.conv = this.deps.store.create(); }

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
  previewContext(text: string, attachmentChars = 0, files: readonly string[] = []): ContextSelection {
    const conv = this.conversation;
    const reply = this.runner.reply;
    const earlier = reply ? conv.messages.filter((m) => m !== reply) : conv.messages;
    return this.context.select(conv, earlier, text, attachmentChars, undefined, undefined, this.context.rules(files));
  }

  /** What Summarize would replace now with `text` in the box (the turns above the boundary line). */
  summaryPlan(text = '', attachmentChars = 0): SummaryPlan | undefined {
    return this.summaries.plan(text, attachmentChars);
  }

  /** Keeps the summary a finished request wrote for `plan`: false when the plan no longer fits. */
  applySummary(plan: SummaryPlan, text: string, facts: { model: string; cost: number | null; unread: number }): boolean {
    return this.summaries.apply(plan, text, facts);
  }

  /** A summary of earlier turns, run as a turn of the session (it starts with catchUp, as every change does). */
  summary<T>(write: () => Promise<T>): Promise<T | undefined> {
    return this.summaries.write(write);
  }

  /** The user's own text for the summary (an empty text changes nothing). */
  editSummary(text: string): Promise<boolean> {
    return this.summaries.edit(text);
  }

  /** Removes the summary (the undo of Summarize): requests send the turns it replaced again. */
  removeSummary(): Promise<boolean> {
    return this.summaries.remove();
  }

  /** What the summary of `conversationId` cost, once the balance showed it. */
  setSummaryCredits(conversationId: string, createdAt: string, credits: number): void {
    this.summaries.setCredits(conversationId, createdAt, credits);
  }

  /** Every surface shows the conversation again as it is (an edit that was refused goes back). */
  showAgain(): void {
    this.emit({ type: 'conversationChanged' });
  }

  /**
   * After the service said the input is too long: the next requests of this conversation (with this
   * model) send at most half the earlier turns the last one sent.
   */
  fewerEarlierTurns(): void {
    this.context.halve(this.conversation, () => this.previewContext(this.lastSend.failedText ?? ''));
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
    if (this.runner.running) return 'same';
    const shown = this.conversation;
    const fromDisk = await this.deps.store.refresh(shown).catch((err: unknown) => {
      this.deps.logger?.warn('Could not read the conversation from disk', { error: String(err) });
      return 'same' as const;
    });
    if (shown !== this.conversation || this.runner.running) return 'same';
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
    if (!id || id === this.conversation.id || this.conversation.messages.length > 0 || this.runner.running) return 'kept';
    if (this.restoring) return this.restoring;
    this.restoring = (async (): Promise<RestoreResult> => {
      const conv = await this.deps.store.open(id).catch((err) => {
        this.deps.logger?.warn('Could not reopen the last conversation', { error: String(err) });
        return undefined;
      });
      if (!conv) return 'failed';
      this.conv = conv;
      this.lastSend.clear();
      this.emit({ type: 'conversationChanged', restored: true });
      return 'restored';
    })().finally(() => (this.restoring = undefined));
    return this.restoring;
  }

  /**
   * Sends a user message; resolves when the reply finished, failed or was stopped. `model`: the
   * model to send it with (a queued message goes with the model its card showed), else the
   * selected one. `files`: the workspace files it carries (its attachments), kept with it: the
   * rules that apply to them go with it.
   */
  async send(text: string, opts: { model?: string } & Carried = {}): Promise<void> {
    if (this.restoring) await this.restoring;
    if (this.busy) return this.emit({ type: 'inputReturned', text });
    // The model selected when the message is sent, whatever is picked while the disk is read.
    const model = opts.model || this.deps.settings().model;
    // The edit of an earlier question (a branch starts there: src/core/variants/branches.ts).
    const editOf = this.variants.takeEdit();
    // Another window may have added turns to this conversation, or deleted it: the request is
    // built from what is on disk, and the chat shows it.
    const caught = await this.catchUp(editOf ? { moved: this.variants.editMoved(editOf) } : {});
    if (this.busy || caught === 'moved') return this.emit({ type: 'inputReturned', text });
    const conv = this.conversation;
    const at = editOf ? conv.messages.findIndex((m) => m.id === editOf) : -1;
    // A message that alone exceeds the model's budget is refused before anything is sent.
    const fit = this.context.select(conv, at >= 0 ? conv.messages.slice(0, at) : conv.messages, text, 0, undefined, opts.model, this.context.rules(opts.files));
    if (!fit.ok) {
      this.rejectSend(text, messageTooLongError(fit), true, carried(opts.files, opts.sent));
      return;
    }
    this.lastSend.clear();
    // Every new question has its record (what went with it), filled in with the instructions as it goes.
    const extra = { ...(opts.files?.length ? { files: opts.files } : {}), sent: opts.sent ?? [] };
    const user = (at >= 0 && startBranch(conv, at, text, this.now(), extra)) || appendMessage(conv, 'user', text, this.now(), extra);
    await this.runner.run(conv, user, model);
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
    if (this.lastSend.failedText !== undefined) {
      await this.send(this.lastSend.failedText, this.lastSend.failedCarried);
      return true;
    }
    const target = this.conversation.messages.at(-1);
    const caught = await this.catchUp({
      moved: { test: () => this.conversation.messages.at(-1) !== target, notice: l10n.t('Another window added a turn after this reply, shown above: nothing was sent again. Send a new message to go on from it.') },
    });
    if (this.runner.running || caught === 'moved' || caught === 'deleted') return false;
    const conv = this.conversation;
    const last = conv.messages.at(-1);
    if (last && last.role === 'assistant' && (last.status === 'error' || last.status === 'stopped')) {
      const user = conv.messages.at(-2);
      if (user && user.role === 'user') {
        conv.messages.pop();
        this.lastSend.clear();
        // A variant is retried as a variant (its model again), beside the others.
        await this.runner.run(conv, user, last.variantOf ? last.meta?.model : undefined, last.variantOf !== undefined);
        return true;
      }
    }
    if (last && last.role === 'user') {
      // A turn whose reply is missing (e.g. the window closed before it started).
      this.lastSend.clear();
      await this.runner.run(conv, last);
      return true;
    }
    return false;
  }

  /**
   * The charge of a reply became known after it finished (from the balance change): the reply's
   * footer shows it, the same figure the status bar's balance moved by.
   */
  setReplyCredits(conversationId: string, messageId: string, credits: number): void {
    this.runner.setReplyCredits(conversationId, messageId, credits);
  }

  /** After a reply cut at the model's length limit: asks the model to go on (a new turn). */
  async continueReply(): Promise<void> {
    if (this.busy) return;
    const target = this.conversation.messages.at(-1);
    if (!target || target.role !== 'assistant' || target.meta?.ending !== 'length') return;
    const caught = await this.catchUp({
      moved: { test: () => this.conversation.messages.at(-1) !== target, notice: l10n.t('Another window added a turn after this reply, shown above: it was not continued. Send a new message to go on from it.') },
    });
    if (this.runner.running || caught === 'moved' || caught === 'deleted') return;
    await this.send(CONTINUE_PROMPT);
  }

  /** Drops the error of the last send (e.g. its cause was fixed: a key was set). */
  dismissSendError(): void {
    this.lastSend.dismiss();
  }

  /** A Retry or Continue refused before any request (e.g. the instructions hold the key): the error is shown. */
  showSendError(error: ChatError): void {
    this.lastSend.show(error);
  }

  /** A send refused before any request (e.g. no API key): the error is shown and the text goes back. */
  rejectSend(text: string, error: ChatError, keepForRetry = true, with_: Carried = {}): void {
    this.lastSend.reject(text, error, keepForRetry, with_);
  }

  /** Stops the reply being generated; the partial text is kept, marked stopped. */
  stop(): void {
    this.runner.stop();
  }

  /**
   * Takes the last user message (and the reply after it) out and puts its text back in the box.
   * `messageId`: the question the user clicked; when another window's turn now follows it, nothing
   * is taken out (the chat shows that turn and says so). False when nothing was taken out.
   */
  async editLast(messageId?: string): Promise<boolean> {
    if (this.runner.running) {
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
    if (this.runner.running || caught === 'moved' || conv !== before || i < 0) return false;
    const text = conv.messages[i].content;
    conv.messages.splice(i);
    dropOrphanVariants(conv);
    dropStaleSummary(conv);
    refreshTitle(conv);
    conv.updatedAt = this.now().toISOString();
    this.lastSend.clear();
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
    if (current) await this.stopForAnother();
    const shown = this.conversation;
    await this.deps.store.remove(id);
    this.emit({ type: 'conversationRemoved', id });
    if (shown.id !== id) return;
    if (this.conversation === shown) this.startNew();
    this.lastSend.clear();
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
    await this.stopForAnother();
    this.startNew();
    this.lastSend.clear();
    this.emit({ type: 'conversationChanged' });
  }

  /**
   * Starts a new conversation from the current one, with every message up to and including
   * `messageId`, and opens it (the original stays as it was). False when there is no such message.
   */
  async fork(messageId: string): Promise<boolean> {
    if (this.busy) return false;
    await this.catchUp();
    if (this.runner.running) return false;
    const forked = await this.deps.store.fork(this.conv, messageId);
    return forked ? this.open(forked.id) : false;
  }

  async open(id: string): Promise<boolean> {
    // (As for New Chat: the conversation opened is the one that stays.)
    await this.stopForAnother();
    if (id === this.conv.id) {
      // The conversation on screen, opened again: brought up to date with what other windows added.
      await this.deps.store.refresh(this.conv).catch((err: unknown) => this.deps.logger?.warn('Could not read the conversation from disk', { error: String(err) }));
    } else {
      const conv = await this.deps.store.open(id);
      if (!conv) return false;
      this.conv = conv;
    }
    this.lastSend.clear();
    this.emit({ type: 'conversationChanged' });
    return true;
  }

  /** Resolves when no reply is running. */
  waitIdle(): Promise<void> {
    return this.runner.waitIdle();
  }

  /** Before the conversation is replaced: the last window's, being reopened, is in, and the reply running is stopped. */
  private async stopForAnother(): Promise<void> {
    if (this.restoring) await this.restoring;
    if (this.runner.running) {
      this.stop();
      await this.waitIdle();
    }
  }
}
