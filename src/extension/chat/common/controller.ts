// The chat controller: the one translator between the session's domain events and the
// webview protocol; a send is judged by the one turn pipeline through its port (chatSends.ts).
// VS Code-free (its surfaces, settings and prompts are injected), so it is unit-tested directly.
import type { ChatSession, ModelLike, SendJudge, SessionEvent } from '../../../core';
import type { ChatSettings, ChatStatus, HostMessage, InstructionsView } from '../../../protocol';
import { ChatSends, type SendOutcome } from './chatSends';
import { conversationMessageOf, eventMessages, settingsMessageOf, settingsView } from './presenter';
import { ConversationQueue } from './conversationQueue';
import { OutOfCreditsCardState } from './outOfCreditsCard';
import type { QueueStore } from './savedQueue';

export { messageView } from './presenter';
export type { SendOutcome } from './chatSends';
export type { QueueStore } from './savedQueue';

/** What the controller reads of the settings and models, and the pipeline it asks. */
export interface ChatControllerDeps {
  session: ChatSession;
  /** The one turn pipeline (TurnService): the verdict on a send, the balance, whether a text holds the key. */
  turns: SendJudge;
  settings: () => { model: string; search: boolean; temperature: number; fontSize: number; baseUrl: string };
  models: () => { models: readonly ModelLike[] | undefined; loading: boolean; error: string | undefined; costOf(id: string): number | null };
  /** Whether a key is known now (no prompt). */
  hasKey: () => boolean;
  /** Why the workspace's service address is not used, when it is not. */
  addressNotice?: () => string | undefined;
  modelNotice?: () => string | undefined;
  /** The project instructions file as the panel shows it, when there is one. */
  instructions?: () => InstructionsView | undefined;
  /** Asks for a model (quick pick); true when one is chosen. */
  pickModel: () => Promise<boolean>;
  /** Tells the user a send was refused because a reply is running. */
  notifyBusy: () => void;
  /** Tells the user the balance cannot pay for a message of this cost (nothing was sent). */
  notifyCannotPay?: (cost: number, total: number) => void;
  /** The surface showing the chat (queued until it is ready); undefined when none is open. */
  post: (message: HostMessage) => void;
  /** Tells the user a message is over the length the chat can take (it stays in the box). */
  notifyTooLong?: (length: number, max: number) => void;
  /** Keeps the queue with its conversation, so a reload does not lose what was typed. */
  queueStore?: QueueStore;
  /** Tells the user an edit of a queued message was refused because it holds the API key. */
  notifyHoldsKey?: () => void;
}

export class ChatController {
  /** The messages typed while a reply streams, with their conversation (remove, clear, drop go straight to it). */
  readonly queued: ConversationQueue;
  /** The out-of-credits card. */
  private readonly card = new OutOfCreditsCardState();
  private readonly sends: ChatSends;

  constructor(private readonly deps: ChatControllerDeps) {
    this.queued = new ConversationQueue({ current: () => deps.session.conversation.id, post: (m) => deps.post(m), ...(deps.queueStore ? { store: deps.queueStore } : {}) });
    this.sends = new ChatSends({
      ...deps,
      queued: this.queued,
      selectedModel: () => deps.settings().model,
      settingsChanged: () => this.settingsChanged(),
      showOutOfCredits: () => this.showOutOfCredits(),
    });
  }

  queueMessage(): HostMessage {
    return this.queued.message();
  }

  queueEdit(id: string, text: string): Promise<void> {
    return this.sends.queueEdit(id, text);
  }

  /** Resume after a failure or Stop: sends the next message now when no reply runs. */
  queueResume(): Promise<void> {
    return this.sends.queueResume();
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
      outOfCredits: this.card.view(this.deps.turns.balance(), s.model, models),
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
    return settingsMessageOf(this.settings());
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
    this.sends.queueAfter(event);
  }

  /** Settings, models or the key changed: only the settings snapshot is sent. */
  settingsChanged(): void {
    this.deps.post(this.settingsMessage());
  }

  /** A send from the panel, a selection or a command: the gate decides (send, queue or refuse). */
  send(text: string, model?: string): Promise<SendOutcome> {
    return this.sends.send(text, model);
  }

  /** Retry of a failed or stopped reply (the model may have been unset since). */
  retry(): Promise<void> {
    return this.sends.retry();
  }

  /** Continue of a reply cut at the model's length limit (a new turn: the same checks as a send). */
  continueReply(): Promise<void> {
    return this.sends.continueReply();
  }

  /** A new conversation from the current one, up to a message (not while a reply runs). */
  fork(messageId: string): Promise<boolean> {
    return this.sends.fork(messageId);
  }
}
