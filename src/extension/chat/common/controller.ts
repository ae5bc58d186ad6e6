// The chat controller: every message from the chat's webview comes in here and everything posted
// back goes out from here, built by the presenter (what a surface needs when it starts too). The
// session's domain events are translated here; a send is judged by the one turn pipeline through
// its port (chatSends.ts); what only VS Code can do (commands, links, files, settings, the chips) is
// handed to the host. VS Code-free (its surfaces, settings and prompts are injected), so it is
// unit-tested directly.
import * as l10n from '@vscode/l10n';
import type { SentItem, SessionEvent } from '../../../core';
import type { ChatSettings, ChatStatus, HostMessage, WebviewMessage } from '../../../protocol';
import { isSafeConversationId } from '../../platform/links';
import type { ChatControllerDeps } from './chatPorts';
import { ChatSends, type SendOutcome } from './chatSends';
import { ConversationQueue } from './conversationQueue';
import { OutOfCreditsCardState } from './outOfCreditsCard';
import { box, chipsMessageOf, conversationMessageOf, eventMessages, promptListMessageOf, settingsMessageOf, settingsView, transcript } from './presenter';
import { sendWithAttachments } from './sendWithAttachments';

export type { ChatControllerDeps, ChatHost, HostAction, SummaryActions } from './chatPorts';
export type { SendOutcome } from './chatSends';
export type { QueueStore } from './savedQueue';

export class ChatController {
  /** The messages typed while a reply streams, with their conversation (remove, clear, drop go straight to it). */
  readonly queued: ConversationQueue;
  /** The out-of-credits card (it opens and closes itself; the settings snapshot carries it). */
  private readonly card = new OutOfCreditsCardState(() => this.settingsChanged());
  private readonly sends: ChatSends;
  /** The message being sent with attachments: a returned input gets back only the user's text. */
  private sending: { full: string; text: string } | undefined;

  constructor(private readonly deps: ChatControllerDeps) {
    this.queued = new ConversationQueue({ current: () => deps.session.conversation.id, post: (m) => this.post(m), ...(deps.queueStore ? { store: deps.queueStore } : {}) });
    this.sends = new ChatSends({
      ...deps,
      queued: this.queued,
      selectedModel: () => deps.settings().model,
      post: (m) => this.post(m),
      settingsChanged: () => this.settingsChanged(),
      showOutOfCredits: () => this.showOutOfCredits(),
      pinned: async () => (await this.deps.attachments?.pinned?.()) ?? [],
    });
  }

  /** Every message from the chat's webview (parsed by the surface's host). */
  async receive(msg: WebviewMessage): Promise<void> {
    const { session, summaries } = this.deps;
    switch (msg.type) {
      case 'ready':
        return this.start();
      case 'send':
        if (msg.editOf && session.busy) {
          // The edit of an earlier question is not queued: the text stays in the box.
          this.post(box.restore(msg.text));
          return this.deps.notifyBusy();
        }
        // The edit of an earlier question: the session's send starts a branch there.
        session.variants.editNext(msg.editOf);
        try {
          await this.sendTyped(msg.text, msg.model);
        } finally {
          session.variants.editNext(undefined);
        }
        return;
      case 'stop':
        return session.stop();
      case 'retry':
        return this.retry();
      case 'continue':
        return this.continueReply();
      case 'queueRemove':
        return this.queued.remove(msg.id);
      case 'queueEdit':
        return this.queueEdit(msg.id, msg.text);
      case 'queueResume':
        return this.queueResume();
      case 'queueClear':
        return this.queued.clear();
      case 'dismissOutOfCredits':
        return this.card.dismiss();
      case 'editLast':
        if (!(await this.replyMayLeave(msg.messageId))) return;
        await session.editLast(msg.messageId);
        return;
      case 'fork':
        if (!(await this.fork(msg.messageId)) && !session.busy) this.deps.host?.warn(l10n.t('That message could not be forked: it is not in the conversation any more.'));
        return;
      case 'newChat':
        return session.newChat();
      case 'loadConversation':
        if (!isSafeConversationId(msg.id) || !(await session.open(msg.id))) this.deps.host?.warn(l10n.t('That conversation could not be opened.'));
        return;
      case 'draft':
        return this.draftChanged(msg.text);
      case 'sendFewer':
        // The service said the input is too long: half the earlier turns, the same text.
        session.fewerEarlierTurns();
        if (msg.text === undefined) return this.retry();
        await this.sendTyped(msg.text);
        return;
      case 'summarize':
        // The meter's button showed the price.
        await summaries?.start(false);
        return;
      case 'summaryStop':
        return summaries?.stop();
      case 'summaryEdit':
        return summaries?.edit(msg.text);
      case 'summaryRemove':
        return summaries?.remove();
      case 'retryWith':
        return this.retryWith(msg.messageId);
      case 'showVariant':
        await session.variants.show(msg.messageId, { step: msg.step });
        return;
      case 'showBranch':
        await session.variants.showBranch(msg.messageId, msg.step);
        return;
      case 'showHiddenMessage':
        await session.variants.reveal(msg.messageId);
        return;
      case 'compareVariants': {
        const all = session.variants.of(msg.messageId);
        const shown = all.find((v) => v.id === msg.messageId);
        if (shown && all.length > 1) await this.deps.compareVariants?.(all, shown);
        return;
      }
      case 'chatFocused':
        // What other windows added to the conversation, shown without a send.
        await session.showLatest();
        return;
      default:
        await this.deps.host?.act(msg);
        // A model picked (or refused): the settings say which one is selected.
        if (msg.type === 'selectModel') this.settingsChanged();
    }
  }

  /**
   * Edit (of `questionId`, else the last question) or Retry takes out the reply after it: the
   * host may ask first (its changes to files were applied: undo them too?); false: the user
   * cancelled.
   */
  private async replyMayLeave(questionId?: string): Promise<boolean> {
    const messages = this.deps.session.conversation.messages;
    let i = questionId ? messages.findIndex((m) => m.id === questionId) : messages.length - 1;
    if (questionId && i >= 0) i++;
    const reply = messages[i];
    if (!reply || reply.role !== 'assistant' || !this.deps.replyLeaving) return true;
    return this.deps.replyLeaving(reply.id);
  }

  /** A surface's page said `ready`: what it needs when it starts, in order. */
  private async start(): Promise<void> {
    const host = this.deps.host;
    if (!host) return;
    const surface = host.surfaceReady();
    // The conversation sent now holds everything of the running turn so far: of what was posted
    // before, only what is not part of it stays.
    const earlier = surface.earlier.filter((m) => m.type === 'restoreInput' || m.type === 'focusInput' || m.type === 'insertPrompt');
    this.post(this.settingsMessage());
    // The conversation of the last window first (a view resolved after a reload): the webview
    // shows "Opening…" meanwhile, never an empty chat for it.
    await host.restoreCurrent();
    if (!surface.stillShown()) return;
    for (const m of this.surfaceState()) this.post(m);
    for (const m of earlier) this.post(m);
    this.deps.meter?.setDraft(host.draft.load() ?? '', false);
    this.deps.meter?.update(true);
    void host.accountRead().then(() => this.settingsChanged());
  }

  /** Everything a surface needs when it (re)starts, in order: the settings, then what `surfaceState` gives. */
  initialMessages(): HostMessage[] {
    return [this.settingsMessage(), ...this.surfaceState()];
  }

  /** The conversation, its queue, the chips, the slash commands, and the draft kept for a reload. */
  private surfaceState(): HostMessage[] {
    const { attachments, prompts } = this.deps;
    // The webview keeps its draft in its own state; the host's copy covers a reload that lost it.
    const draft = this.deps.host?.draft.load();
    return [
      this.conversationMessage(),
      this.queueMessage(),
      ...(attachments ? [chipsMessageOf(attachments.chips())] : []),
      ...(prompts ? [promptListMessageOf(prompts())] : []),
      ...[this.deps.replyChanges?.()].filter((m): m is HostMessage => !!m),
      ...(draft ? [box.restore(draft)] : []),
    ];
  }

  /** The text in the box changed: the meter follows it, and the host keeps it unless it holds the key (the webview is told which). */
  private async draftChanged(text: string): Promise<void> {
    this.deps.meter?.setDraft(text);
    // The workspace state is a file on disk: a draft with the key in it is not kept there, and the
    // webview neither keeps it in its own state nor lets it go unsaid.
    const holds = !!text && (await this.deps.turns.holdsKey(text));
    await this.deps.host?.draft.save(holds ? undefined : text || undefined);
    this.post(box.draftHoldsKey(holds));
  }

  /** Posts to the surface; text returned to the box while a message with attachments goes is the text the user typed. */
  private post(message: HostMessage): void {
    const s = this.sending;
    this.deps.post(message.type === 'restoreInput' && s && message.text === s.full ? box.restore(s.text) : message);
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

  private status(): ChatStatus {
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
    this.card.show();
  }

  /**
   * The message that puts the whole conversation on a surface (open, switch, restore, a new
   * surface), with the session's version; `notice` says why it is not the one the user had.
   */
  conversationMessage(notice = this.deps.notice?.()): HostMessage {
    return conversationMessageOf(this.deps.session, this.status(), notice);
  }

  /** The whole conversation again, where the chat is (its notice changed). */
  showConversation(): void {
    this.post(this.conversationMessage());
  }

  settingsMessage(): HostMessage {
    return settingsMessageOf(this.settings());
  }

  /** Translates one domain event of the session into what the webview is told. */
  toMessages(event: SessionEvent): HostMessage[] {
    // Told right after the event: the session's version is the event's.
    const session = this.deps.session;
    return eventMessages(event, session.version, this.status(), (notice) => conversationMessageOf(session, this.status(), notice), session.conversation);
  }

  /** Called with every event of the session. */
  onSessionEvent(event: SessionEvent): void {
    for (const m of this.toMessages(event)) this.post(m);
    this.sends.queueAfter(event);
    this.deps.summaries?.onSessionEvent(event);
    if (event.type === 'conversationChanged' || event.type === 'turnStarted' || event.type === 'turnEnded') this.deps.meter?.update();
    // Another conversation (or this one from disk): its pins are read and shown.
    if (event.type === 'conversationChanged') this.deps.attachments?.pinsChanged?.();
    // A turn refused by the service for want of credits: the card shows it, with the balance just refreshed.
    if (event.type === 'turnSettled' && event.errorKind === 'credits') this.showOutOfCredits();
  }

  /** Settings, models or the key changed: only the settings snapshot is sent. */
  settingsChanged(): void {
    this.post(this.settingsMessage());
  }

  /** The chips changed: the surface shows them, and the meter counts them. */
  chipsChanged(): void {
    if (this.deps.attachments) this.post(chipsMessageOf(this.deps.attachments.chips()));
    this.deps.meter?.update();
  }

  /** The slash commands changed. */
  promptsChanged(): void {
    if (this.deps.prompts) this.post(promptListMessageOf(this.deps.prompts()));
  }

  /** The cursor in the message box. */
  focusInput(): void {
    this.post(box.focus());
  }

  /** An editable prompt added to the message box (not sent); `model`: a prompt's own model for that send. */
  insertPrompt(text: string, model?: { id: string; label: string }): void {
    this.post(box.insert(text, model));
  }

  /** The find bar, with `query` when given. */
  openFind(query?: string): void {
    this.post(transcript.find(query));
  }

  /** A message of the conversation brought into view. */
  reveal(messageId: string): void {
    this.post(transcript.reveal(messageId));
  }

  /** A send from the panel, a selection or a command: the gate decides (send, queue or refuse). */
  send(text: string, model?: string, files?: readonly string[], sent?: readonly SentItem[], pinsWhenSent?: boolean): Promise<SendOutcome> {
    return this.sends.send(text, model, files, sent, pinsWhenSent);
  }

  /** A message typed in the chat (or given by a command), with the chips above the box. */
  sendTyped(text: string, model?: string): Promise<SendOutcome> {
    const chips = this.deps.attachments;
    if (!chips) return this.send(text, model);
    return sendWithAttachments(text, chips, this, this.deps.session, (s) => (this.sending = s), model);
  }

  async retry(): Promise<void> {
    if (!(await this.replyMayLeave())) return;
    return this.sends.retry();
  }

  /** Retry with…: the user picks a model (with its price; the current one first), and the reply gets a new variant from it. */
  async retryWith(replyId: string): Promise<void> {
    const { session, pickVariantModel } = this.deps;
    if (session.busy) return this.deps.notifyBusy();
    const model = await pickVariantModel?.(session.conversation.messages.find((m) => m.id === replyId)?.meta?.model);
    if (model) await this.sends.retryWith(replyId, model);
  }

  continueReply(): Promise<void> {
    return this.sends.continueReply();
  }

  fork(messageId: string): Promise<boolean> {
    return this.sends.fork(messageId);
  }
}
