// What the chat sends: a message typed in the chat or given by a command, Retry, Continue, Fork
// and the queue's messages (in order, each once the reply before it has completed). Each is judged by the one turn pipeline through its port
// (SendJudge: the key, the model, its price, the balance and the instructions are read there, and
// the balance is fetched again there before a refusal for want of credits); what the gate decides
// is carried out here: sent, queued, or refused with the text back in the box. VS Code-free.
import * as l10n from '@vscode/l10n';
import { cannotPay, carried, type Attachment, type ChatSession, type SentItem, type GateVerdict, type SendJudge, type SendJudgement, type SendSurfaceState, type SessionEvent } from '../../../core';
import { MAX_QUEUED, MAX_TEXT, type HostMessage } from '../../../protocol';
import type { ConversationQueue } from './conversationQueue';
import { box } from './presenter';
import { withPinsNow } from './sendWithAttachments';

/** What became of a message given to `send`. */
export type SendOutcome = 'sent' | 'queued' | 'refused';

export interface ChatSendsDeps {
  session: ChatSession;
  turns: SendJudge;
  queued: ConversationQueue;
  /** The model selected now ('' when none is). */
  selectedModel: () => string;
  /** Asks for a model (quick pick); true when one is chosen. */
  pickModel: () => Promise<boolean>;
  notifyBusy: () => void;
  notifyCannotPay?: (cost: number, total: number) => void;
  notifyTooLong?: (length: number, max: number) => void;
  notifyHoldsKey?: () => void;
  post: (message: HostMessage) => void;
  /** The settings snapshot again (the model list shows that a model is needed). */
  settingsChanged: () => void;
  /** The out-of-credits card in the chat. */
  showOutOfCredits: () => void;
  /** The conversation's pins, read now (a message that waited gets them when it goes). */
  pinned?: () => Promise<readonly Attachment[]>;
}

const refusedFor = (verdict: GateVerdict, ...reasons: string[]) => verdict.kind === 'refuse' && reasons.includes(verdict.reason);

export class ChatSends {
  constructor(private readonly deps: ChatSendsDeps) {}

  /**
   * The pipeline's verdict on sending `text` with `model` (default: the selected one) now.
   * `queueing`: a new message, which the chat's limits apply to and which may wait in the queue.
   */
  private judge(text: string, model: string | undefined, queueing: boolean, files: readonly string[] = []): Promise<SendJudgement> {
    const { session, queued } = this.deps;
    const state = (): SendSurfaceState => {
      if (!queueing) return {};
      if (session.busy) return { busy: true, canQueue: queued.length < MAX_QUEUED };
      // The request within the model's budget, as the session fits it to the selected model (a
      // queued message's own model is fitted by the session when it goes).
      return { busy: false, canQueue: queued.length < MAX_QUEUED, ...(!model || model === this.deps.selectedModel() ? { fit: session.previewContext(text, 0, files) } : {}) };
    };
    return this.deps.turns.judge({ text, ...(model ? { model } : {}), ...(queueing ? { maxChars: MAX_TEXT } : {}), state });
  }

  /**
   * A new message: the gate decides (send, queue or refuse). `model`: the model a queued message
   * was queued with (else the selected one); `files`: the workspace files it carries; `pinsWhenSent`:
   * the conversation's pins are not in it yet, and join it when it goes (now, or from the queue).
   */
  async send(text: string, model?: string, files?: readonly string[], sent?: readonly SentItem[], pinsWhenSent = false): Promise<SendOutcome> {
    const { session } = this.deps;
    let { verdict, facts } = await this.judge(text, model, true, files);
    // The model is required: asked for on the first send.
    if (refusedFor(verdict, 'noModel') && !model && (await this.deps.pickModel()) && this.deps.selectedModel()) {
      ({ verdict, facts } = await this.judge(text, model, true, files));
    }
    if (verdict.kind === 'send') {
      const now = pinsWhenSent && this.deps.pinned ? withPinsNow(text, files, sent, await this.deps.pinned()) : { text, files, sent };
      await session.send(now.text, { ...(model ? { model } : {}), ...carried(now.files, now.sent) });
      return 'sent';
    }
    if (verdict.kind === 'queue') {
      // Typed while a reply streams: queued, sent in order once the reply has finished, with the
      // model (and price) the card shows.
      this.deps.queued.add(text, facts.model, facts.cost, carried(files, sent), pinsWhenSent);
      return 'queued';
    }
    const reason = verdict.reason;
    if (reason === 'tooLong' || reason === 'busy' || reason === 'noModel' || reason === 'cannotPay') {
      // The text stays in the box; a notification, the model list or the out-of-credits card says why.
      this.deps.post(box.restore(text));
      if (reason === 'tooLong') this.deps.notifyTooLong?.(text.length, MAX_TEXT);
      else if (reason === 'busy') this.deps.notifyBusy();
      else if (reason === 'noModel') this.deps.settingsChanged();
      else {
        this.deps.notifyCannotPay?.(facts.cost ?? 0, facts.balance ?? 0);
        this.deps.showOutOfCredits();
      }
      return 'refused';
    }
    // The chat shows the gate's error; a text that holds the key is checked before anything keeps it
    // (the queue, the conversation file, the service) and is not kept for Retry either.
    session.rejectSend(text, verdict.error, reason !== 'holdsKey');
    return 'refused';
  }

  /** Retry of a failed or stopped reply (the model may have been unset since). */
  async retry(): Promise<void> {
    if (this.deps.session.busy) return;
    if (!(await this.resendAllowed())) return;
    await this.deps.session.retry();
  }

  /** Retry with…: a new variant of a reply from `model` (the gate's checks of that model and of the instructions apply). */
  async retryWith(replyId: string, model: string): Promise<void> {
    if (this.deps.session.busy) return;
    const { verdict } = await this.judge('', model, false);
    if (verdict.kind === 'refuse' && verdict.reason !== 'noKey' && verdict.reason !== 'cannotPay') {
      this.deps.session.showSendError(verdict.error);
      return;
    }
    await this.deps.session.variants.retryWith(replyId, model);
  }

  /** Continue of a reply cut at the model's length limit (a new turn: the same checks as a send). */
  async continueReply(): Promise<void> {
    if (this.deps.session.busy) return;
    if (!(await this.resendAllowed())) return;
    await this.deps.session.continueReply();
  }

  /**
   * Retry and Continue send the conversation's own text again: the gate's checks of the model and of
   * the instructions apply (a missing or unusable model asks for another one).
   */
  private async resendAllowed(): Promise<boolean> {
    const modelMissing = (v: GateVerdict) => refusedFor(v, 'noModel', 'unusableModel');
    let { verdict } = await this.judge('', undefined, false);
    if (modelMissing(verdict)) {
      if (!(await this.deps.pickModel())) return false;
      ({ verdict } = await this.judge('', undefined, false));
      if (modelMissing(verdict)) return false;
    }
    if (verdict.kind === 'refuse' && (verdict.reason === 'systemPromptHoldsKey' || verdict.reason === 'instructionsHoldKey')) {
      this.deps.session.showSendError(verdict.error);
      return false;
    }
    // The rest (no key, credits) is the service's to say, as before.
    return true;
  }

  /** A new conversation from the current one, up to a message (not while a reply runs). */
  async fork(messageId: string): Promise<boolean> {
    if (this.deps.session.busy) {
      this.deps.notifyBusy();
      return false;
    }
    return this.deps.session.fork(messageId);
  }

  /** A queued message edited: a text that holds the API key is refused, and the card goes back to the text it had. */
  async queueEdit(id: string, text: string): Promise<void> {
    if (await this.deps.turns.holdsKey(text)) {
      this.deps.queued.show();
      this.deps.notifyHoldsKey?.();
      return;
    }
    this.deps.queued.edit(id, text);
  }

  /**
   * The queue's next message, with the model and price its card showed. The gate judges it first:
   * a message the balance cannot pay (the balance fetched again) holds the queue and opens the card.
   */
  async sendNextQueued(): Promise<void> {
    const first = this.deps.queued.peek();
    if (!first) return;
    const { verdict } = await this.judge(first.text, first.model, false);
    if (cannotPay(verdict)) {
      this.deps.queued.stop(l10n.t('Not enough credits for the next message.'));
      this.deps.showOutOfCredits();
      return;
    }
    const next = this.deps.queued.next();
    if (!next) return;
    await this.send(next.text, next.model, next.files, next.sent, next.pins === true);
  }

  /** Resume after a failure or Stop: sends the next message now when no reply runs. */
  async queueResume(): Promise<void> {
    this.deps.queued.resume();
    if (!this.deps.session.busy) await this.sendNextQueued();
  }

  /** The queue follows the conversation, and goes on (or holds) when a turn ends. */
  queueAfter(event: SessionEvent): void {
    const { queued } = this.deps;
    if (event.type === 'conversationChanged') queued.follow(event.restored === true);
    // Its queued messages go with a deleted conversation, current or not.
    if (event.type === 'conversationRemoved') queued.drop(event.id);
    // Messages typed while a summary was written go once it has ended.
    if (event.type === 'summaryEnded' && queued.length > 0) setTimeout(() => void this.sendNextQueued(), 0);
    if (event.type !== 'turnEnded' || queued.length === 0) return;
    // A reply that did not complete (error, 402, network, Stop) holds the queue until the user resumes it.
    if (event.message.status !== 'complete') {
      queued.stop(event.message.status === 'stopped' ? l10n.t('Stopped') : l10n.t('The reply failed'));
      return;
    }
    setTimeout(() => void this.sendNextQueued(), 0);
  }
}
