// The chat controller: the one translator between the session's domain events and the
// webview protocol, and the one place that checks busy, key and model before a send.
// VS Code-free (its surfaces, settings and prompts are injected), so it is unit-tested directly.
import * as l10n from '@vscode/l10n';
import { canAfford, clearQueue, outOfCreditsCard, sendGate, type GateInput, type GateVerdict, type OutOfCreditsCard, editQueued, emptyQueue, enqueue, errorToView, removeQueued, resumeQueue, stopQueue, takeNext, type MessageQueue, toModelSummaries, type ChatSession, type ModelLike, type SessionEvent } from '../../../core';
import { MAX_INSTRUCTIONS_NAME, MAX_MODEL_ID, MAX_NOTICE, MAX_QUEUED, MAX_TEXT, clip, type ChatSettings, type ChatStatus, type HostMessage, type InstructionsView } from '../../../protocol';
import { conversationMessageOf, eventMessages } from './presenter';
import { loadQueue, saveQueue, type QueueStore } from './savedQueue';

export { messageView } from './presenter';

/** What became of a message given to `send`. */
export type SendOutcome = 'sent' | 'queued' | 'refused';

export type { QueueStore } from './savedQueue';

/** What the controller reads of the settings, models and key. */
export interface ChatControllerDeps {
  session: ChatSession;
  settings: () => { model: string; search: boolean; temperature: number; fontSize: number; baseUrl: string };
  models: () => { models: readonly ModelLike[] | undefined; loading: boolean; error: string | undefined; costOf(id: string): number | null };
  /** Whether a key is known now (no prompt). */
  hasKey: () => boolean;
  /** Why the workspace's service address is not used, when it is not. */
  addressNotice?: () => string | undefined;
  modelNotice?: () => string | undefined;
  /** The project instructions file as the panel shows it, when there is one. */
  instructions?: () => InstructionsView | undefined;
  /** Reads the key from the secret store; true when there is one. */
  loadKey: () => Promise<boolean>;
  /** Asks for a model (quick pick); true when one is chosen. */
  pickModel: () => Promise<boolean>;
  /** Tells the user a send was refused because a reply is running. */
  notifyBusy: () => void;
  /** The credit balance now, when known. */
  balanceTotal?: () => number | undefined;
  /** Tells the user the balance cannot pay for a message of this cost (nothing was sent). */
  notifyCannotPay?: (cost: number, total: number) => void;
  /** The surface showing the chat (queued until it is ready); undefined when none is open. */
  post: (message: HostMessage) => void;
  /** Tells the user a message is over the length the chat can take (it stays in the box). */
  notifyTooLong?: (length: number, max: number) => void;
  /** Keeps the queue with its conversation, so a reload does not lose what was typed. */
  queueStore?: QueueStore;
  /** Whether a text holds the user's API key (such a text is neither sent, queued nor kept). */
  holdsKey?: (text: string) => Promise<boolean>;
  /** Tells the user an edit of a queued message was refused because it holds the API key. */
  notifyHoldsKey?: () => void;
  /** The user's aiChat.systemPrompt and the project instructions as a request would carry them. */
  systemTexts?: () => { setting: string; instructions: string };
}

export class ChatController {
  private queue: MessageQueue = emptyQueue();
  /** The conversation the queued messages belong to: they never go into another one. */
  private queueOf: string | undefined;
  private queueSeq = 0;
  private outOfCredits = false;

  constructor(private readonly deps: ChatControllerDeps) {}

  queueMessage(): HostMessage {
    const q = this.queue;
    return { type: 'queue', items: q.items.map((m) => ({ id: m.id, text: m.text, ...(m.cost !== undefined ? { cost: m.cost } : {}) })), state: q.state, ...(q.reason ? { reason: q.reason } : {}) };
  }

  private setQueue(q: MessageQueue): void {
    this.queue = q;
    this.saveQueue();
    this.deps.post(this.queueMessage());
  }

  /** The queue is kept with the conversation it belongs to (nothing when empty). */
  private saveQueue(): void {
    if (this.deps.queueStore) saveQueue(this.deps.queueStore, this.queueOf ?? this.deps.session.conversation.id, this.queue);
  }

  /**
   * The conversation of the last window was reopened: its queue comes back, held (stopped) until
   * the user sends it on, edits or clears it. A queue of another conversation is not taken.
   */
  private restoreSavedQueue(): void {
    const saved = this.deps.queueStore && loadQueue(this.deps.queueStore, this.deps.session.conversation.id);
    if (!saved) return;
    this.queueOf = this.deps.session.conversation.id;
    this.queueSeq = Math.max(this.queueSeq, saved.lastSeq);
    this.setQueue({ ...saved.queue, reason: l10n.t('Not sent before the window closed') });
  }

  /**
   * The chat shows another conversation (new, opened, restored, deleted): the queue of the one left
   * is kept with it, held, and never sent into this one; this one's own kept queue comes back.
   */
  private followConversation(): void {
    const current = this.deps.session.conversation.id;
    if (this.queue.items.length > 0 && this.queueOf !== undefined && this.queueOf !== current) {
      this.queue = stopQueue(this.queue, l10n.t('Not sent before you left this conversation'));
      this.saveQueue();
      this.queue = emptyQueue();
      this.queueOf = undefined;
      this.deps.post(this.queueMessage());
    }
    if (this.queue.items.length === 0) this.restoreSavedQueue();
  }

  /** A conversation was deleted: its queued messages go with it (in memory and in the workspace's state). */
  dropQueueOf(conversationId: string): void {
    const store = this.deps.queueStore;
    if (store && loadQueue(store, conversationId)) store.save(undefined);
    if (this.queueOf === conversationId) {
      this.queueOf = undefined;
      this.setQueue(clearQueue());
    }
  }

  queueRemove(id: string): void {
    this.setQueue(removeQueued(this.queue, id));
  }

  async queueEdit(id: string, text: string): Promise<void> {
    if (this.deps.holdsKey && (await this.deps.holdsKey(text))) {
      // The card goes back to the text it had.
      this.deps.post(this.queueMessage());
      this.deps.notifyHoldsKey?.();
      return;
    }
    this.setQueue(editQueued(this.queue, id, text));
  }

  queueClear(): void {
    this.setQueue(clearQueue());
  }

  /** Resume after a failure or Stop: sends the next message now when no reply runs. */
  async queueResume(): Promise<void> {
    this.setQueue(resumeQueue(this.queue));
    if (!this.deps.session.busy) await this.sendNextQueued();
  }

  private async sendNextQueued(): Promise<void> {
    const { queue, next } = takeNext(this.queue);
    if (!next) return;
    const total = this.deps.balanceTotal?.();
    if (total !== undefined && !canAfford(total, next.cost)) {
      this.setQueue(stopQueue(this.queue, l10n.t('Not enough credits for the next message.')));
      this.showOutOfCredits();
      return;
    }
    this.setQueue(queue);
    // Sent with the model and price its card showed.
    await this.send(next.text, next.model);
  }

  get session(): ChatSession {
    return this.deps.session;
  }

  status(): ChatStatus {
    const s = this.deps.session;
    return { busy: s.busy, ...(s.sendError ? { sendError: s.sendError } : {}) };
  }

  settings(): ChatSettings {
    const s = this.deps.settings();
    const models = this.deps.models();
    // Strings that come from settings are cut to what the webview takes (it drops a whole snapshot otherwise).
    const rawNotice = this.deps.addressNotice?.();
    const notice = rawNotice === undefined ? undefined : clip(rawNotice, MAX_NOTICE);
    const shown = this.deps.instructions?.();
    const instructions = shown ? { ...shown, name: clip(shown.name, MAX_INSTRUCTIONS_NAME), text: clip(shown.text, MAX_NOTICE) } : undefined;
    const rawModelNotice = this.deps.modelNotice?.();
    const modelNotice = rawModelNotice === undefined ? undefined : clip(rawModelNotice, MAX_NOTICE);
    return {
      models: toModelSummaries(models.models ?? []),
      modelsLoading: models.loading,
      ...(models.error !== undefined && !models.models ? { modelsError: models.error } : {}),
      selectedModel: s.model,
      selectedModelCost: s.model ? models.costOf(s.model) : null,
      search: s.search,
      temperature: s.temperature,
      fontSize: s.fontSize,
      hasKey: this.deps.hasKey(),
      ...(notice ? { addressNotice: notice } : {}),
      ...(modelNotice ? { modelNotice } : {}),
      ...(instructions ? { instructions } : {}),
      ...this.outOfCreditsView(s.model, models),
    };
  }

  /** The out-of-credits card is open (the panel sends settings when the balance changes). */
  get outOfCreditsOpen(): boolean {
    return this.outOfCredits;
  }

  /** A message the balance could not pay (refused here or by the service): the card in the chat. */
  showOutOfCredits(): void {
    this.outOfCredits = true;
    this.settingsChanged();
  }

  dismissOutOfCredits(): void {
    this.outOfCredits = false;
    this.settingsChanged();
  }

  /** The card while the balance cannot pay the selected model; it closes once it can. */
  private outOfCreditsView(model: string, models: ReturnType<ChatControllerDeps['models']>): { outOfCredits?: OutOfCreditsCard } {
    if (!this.outOfCredits) return {};
    const total = this.deps.balanceTotal?.();
    if (total === undefined) return {};
    const card = outOfCreditsCard(total, model, model ? models.costOf(model) : null, models.models ?? []);
    if (!card) this.outOfCredits = false;
    return card ? { outOfCredits: { ...card, model: clip(card.model, MAX_MODEL_ID) } } : {};
  }

  /**
   * The message that puts the whole conversation on a surface (open, switch, restore, a new
   * surface), with the session's version; `notice` says why it is not the one the user had.
   */
  conversationMessage(notice?: string): HostMessage {
    return conversationMessageOf(this.deps.session, this.status(), notice);
  }

  settingsMessage(): HostMessage {
    return { type: 'settings', settings: this.settings() };
  }

  /** Everything a surface needs when it (re)starts: settings, then the conversation. */
  initialMessages(): HostMessage[] {
    return [this.settingsMessage(), this.conversationMessage(), this.queueMessage()];
  }

  /** Translates one domain event of the session into what the webview is told. */
  toMessages(event: SessionEvent): HostMessage[] {
    // Told right after the event: the session's version is the event's.
    return eventMessages(event, this.deps.session.version, this.status(), () => this.conversationMessage());
  }

  /** Called with every event of the session. */
  onSessionEvent(event: SessionEvent): void {
    for (const m of this.toMessages(event)) this.deps.post(m);
    if (event.type === 'conversationChanged') this.followConversation();
    if (event.type !== 'turnEnded' || this.queue.items.length === 0) return;
    // A reply that did not complete (error, 402, network, Stop) holds the queue until the user resumes it.
    if (event.message.status !== 'complete') {
      this.setQueue(stopQueue(this.queue, event.message.status === 'stopped' ? l10n.t('Stopped') : l10n.t('The reply failed')));
      return;
    }
    setTimeout(() => void this.sendNextQueued(), 0);
  }

  /** Settings, models or the key changed: only the settings snapshot is sent. */
  settingsChanged(): void {
    this.deps.post(this.settingsMessage());
  }

  /**
   * The gate's verdict (core/chat/sendGate.ts, the same for every surface) on sending `text` with
   * `model` (default: the selected one) now. Every check of a send, Retry and Continue is there.
   */
  private async verdict(text: string, model: string | undefined, queueing: boolean): Promise<GateVerdict> {
    const system = this.deps.systemTexts?.() ?? { setting: '', instructions: '' };
    // The key is read once; the texts are checked against it (the text, the system prompt, the instructions).
    const held = new Map<string, boolean>();
    for (const t of [text, system.setting, system.instructions]) {
      if (t && !held.has(t)) held.set(t, this.deps.holdsKey ? await this.deps.holdsKey(t) : false);
    }
    const target = model || this.deps.settings().model;
    const models = this.deps.models();
    const input: GateInput = {
      text,
      ...(queueing ? { maxChars: MAX_TEXT } : {}),
      holdsKey: (t) => held.get(t) ?? false,
      systemSetting: system.setting,
      instructions: system.instructions,
      hasKey: this.deps.session.busy && queueing ? true : await this.deps.loadKey(),
      model: target,
      models: models.models,
      cost: target ? models.costOf(target) : null,
      balance: this.deps.balanceTotal?.(),
      ...(queueing ? { busy: this.deps.session.busy, canQueue: this.queue.items.length < MAX_QUEUED } : {}),
    };
    return sendGate(input);
  }

  /**
   * A send from the panel, a selection or a command: the gate decides (send, queue or refuse).
   * `model`: the model a queued message was queued with (else the selected one).
   */
  async send(text: string, model?: string): Promise<SendOutcome> {
    const session = this.deps.session;
    let verdict = await this.verdict(text, model, true);
    // The model is required: asked for on the first send.
    if (verdict.kind === 'refuse' && verdict.reason === 'noModel' && !model && (await this.deps.pickModel()) && this.deps.settings().model) {
      verdict = await this.verdict(text, model, true);
    }
    if (verdict.kind === 'send') {
      await session.send(text, model ? { model } : {});
      return 'sent';
    }
    if (verdict.kind === 'queue') {
      // Typed while a reply streams: queued, sent in order once the reply has finished, with the
      // model (and price) the card shows.
      const queuedModel = model ?? this.deps.settings().model;
      const cost = this.deps.models().costOf(queuedModel);
      if (this.queue.items.length === 0) this.queueOf = session.conversation.id;
      this.setQueue(enqueue(this.queue, { id: `q${++this.queueSeq}`, text, model: queuedModel, ...(cost !== null ? { cost } : {}) }));
      return 'queued';
    }
    switch (verdict.reason) {
      case 'tooLong':
        // Over what the chat can show or queue: it stays in the box (the panel puts back what the user typed).
        this.deps.post({ type: 'restoreInput', text });
        this.deps.notifyTooLong?.(text.length, MAX_TEXT);
        break;
      case 'busy':
        this.deps.post({ type: 'restoreInput', text });
        this.deps.notifyBusy();
        break;
      case 'noModel':
        this.deps.post({ type: 'restoreInput', text });
        this.settingsChanged();
        break;
      case 'cannotPay': {
        this.deps.post({ type: 'restoreInput', text });
        const total = this.deps.balanceTotal?.() ?? 0;
        this.deps.notifyCannotPay?.(this.deps.models().costOf(model || this.deps.settings().model) ?? 0, total);
        this.showOutOfCredits();
        break;
      }
      case 'noKey':
        session.rejectSend(text, errorToView({ kind: 'auth', code: 'MISSING_API_KEY' }, this.deps.settings().baseUrl));
        break;
      case 'holdsKey':
        // Checked before anything keeps the text (the queue, the conversation file, the service): not kept for Retry either.
        session.rejectSend(text, verdict.error, false);
        break;
      case 'systemPromptHoldsKey':
      case 'instructionsHoldKey':
      case 'unusableModel':
      case 'overBudget':
        session.rejectSend(text, verdict.error);
        break;
    }
    return 'refused';
  }

  /** Retry of a failed or stopped reply (the model may have been unset since). */
  async retry(): Promise<void> {
    if (this.deps.session.busy) return;
    if (!(await this.resendAllowed())) return;
    await this.deps.session.retry();
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
    const modelMissing = (v: GateVerdict) => v.kind === 'refuse' && (v.reason === 'noModel' || v.reason === 'unusableModel');
    let verdict = await this.verdict('', undefined, false);
    if (modelMissing(verdict)) {
      if (!(await this.deps.pickModel())) return false;
      verdict = await this.verdict('', undefined, false);
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
}
