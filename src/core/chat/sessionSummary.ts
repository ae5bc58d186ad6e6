// The summary of earlier turns in the chat session: what Summarize would replace, the summary
// being written (a turn of the session: a send meanwhile is queued), and what is kept of it (the
// request's text, the user's edit, its removal, its cost). Owns whether one is being written; the
// conversation it goes into stays the session's. VS Code-free.
import { MAX_SUMMARY_TEXT, type Conversation } from './conversation';
import { newSummary, planStillFits, planSummary, type SummaryPlan } from './summary';
import type { ContextSelection } from '../context/contextBudget';
import type { ChatSessionDeps, SessionEvent } from './sessionPorts';

/** What the summary asks of the session whose conversation it is in. */
export interface SummaryHost {
  conversation(): Conversation;
  /** A reply of the session is running. */
  replyRunning(): boolean;
  /** The first step of every change: what other windows wrote is taken in. */
  catchUp(): Promise<unknown>;
  previewContext(text: string, attachmentChars: number): ContextSelection;
  emit(event: SessionEvent): void;
}

export class SessionSummary {
  /** A summary of earlier turns is being written. */
  private writing = false;
  private readonly now: () => Date;

  constructor(
    private readonly deps: Pick<ChatSessionDeps, 'store' | 'logger' | 'now'>,
    private readonly host: SummaryHost,
  ) {
    this.now = deps.now ?? (() => new Date());
  }

  get running(): boolean {
    return this.writing;
  }

  private get busy(): boolean {
    return this.host.replyRunning() || this.writing;
  }

  /**
   * What Summarize would replace now with `text` in the box (the turns above the boundary line);
   * undefined when no turn is above it or a reply is running.
   */
  plan(text: string, attachmentChars: number): SummaryPlan | undefined {
    if (this.host.replyRunning()) return undefined;
    return planSummary(this.host.conversation(), this.host.previewContext(text, attachmentChars));
  }

  /**
   * Keeps the summary a finished request wrote for `plan` (it replaces the conversation's summary,
   * if any): false when the conversation changed so that the plan no longer fits it.
   */
  apply(plan: SummaryPlan, text: string, facts: { model: string; cost: number | null; unread: number }): boolean {
    const conv = this.host.conversation();
    if (!text.trim() || !planStillFits(conv, plan)) return false;
    conv.summary = newSummary(plan, text, { ...facts, now: this.now() });
    this.changed(conv);
    return true;
  }

  /**
   * Runs `write` as a turn of the session: it first takes in what other windows wrote (as every
   * change does), and while `write` runs the session is busy (a send is queued, Retry and Edit
   * wait). Undefined when a reply or another summary runs; summaryEnded is told at its end.
   */
  async write<T>(write: () => Promise<T>): Promise<T | undefined> {
    if (this.busy) return undefined;
    this.writing = true;
    try {
      await this.host.catchUp();
      return await write();
    } finally {
      this.writing = false;
      this.host.emit({ type: 'summaryEnded' });
    }
  }

  /** The user's own text for the summary (an empty text changes nothing). */
  async edit(text: string): Promise<boolean> {
    const trimmed = text.trim();
    if (!trimmed) return false;
    // (While a turn runs, what other windows wrote is taken in when it is saved.)
    if (!this.busy) await this.host.catchUp();
    const conv = this.host.conversation();
    if (!conv.summary) return false;
    if (trimmed === conv.summary.text) return true;
    conv.summary = { ...conv.summary, text: trimmed.slice(0, MAX_SUMMARY_TEXT), edited: true };
    this.changed(conv);
    return true;
  }

  /** Removes the summary (the undo of Summarize): requests send the turns it replaced again. */
  async remove(): Promise<boolean> {
    if (!this.busy) await this.host.catchUp();
    const conv = this.host.conversation();
    if (!conv.summary) return false;
    delete conv.summary;
    this.changed(conv);
    return true;
  }

  /** What the summary of `conversationId` cost, once the balance showed it. */
  setCredits(conversationId: string, createdAt: string, credits: number): void {
    const conv = this.host.conversation();
    if (conv.id !== conversationId || conv.summary?.createdAt !== createdAt || conv.summary.credits === credits) return;
    conv.summary = { ...conv.summary, credits };
    this.changed(conv);
  }

  private changed(conv: Conversation): void {
    conv.updatedAt = this.now().toISOString();
    this.host.emit({ type: 'conversationChanged' });
    void this.deps.store.save(conv).catch((err) => this.deps.logger?.warn('Could not save the conversation', { error: String(err) }));
  }
}
