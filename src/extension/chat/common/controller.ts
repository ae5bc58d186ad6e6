// The chat controller: the one translator between the session's domain events and the
// webview protocol; a send is judged by the one gate (core/chat/sendGate.ts).
// VS Code-free (its surfaces, settings and prompts are injected), so it is unit-tested directly.
import * as l10n from '@vscode/l10n';
import { canAfford, sendGate, type GateInput, type GateVerdict, type ChatSession, type ModelLike, type SessionEvent } from '../../../core';
import { MAX_QUEUED, MAX_TEXT, type ChatSettings, type ChatStatus, type HostMessage, type InstructionsView } from '../../../protocol';
import { conversationMessageOf, eventMessages, settingsView } from './presenter';
import { ConversationQueue } from './conversationQueue';
import { OutOfCreditsCardState } from './outOfCreditsCard';
import type { QueueStore } from './savedQueue';

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
  /** The credit balance now, when known; `refreshBalance` asks the service again. */
  balanceTotal?: () => number | undefined;
  refreshBalance?: () => Promise<unknown>;
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
  /** The messages typed while a reply streams, with their conversation (remove, clear, drop go straight to it). */
  readonly queued: ConversationQueue;
  /** The out-of-credits card. */
  private readonly card = new OutOfCreditsCardState();

  constructor(private readonly deps: ChatControllerDeps) {
    this.queued = new ConversationQueue({ current: () => deps.session.conversation.id, post: (m) => deps.post(m), ...(deps.queueStore ? { store: deps.queueStore } : {}) });
  }

  queueMessage(): HostMessage {
    return this.queued.message();
  }

  async queueEdit(id: string, text: string): Promise<void> {
    if (this.deps.holdsKey && (await this.deps.holdsKey(text))) {
      // The card goes back to the text it had.
      this.queued.show();
      this.deps.notifyHoldsKey?.();
      return;
    }
    this.queued.edit(id, text);
  }

  /** Resume after a failure or Stop: sends the next message now when no reply runs. */
  async queueResume(): Promise<void> {
    this.queued.resume();
    if (!this.deps.session.busy) await this.sendNextQueued();
  }

  private async sendNextQueued(): Promise<void> {
    const first = this.queued.peek();
    if (!first) return;
    const total = this.deps.balanceTotal?.();
    if (total !== undefined && !canAfford(total, first.cost)) {
      this.queued.stop(l10n.t('Not enough credits for the next message.'));
      this.showOutOfCredits();
      return;
    }
    const next = this.queued.next();
    if (!next) return;
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
    return settingsView({
      settings: s,
      models,
      hasKey: this.deps.hasKey(),
      addressNotice: this.deps.addressNotice?.(),
      modelNotice: this.deps.modelNotice?.(),
      instructions: this.deps.instructions?.(),
      outOfCredits: this.card.view(this.deps.balanceTotal?.(), s.model, models),
    });
  }

  /** The out-of-credits card is open (the panel sends settings when the balance changes). */
  get outOfCreditsOpen(): boolean {
    return this.card.open;
  }

  /** A message the balance could not pay (refused here or by the service): the card in the chat. */
  showOutOfCredits(): void {
    this.card.open = true;
    this.settingsChanged();
  }

  dismissOutOfCredits(): void {
    this.card.open = false;
    this.settingsChanged();
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
    return eventMessages(event, this.deps.session.version, this.status(), (notice) => this.conversationMessage(notice));
  }

  /** Called with every event of the session. */
  onSessionEvent(event: SessionEvent): void {
    for (const m of this.toMessages(event)) this.deps.post(m);
    if (event.type === 'conversationChanged') this.queued.follow(event.restored === true);
    // Its queued messages go with a deleted conversation, current or not.
    if (event.type === 'conversationRemoved') this.queued.drop(event.id);
    // Messages typed while a summary was written go once it has ended.
    if (event.type === 'summaryEnded' && this.queued.length > 0) setTimeout(() => void this.sendNextQueued(), 0);
    if (event.type !== 'turnEnded' || this.queued.length === 0) return;
    // A reply that did not complete (error, 402, network, Stop) holds the queue until the user resumes it.
    if (event.message.status !== 'complete') {
      this.queued.stop(event.message.status === 'stopped' ? l10n.t('Stopped') : l10n.t('The reply failed'));
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
      ...(queueing ? { busy: this.deps.session.busy, canQueue: this.queued.length < MAX_QUEUED } : {}),
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
    // The balance shown may be old (credits bought since): asked for again before refusing.
    if (verdict.kind === 'refuse' && verdict.reason === 'cannotPay' && this.deps.refreshBalance) {
      await this.deps.refreshBalance();
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
      this.queued.add(text, queuedModel, cost);
      return 'queued';
    }
    const reason = verdict.reason;
    if (reason === 'tooLong' || reason === 'busy' || reason === 'noModel' || reason === 'cannotPay') {
      // The text stays in the box; a notification, the model list or the out-of-credits card says why.
      this.deps.post({ type: 'restoreInput', text });
      if (reason === 'tooLong') this.deps.notifyTooLong?.(text.length, MAX_TEXT);
      else if (reason === 'busy') this.deps.notifyBusy();
      else if (reason === 'noModel') this.settingsChanged();
      else {
        this.deps.notifyCannotPay?.(this.deps.models().costOf(model || this.deps.settings().model) ?? 0, this.deps.balanceTotal?.() ?? 0);
        this.showOutOfCredits();
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
