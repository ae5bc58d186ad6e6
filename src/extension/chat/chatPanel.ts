// The chat in VS Code, wired: one controller for every surface (side bar view, secondary side bar
// view, editor panel; see chat/chatSurfaces.ts), which takes every message of the webview and
// builds what is posted back; the host that does in VS Code what the webview asks
// (chat/chatHost.ts); and the commands' entry points (show, focus, send, new chat, history). The
// conversation is the session's; a send is judged by the one turn pipeline (TurnService).
import * as vscode from 'vscode';
import { budgetForModel, folderBudgetChars, keepTurn, type ChatSession, type ConversationStore, type SessionEvent } from '../../core';
import type { HostMessage } from '../../protocol';
import { chatHost } from './chatHost';
import { ChatSurfaces } from './chatSurfaces';
import { ChatController } from './common/controller';
import { ContextMeterFeed } from './common/contextMeter';
import { summaryRoom } from './summaryRoom';
import { ContextAttachments } from '../context/attachments';
import { HashMenuHost } from '../context/hashMenu';
import type { CodebaseName } from '../codebase/codebaseService';
import { PromptFiles } from '../promptFiles/promptFileWatcher';
import type { TurnService } from '../pipeline/turnService';
import type { BalanceService } from '../account/balanceService';
import type { ConfigService } from '../platform/config';
import type { EditorTracker } from '../platform/editorTracker';
import type { InstructionsService } from '../pipeline/instructionsFile';
import type { ApplyToFile } from '../applyToFile/applyToFile';
import { showHistory } from '../history/history';
import { LastConversation } from './lastConversation';
import { ReplyChanges } from '../changes/replyChanges';
import { SettingsFeed } from './settingsFeed';
import { pickQuestion } from './goToQuestion';
import type { ApiKeyStore } from '../account/keyStore';
import type { Logger } from '../platform/log';
import { addressNotice } from '../platform/serviceAddress';
import type { ModelService } from '../account/modelService';
import { pickRetryModel } from '../variants/retryWithPick';
import { VariantCompare } from '../variants/compareVariants';

export { CHAT_VIEW_TYPE, CHAT_SIDEBAR_VIEW, CHAT_SECONDARY_VIEW, CHAT_VIEWS, chatLocation, type ChatLocation } from './chatSurfaces';

/** The queue of the current conversation, kept for the next window (see ChatController). */
const QUEUE_KEY = 'aiChat.queue';

export interface ChatPanelDeps {
  context: vscode.ExtensionContext;
  /** Built by the composition root; its events reach onSessionEvent. */
  session: ChatSession;
  config: ConfigService;
  keys: ApiKeyStore;
  models: ModelService;
  balance: BalanceService;
  /** The one turn pipeline: the gate's facts and the session's port. */
  turns: TurnService;
  store: ConversationStore;
  editors: EditorTracker;
  instructions: InstructionsService;
  /** The repository's rules were read again or turned off or on (what the next request holds changes). */
  rulesChanged: vscode.Event<void>;
  apply: ApplyToFile;
  logger: Logger;
  /** A reply's charge settled (undefined: unknown), or the reply failed for want of credits. */
  onReplyCharged?: (charged: number | undefined, errorKind: string | undefined) => void;
  /** A message the balance cannot pay was held back. */
  onCannotPay?: () => void;
  /** The names the workspace's files define, from the codebase index (the `#` menu's quick symbols). */
  codebaseNames?: (query: string) => Promise<CodebaseName[]>;
}

export class ChatPanelController implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  readonly session: ChatSession;
  readonly controller: ChatController;
  /** The side bar view or the editor panel showing the chat. */
  readonly surfaces: ChatSurfaces;
  /** The chips of the next message. */
  readonly attachments: ContextAttachments;
  /** The slash commands of the `/` menu (built-ins, the user's own, the workspace's prompt files). */
  readonly prompts: PromptFiles;
  /** The conversation of the last window, reopened once. */
  private readonly last: LastConversation;
  /** Compare of a reply's variants (the diff editor's documents). */
  private readonly compare = new VariantCompare();
  /** Summaries of earlier turns (the meter's button, /summarize, the command). */
  readonly summaries: ReturnType<typeof summaryRoom>;
  /** A reply's changes across files (Apply All, Undo, Redo). */
  readonly changes: ReplyChanges;

  constructor(private readonly deps: ChatPanelDeps) {
    this.session = deps.session;
    this.last = new LastConversation({ session: deps.session, store: deps.store, logger: deps.logger, noticeChanged: () => this.controller.showConversation() });
    // The pins are the conversation's: kept with it, saved by its store.
    this.attachments = new ContextAttachments(() => vscode.window.activeTextEditor ?? deps.editors.lastEditor(), {
      get: () => this.session.conversation.pins ?? [],
      set: (pins) => {
        const conv = this.session.conversation;
        if (pins.length) conv.pins = pins;
        else delete conv.pins;
        void deps.store.save(conv).catch((err: unknown) => deps.logger.warn('Could not keep the pins', { message: String(err) }));
      },
    }, () => folderBudgetChars(budgetForModel(deps.models.models, deps.config.settings.model, deps.config.settings.contextMaxTokens)));
    this.prompts = new PromptFiles(deps.logger, deps.context.globalStorageUri);
    const post = (m: HostMessage) => this.surfaces.page.post(m);
    // The `#` menu of the box: what can be attached, the workspace's files, folders and symbols.
    const hashMenu = new HashMenuHost({
      attachments: this.attachments,
      editor: () => vscode.window.activeTextEditor ?? deps.editors.lastEditor(),
      post,
      ...(deps.codebaseNames ? { names: deps.codebaseNames } : {}),
    });
    // The context meter and boundary line (the next request against the model's budget).
    const meter = new ContextMeterFeed({
      session: deps.session,
      attachments: () => this.attachments.forMeter(),
      source: () => budgetForModel(deps.models.models, deps.config.settings.model, deps.config.settings.contextMaxTokens).source,
      post,
    });
    this.summaries = summaryRoom({ session: deps.session, turns: deps.turns, meter, post });
    this.changes = new ReplyChanges({
      globalStorage: deps.context.globalStorageUri,
      logger: deps.logger,
      conversationId: () => this.session.conversation.id,
      replyText: (id) => {
        const m = this.session.conversation.messages.find((x) => x.id === id);
        return m && m.role === 'assistant' && (m.status === 'complete' || m.status === 'stopped') ? m.content : undefined;
      },
      post,
    });
    const menu = this.prompts.menu({
      editor: () => deps.editors.lastEditor(),
      models: () => deps.models.models,
      selectedModel: () => deps.config.settings.model,
      insert: (text, model) => this.insertPrompt(text, model),
      newChat: () => this.session.newChat(),
      summarize: () => this.summaries.start(true),
    });
    // Every message of the webview goes to the controller, built just below (messages come later).
    this.surfaces = new ChatSurfaces({
      extensionUri: deps.context.extensionUri,
      logger: deps.logger,
      receive: (message) => this.controller.receive(message),
      conversationMessage: () => this.controller.conversationMessage(),
      queueMessage: () => this.controller.queueMessage(),
      restoreCurrent: (preferred) => this.last.restore(preferred),
      // Closing the panel stops a reply in progress (its partial text is kept); the chat goes back to the view.
      panelClosed: () => this.session.stop(),
      shown: () => this.showLatest(),
    });
    this.controller = new ChatController({
      session: deps.session,
      turns: deps.turns,
      settings: () => deps.config.settings,
      models: () => deps.models,
      hasKey: () => deps.keys.hasKey,
      addressNotice: () => addressNotice(deps.config),
      modelNotice: () => deps.models.workspaceNotice(),
      instructions: () => deps.instructions.view(),
      notice: () => this.last.notice,
      pickModel: async () => !!(await deps.models.pick()),
      pickVariantModel: (replyModel) => pickRetryModel(deps.models, replyModel ?? deps.config.settings.model),
      compareVariants: (all, shown) => this.compare.compare(all, shown),
      notifyBusy: () => void vscode.window.showInformationMessage(vscode.l10n.t('A reply is still being generated. Stop it or wait, then send again.')),
      post,
      // The card in the chat says it; a notification only when the chat is not on screen.
      notifyCannotPay: () => {
        if (!this.isVisible) deps.onCannotPay?.();
      },
      notifyTooLong: (length, max) =>
        void vscode.window.showWarningMessage(
          vscode.l10n.t('The message is too long to send: {0} characters, at most {1}. It is still in the message box.', length.toLocaleString(), max.toLocaleString()),
        ),
      notifyHoldsKey: () =>
        void vscode.window.showWarningMessage(vscode.l10n.t('AI Chat: the queued message was not changed: the new text holds your API key. Take the key out.')),
      queueStore: {
        load: () => deps.context.workspaceState.get<unknown>(QUEUE_KEY),
        save: (value) =>
          void Promise.resolve(deps.context.workspaceState.update(QUEUE_KEY, value)).catch((err: unknown) =>
            deps.logger.warn('Could not keep the queued messages', { message: String(err) }),
          ),
      },
      attachments: this.attachments,
      meter,
      summaries: this.summaries,
      prompts: () => this.prompts.view(),
      host: chatHost({
        ...deps,
        surfaces: this.surfaces,
        attachments: this.attachments,
        restoreCurrent: () => this.last.restore(),
        openHistory: () => this.openHistory(),
        prompts: menu,
        changes: this.changes,
        hashMenu,
      }),
      replyChanges: () => this.changes.message(),
      replyLeaving: (id) => this.changes.leaving(id),
    });
    this.disposables.push(
      this.compare,
      this.changes,
      this.prompts,
      this.prompts.onDidChange(() => this.controller.promptsChanged()),
      this.surfaces,
      this.attachments,
      hashMenu,
      this.attachments.onDidChange(() => this.controller.chipsChanged()),
      vscode.workspace.onDidChangeTextDocument((e) => this.attachments.documentChanged(e.document.uri)),
      new SettingsFeed({ ...deps, controller: this.controller, isOpen: () => this.surfaces.isOpen, alsoUpdate: () => meter.update() }),
      // The rules of the next request follow the rule files and the active editor's file.
      deps.rulesChanged(() => meter.update()),
      vscode.window.onDidChangeActiveTextEditor(() => meter.update()),
      // Back from another window (which may have added turns to this conversation): they are shown.
      vscode.window.onDidChangeWindowState((state) => {
        if (state.focused && this.isVisible) {
          this.showLatest();
          void this.changes.refresh();
        }
      }),
    );
  }

  /** Shows what other windows added to the conversation on screen (the session takes it in). */
  private showLatest(): void {
    this.session.showLatest().catch((err: unknown) => this.deps.logger.warn('Could not read the conversation from disk', { message: String(err) }));
  }

  /** Every event of the session: the controller tells the surface showing the chat. */
  onSessionEvent(event: SessionEvent): void {
    if (event.type === 'conversationChanged') {
      this.last.conversationChanged();
      void this.changes.refresh();
    }
    this.controller.onSessionEvent(event);
    if (event.type === 'turnSettled') this.deps.onReplyCharged?.(event.charged, event.errorKind);
  }

  get isOpen(): boolean {
    return this.surfaces.isOpen;
  }

  /** The chat is on screen (its card can tell the user what a notification would). */
  get isVisible(): boolean {
    return this.surfaces.isVisible;
  }

  /** The conversation of the last session is current (also before the panel was opened). */
  ensureRestored(): Promise<void> {
    return this.last.restore();
  }

  /** Shows the chat where it is: the editor panel when open, else the side bar view. */
  show(preserveFocus = false): Promise<void> {
    return this.surfaces.show(preserveFocus);
  }

  /** Shows the chat and puts the cursor in its message box. */
  async focusInput(): Promise<void> {
    await this.show();
    this.controller.focusInput();
  }

  /** Shows the chat and opens its find bar. */
  async findInChat(query?: string): Promise<void> {
    await this.show();
    this.controller.openFind(query);
  }

  /** Lists the user's messages of the current conversation; the one chosen is shown in the chat. */
  async goToQuestion(): Promise<void> {
    await this.last.restore();
    const id = await pickQuestion(this.session.conversation.messages);
    if (!id) return;
    await this.show();
    this.controller.reveal(id);
  }

  /** Shows the chat and adds an editable prompt to its message box (not sent); `model`: a prompt's own model for that send. */
  async insertPrompt(text: string, model?: { id: string; label: string }): Promise<void> {
    await this.show();
    this.controller.insertPrompt(text, model);
  }

  /** Called by the WebviewPanelSerializer after a window reload. */
  async restore(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const conversationId = LastConversation.savedId(state);
    await this.last.restore(conversationId);
    this.deps.logger.info('Chat panel restored', {
      savedConversation: conversationId !== undefined,
      current: this.session.conversation.id === conversationId ? 'same' : 'other',
      messages: this.session.conversation.messages.length,
    });
    this.surfaces.adoptRestoredPanel(panel);
  }

  /** Sends a message from the panel, a selection or a command (opens the panel first). */
  async sendText(text: string, model?: string): Promise<void> {
    if (!this.surfaces.isOpen) await this.show(true);
    // The project's instructions are read when the chat is first built: the first message waits for that read.
    await this.deps.instructions.ready;
    await this.controller.sendTyped(text, model);
  }

  /** A question and its answer from another surface, kept as a conversation of its own and opened here. */
  async openKeptTurn(question: string, answer: string, model: string): Promise<void> {
    const id = await keepTurn(this.deps.store, question, answer, { model });
    await this.session.open(id);
    await this.show();
  }

  async newChat(): Promise<void> {
    await this.session.newChat();
    await this.show();
    this.controller.focusInput();
  }

  async openHistory(): Promise<void> {
    await showHistory({
      store: this.deps.store,
      currentId: () => this.session.conversation.id,
      // A search's word only a variant not shown holds: that variant is shown.
      open: async (id, query) => (await this.session.open(id)) && (!query || (await this.session.variants.showMatching(query)) || true),
      newChat: () => this.newChat(),
      show: () => this.show(),
      remove: (id) => this.session.remove(id),
      rename: (id, title) => this.session.rename(id, title),
      restoreCurrent: () => this.last.restore(),
      logger: this.deps.logger,
    });
  }

  dispose(): void {
    this.session.stop();
    for (const d of this.disposables) d.dispose();
  }
}
