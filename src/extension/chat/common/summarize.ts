// Summarize Earlier Turns: the meter's button, /summarize and the command. The turns above the
// boundary line are summarized in one request through the one turn pipeline (surface 'summary'),
// at the price shown first (on the button, or asked before when it was not on screen); the summary
// is kept with the conversation (core/chat/summary.ts) and shown as a card the user can edit or
// remove. Never automatic unless aiChat.context.autoSummarize is on. VS Code-free.
import * as l10n from '@vscode/l10n';
import { planStillFits, summaryRequest, type ChatSession, type SessionEvent, type SummaryPlan, type TurnSink } from '../../../core';
import type { ErrorView, HostMessage } from '../../../protocol';
import { summarizeText } from '../../../wording';
import { summaryProgress } from './presenter';
import type { SurfaceTurnRequest, SurfaceTurnResult, TurnQuote } from '../../pipeline/common/turnService';

export interface SummarizerDeps {
  session: ChatSession;
  /** The next message as the meter counts it (the turns above the line depend on it). */
  next: () => { text: string; attachmentChars: number };
  /** The selected model and its price. */
  quote: () => TurnQuote | undefined;
  /** Estimated tokens a summary's prompt may take with the selected model (its budget less the instructions). */
  room: () => Promise<number>;
  /** The one turn pipeline. */
  run: (req: SurfaceTurnRequest, sink: TurnSink, signal: AbortSignal) => Promise<SurfaceTurnResult>;
  post: (message: HostMessage) => void;
  /** Asks before spending (the price was not on screen): true to go on. */
  confirm: (question: string, action: string) => Promise<boolean>;
  /** Tells the user what happened (an error's buttons with it, when it has any). */
  tell: (message: string, error?: ErrorView) => void;
  /** Whether a text holds the user's API key. */
  holdsKey: (text: string) => Promise<boolean>;
  /** aiChat.context.autoSummarize: summarize after a reply when turns are above the line. */
  auto: () => boolean;
}

export type SummarizeOutcome = 'done' | 'nothing' | 'cancelled' | 'refused' | 'failed';

export class Summarizer {
  private running: { controller: AbortController; plan: SummaryPlan } | undefined;

  constructor(private readonly deps: SummarizerDeps) {}

  /**
   * Summarizes the turns above the line. `ask`: the price was not on screen (the command,
   * /summarize), so it is asked first; the meter's button showed it.
   */
  async start(ask: boolean): Promise<SummarizeOutcome> {
    const { session } = this.deps;
    if (this.running) {
      this.deps.tell(l10n.t('A summary is already being written.'));
      return 'refused';
    }
    if (session.busy) {
      this.deps.tell(l10n.t('A reply is still being generated. Summarize when it has finished.'));
      return 'refused';
    }
    const next = this.deps.next();
    const plan = session.summaryPlan(next.text, next.attachmentChars);
    if (!plan) {
      this.deps.tell(l10n.t('Nothing to summarize: every earlier turn goes with the next message.'));
      return 'nothing';
    }
    const quote = this.deps.quote();
    const label = summarizeText(plan.newTurns, quote?.cost);
    if (ask && quote && !(await this.deps.confirm(l10n.t('{0} ({1}). The turns stay in the conversation; the summary is sent in their place until you remove it.', label, quote.name), l10n.t('Summarize')))) {
      return 'cancelled';
    }
    // A turn of the session: what other windows wrote comes in first, and a send meanwhile is queued.
    const outcome = await session.summary(() => this.write(plan, quote));
    if (outcome === undefined) {
      this.deps.tell(l10n.t('A reply is still being generated. Summarize when it has finished.'));
      return 'refused';
    }
    return outcome;
  }

  /** The summary's request through the pipeline, and the summary kept when the conversation still fits its plan. */
  private async write(plan: SummaryPlan, quote: TurnQuote | undefined): Promise<SummarizeOutcome> {
    const { session } = this.deps;
    const request = summaryRequest(session.conversation, plan, await this.deps.room());
    if (!request.ok) {
      this.deps.tell(l10n.t('The turns above the line are too long to summarize with this model. Pick a model with a larger context, or Fork a message to start a new conversation from it.'));
      return 'refused';
    }
    // The conversation may have changed while the user was asked (the rule applying the summary checks).
    if (!planStillFits(session.conversation, plan)) {
      this.deps.tell(l10n.t('The conversation changed: summarize again.'));
      return 'refused';
    }
    const controller = new AbortController();
    this.running = { controller, plan };
    const progress = (text: string) =>
      this.deps.post(summaryProgress.running(plan, text));
    let text = '';
    let timer: ReturnType<typeof setTimeout> | undefined;
    progress('');
    try {
      const ran = await this.deps.run(
        { surface: 'summary', prompt: request.prompt, system: request.system, noRules: true, ...(quote ? { model: quote.model } : {}) },
        {
          text: (chunk) => {
            text += chunk;
            timer ??= setTimeout(() => {
              timer = undefined;
              if (this.running?.controller === controller) progress(text);
            }, 50);
          },
          status: () => undefined,
        },
        controller.signal,
      );
      if (ran.kind === 'refused') {
        this.deps.tell(ran.error.message || l10n.t('The summary was not sent.'), ran.error);
        return 'refused';
      }
      const r = ran.result;
      if (r.ending !== 'complete' || !r.text.trim()) {
        const paid = r.answered ? ' ' + l10n.t('The request was charged.') : '';
        if (r.ending === 'stopped') this.deps.tell(l10n.t('The summary was stopped: nothing was kept.') + paid);
        else this.deps.tell(l10n.t('The summary failed: {0}', r.error?.message ?? l10n.t('the reply was empty.')) + paid, r.error);
        return 'failed';
      }
      if (!session.applySummary(plan, r.text, { model: r.meta.model || quote?.model || '', cost: quote?.cost ?? null, unread: request.unread })) {
        this.deps.tell(l10n.t('The conversation changed while the summary was being written: it was not kept.'));
        return 'failed';
      }
      const made = session.conversation.summary?.createdAt;
      void ran.charge
        .then((c) => {
          if (c.charged !== undefined && made) session.setSummaryCredits(plan.conversationId, made, c.charged);
        })
        .catch(() => undefined);
      return 'done';
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      this.running = undefined;
      this.deps.post(summaryProgress.done());
    }
  }

  /** Stops the summary being written (nothing is kept). */
  stop(): void {
    this.running?.controller.abort();
  }

  /** The user's own text for the summary. */
  async edit(text: string): Promise<void> {
    if (await this.deps.holdsKey(text)) {
      this.deps.tell(l10n.t('The summary was not changed: the new text holds your API key. Take the key out.'));
      // The card goes back to the text it had.
      this.deps.session.showAgain();
      return;
    }
    await this.deps.session.editSummary(text);
  }

  /** Removes the summary: the turns it replaced are sent again (those that fit). */
  async remove(): Promise<void> {
    await this.deps.session.removeSummary();
  }

  /** Every event of the session: a switch of conversation stops a summary; after a reply, the automatic one when it is on. */
  onSessionEvent(event: SessionEvent): void {
    const running = this.running;
    if (event.type === 'conversationChanged' && running && this.deps.session.conversation.id !== running.plan.conversationId) running.controller.abort();
    if (event.type !== 'turnEnded' || event.message.status !== 'complete' || !this.deps.auto()) return;
    // After the session is idle: only when turns are above the line (the card shows the price while it runs).
    setTimeout(() => {
      const next = this.deps.next();
      if (!this.running && !this.deps.session.busy && this.deps.session.summaryPlan(next.text, next.attachmentChars)) void this.start(false);
    }, 0);
  }
}
