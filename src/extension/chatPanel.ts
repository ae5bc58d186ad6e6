// The chat's surfaces: the side bar view (a WebviewView) and an editor panel (a WebviewPanel),
// one at a time (lifecycle, HTML and CSP, the queue until the webview is ready, typed
// post/receive), and the VS Code side of what the webview asks for. Opening the panel moves the
// chat there and the view shows a placeholder with a button to bring it back; closing the panel
// brings it back to the view. What a surface shows comes from the chat controller.
import * as vscode from 'vscode';
import { budgetForModel, totalCredits, type ChatSession, type ConversationStore, type ReplyFinished, type SessionEvent } from '../core';
import { fitHostMessage, parseWebviewMessage, type AllowedCommand, type CodeActionKind, type HostMessage, type WebviewMessage } from '../protocol';
import { ChatController } from './chat/controller';
import { ContextMeterFeed } from './chat/contextMeter';
import { sendWithAttachments } from './chat/sendWithAttachments';
import { ContextAttachments } from './context/attachments';
import type { TurnAccounting } from './account/turnAccounting';
import type { BalanceService } from './balanceService';
import type { ClientProvider } from './clientProvider';
import type { ConfigService } from './config';
import type { EditorTracker } from './editorTracker';
import type { InstructionsService } from './instructions';
import type { ApplyToFile } from './apply/applyToFile';
import { showHistory } from './history';
import { chatHtml, placeholderHtml } from './html';
import type { ApiKeyStore } from './keyStore';
import { isSafeConversationId, safeExternalUrl } from './links';
import type { Logger } from './log';
import { REVIEW_COMMAND, addressNotice } from './serviceAddress';
import type { ModelService } from './modelService';
import { WebviewHost, pageNonce } from './platform/webviewHost';

export const CHAT_VIEW_TYPE = 'aiChat.chat';
/** The side bar view (package.json contributes.views), shown while aiChat.chatLocation is "sideBar". */
export const CHAT_SIDEBAR_VIEW = 'aiChat.chatView';
/** The same chat declared in the secondary side bar, shown while aiChat.chatLocation is "secondarySideBar". */
export const CHAT_SECONDARY_VIEW = 'aiChat.chatViewSecondary';
export const CHAT_VIEWS = [CHAT_SIDEBAR_VIEW, CHAT_SECONDARY_VIEW] as const;
export type ChatLocation = 'sideBar' | 'secondarySideBar';

/** Where the user keeps the chat view (the manifest's `when` clauses show one view of the two). */
export function chatLocation(): ChatLocation {
  return vscode.workspace.getConfiguration('aiChat').get<string>('chatLocation') === 'secondarySideBar' ? 'secondarySideBar' : 'sideBar';
}

function chatViewId(): string {
  return chatLocation() === 'secondarySideBar' ? CHAT_SECONDARY_VIEW : CHAT_SIDEBAR_VIEW;
}

/** Where the chat is attached: its webview, and how to bring it to the front. */
interface Surface {
  kind: 'panel' | 'view';
  webview: vscode.Webview;
  /** Page, ready queue, parsed receive and checked post of the webview (set by attach). */
  host?: WebviewHost<WebviewMessage, HostMessage>;
  reveal(preserveFocus: boolean): void;
  /** Shown on screen now (a hidden side bar or a background tab is not). */
  visible(): boolean;
  /** A change of the conversation did not reach the webview: it gets the whole state when next shown. */
  stale?: boolean;
}
const DRAFT_KEY = 'aiChat.draft';
/** The queue of the current conversation, kept for the next window (see ChatController). */
const QUEUE_KEY = 'aiChat.queue';

/** Commands the webview may ask for (the protocol's allowlist), and what they run. */
function runAllowedCommand(command: AllowedCommand, extensionId: string): Thenable<unknown> {
  switch (command) {
    case 'setApiKey':
      return vscode.commands.executeCommand('aiChat.setApiKey');
    case 'showSubscriptions':
      return vscode.commands.executeCommand('aiChat.showSubscriptions');
    case 'selectModel':
      return vscode.commands.executeCommand('aiChat.selectModel');
    case 'openSettings':
      return vscode.commands.executeCommand('workbench.action.openSettings', `@ext:${extensionId}`);
    case 'reviewServiceAddress':
      return vscode.commands.executeCommand(REVIEW_COMMAND);
    case 'openInstructions':
      return vscode.commands.executeCommand('aiChat.openInstructions');
    case 'toggleInstructions':
      return vscode.commands.executeCommand('aiChat.toggleInstructions');
    case 'refreshBalance':
      return vscode.commands.executeCommand('aiChat.refreshBalance');
    case 'pickCheaperModel':
      return vscode.commands.executeCommand('aiChat.pickCheaperModel');
  }
}

export interface ChatPanelDeps {
  context: vscode.ExtensionContext;
  /** Built by the composition root; its events reach onSessionEvent. */
  session: ChatSession;
  config: ConfigService;
  keys: ApiKeyStore;
  models: ModelService;
  balance: BalanceService;
  /** Settles and records the charge of every turn. */
  turns: TurnAccounting;
  clients: ClientProvider;
  store: ConversationStore;
  editors: EditorTracker;
  instructions: InstructionsService;
  apply: ApplyToFile;
  logger: Logger;
  /** A reply's charge settled (undefined: unknown), or the reply failed for want of credits. */
  onReplyCharged?: (charged: number | undefined, errorKind: string | undefined) => void;
  /** A message the balance cannot pay was held back. */
  onCannotPay?: () => void;
}

export class ChatPanelController implements vscode.Disposable, vscode.WebviewViewProvider {
  private panel: vscode.WebviewPanel | undefined;
  private view: vscode.WebviewView | undefined;
  private viewDisposables: vscode.Disposable[] = [];
  /** The surface the chat is attached to (the panel when there is one, else the view). */
  private surface: Surface | undefined;
  /** Called when a view resolves; each returns true once its wait is over. */
  private readonly viewWaiters: Array<() => boolean> = [];
  private panelDisposables: vscode.Disposable[] = [];
  private readonly disposables: vscode.Disposable[] = [];
  readonly session: ChatSession;
  readonly controller: ChatController;
  /** The chips of the next message. */
  readonly attachments: ContextAttachments;
  /** The message being sent with attachments: a returned input gets back only the user's text. */
  private sending: { full: string; text: string } | undefined;
  private restoredCurrent: Promise<void> | undefined;
  /** Why the conversation of the last window is not shown (it could not be reopened). */
  private restoreNotice: string | undefined;
  private settingsTimer: ReturnType<typeof setTimeout> | undefined;
  /** The context meter and boundary line (the next request against the model's budget). */
  private readonly meter: ContextMeterFeed;

  constructor(private readonly deps: ChatPanelDeps) {
    this.session = deps.session;
    this.attachments = new ContextAttachments(() => vscode.window.activeTextEditor ?? deps.editors.lastEditor());
    this.controller = new ChatController({
      session: deps.session,
      settings: () => deps.config.settings,
      models: () => deps.models,
      hasKey: () => deps.keys.hasKey,
      addressNotice: () => addressNotice(deps.config),
      modelNotice: () => deps.models.workspaceNotice(),
      instructions: () => deps.instructions.view(),
      loadKey: async () => !!(await deps.keys.get()),
      pickModel: async () => !!(await deps.models.pick()),
      notifyBusy: () => void vscode.window.showInformationMessage(vscode.l10n.t('A reply is still being generated. Stop it or wait, then send again.')),
      post: (m) => this.post(m),
      balanceTotal: () => (deps.balance.state.balance && !deps.balance.state.error ? totalCredits(deps.balance.state.balance) : undefined),
      // The card in the chat says it; a notification only when the chat is not on screen.
      notifyCannotPay: () => {
        if (!this.isVisible) deps.onCannotPay?.();
      },
      notifyTooLong: (length, max) =>
        void vscode.window.showWarningMessage(
          vscode.l10n.t('The message is too long to send: {0} characters, at most {1}. It is still in the message box.', length.toLocaleString(), max.toLocaleString()),
        ),
      queueStore: {
        load: () => deps.context.workspaceState.get<unknown>(QUEUE_KEY),
        save: (value) =>
          void Promise.resolve(deps.context.workspaceState.update(QUEUE_KEY, value)).catch((err: unknown) =>
            deps.logger.warn('Could not keep the queued messages', { message: String(err) }),
          ),
      },
    });
    this.meter = new ContextMeterFeed({
      session: deps.session,
      attachments: () => this.attachments.attachments,
      source: () => budgetForModel(deps.models.models, deps.config.settings.model, deps.config.settings.contextMaxTokens).source,
      post: (m) => this.post(m),
    });
    this.disposables.push(
      this.attachments,
      this.attachments.onDidChange(() => {
        this.post({ type: 'contextChips', chips: this.attachments.chips() });
        this.meter.update();
      }),
      deps.config.onDidChange(() => this.scheduleSettings()),
      deps.models.onDidChange(() => this.scheduleSettings()),
      deps.instructions.onDidChange(() => this.scheduleSettings()),
      // The out-of-credits card goes once the balance pays a message again.
      deps.balance.onDidChange(() => {
        if (this.controller.outOfCreditsOpen) this.scheduleSettings();
      }),
      deps.keys.onDidChange(() => {
        // A key was set: an error about the key is settled.
        if (deps.keys.hasKey && this.session.sendError?.kind === 'auth') this.session.dismissSendError();
        this.scheduleSettings();
      }),
    );
  }

  /** Every event of the session, for the surface showing the chat. */
  onSessionEvent(event: SessionEvent): void {
    if (event.type === 'conversationChanged') this.restoreNotice = undefined;
    this.controller.onSessionEvent(event);
    if (event.type === 'conversationChanged' || event.type === 'turnStarted' || event.type === 'turnEnded') this.meter.update();
  }

  /**
   * After every turn the balance is brought up to date, and the reply's charge shown once it is
   * known from the balance change.
   */
  replyFinished(info: ReplyFinished): void {
    void this.deps.turns.replyFinished(info).then((charge) => {
      if (charge.charged !== undefined && info.conversationId && info.messageId) {
        this.session.setReplyCredits(info.conversationId, info.messageId, charge.charged);
      }
      // Refused for want of credits: the card, with the balance just refreshed.
      if (info.errorKind === 'credits') this.controller.showOutOfCredits();
      this.deps.onReplyCharged?.(charge.charged, info.errorKind);
    });
  }

  get isOpen(): boolean {
    return this.surface !== undefined;
  }

  /** The chat is on screen (its card can tell the user what a notification would). */
  get isVisible(): boolean {
    return this.surface?.visible() ?? false;
  }

  /** The conversation of the last session is current (also before the panel was opened). */
  ensureRestored(): Promise<void> {
    return this.restoreCurrent();
  }

  /**
   * Reopens the conversation that was current when VS Code last closed (once), through the
   * session: every surface is told. When it cannot be read, the chat says so.
   */
  private restoreCurrent(preferred?: string): Promise<void> {
    this.restoredCurrent ??= (async () => {
      // The recorded pointer wins: a browser window may reload before it saved the panel's state.
      const id = (await this.deps.store.rememberedCurrentId()) ?? preferred;
      if (!id || !isSafeConversationId(id)) return;
      const result = await this.session.restore(id);
      if (result === 'failed') {
        this.restoreNotice = vscode.l10n.t('The last conversation could not be reopened. Look for it in History.');
        this.post(this.controller.conversationMessage(this.restoreNotice));
      }
      this.deps.logger.info('Last conversation', { result, messages: this.session.conversation.messages.length });
    })().catch((err) => this.deps.logger.warn('Could not reopen the last conversation', { message: String(err) }));
    return this.restoredCurrent;
  }

  /** Shows the chat where it is: the editor panel when open, else the side bar view. */
  async show(preserveFocus = false): Promise<void> {
    await this.restoreCurrent();
    if (this.surface) {
      this.surface.reveal(preserveFocus);
      return;
    }
    // Resolves the view (resolveWebviewView attaches the chat to it).
    await vscode.commands.executeCommand(`${chatViewId()}.focus`);
    await this.viewResolved(5000);
    // The view was resolved while the chat was elsewhere (its location just changed).
    if (!this.surface && this.view?.viewType === chatViewId()) this.attachView(this.view);
    // A host without the view (hidden by the user, or never resolved): the editor panel.
    if (!this.surface) await this.openInEditor(preserveFocus);
  }

  /** Shows the chat and puts the cursor in its message box. */
  async focusInput(): Promise<void> {
    await this.show();
    this.post({ type: 'focusInput' });
  }

  /** Shows the chat and adds an editable prompt to its message box (not sent). */
  async insertPrompt(text: string): Promise<void> {
    await this.show();
    this.post({ type: 'insertPrompt', text });
  }

  /** Moves the chat into an editor panel beside the editor (or reveals it there). */
  async openInEditor(preserveFocus = false): Promise<void> {
    if (this.panel) {
      this.panel.reveal(undefined, preserveFocus);
      return;
    }
    await this.restoreCurrent();
    const panel = vscode.window.createWebviewPanel(
      CHAT_VIEW_TYPE,
      vscode.l10n.t('AI Chat'),
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus },
      { enableScripts: true, retainContextWhenHidden: true, localResourceRoots: [this.mediaRoot()] },
    );
    this.attachPanel(panel);
  }

  /** Closes the editor panel: the chat goes back to the side bar view. */
  async moveToSideBar(): Promise<void> {
    this.panel?.dispose();
    await this.show();
  }

  /**
   * Keeps the chat in the view of `location` (the setting is what the manifest's `when` clauses
   * read): the other view goes away, this one is resolved and the chat attached to it.
   */
  async moveToLocation(location: ChatLocation): Promise<void> {
    if (chatLocation() !== location) {
      await vscode.workspace.getConfiguration('aiChat').update('chatLocation', location, vscode.ConfigurationTarget.Global);
    }
    await this.moveToSideBar();
  }

  /** aiChat.chatLocation changed (here or in the settings): the chat follows to the view now shown. */
  async locationChanged(): Promise<void> {
    if (this.surface?.kind === 'panel') return;
    // The view of the old location is disposed once its `when` clause turns false.
    if (this.surface?.kind === 'view' && this.view?.viewType !== chatViewId()) this.unbind();
    await this.show(true);
  }

  /** The side bar view is shown for the first time (or again after it was moved or closed). */
  resolveWebviewView(view: vscode.WebviewView): void {
    for (const d of this.viewDisposables) d.dispose();
    this.viewDisposables = [];
    this.view = view;
    view.webview.options = { enableScripts: true, localResourceRoots: [this.mediaRoot()] };
    // The view shows the conversation the extension goes on with: the last window's, once read.
    void this.restoreCurrent();
    this.viewDisposables.push(
      view.onDidChangeVisibility(() => {
        if (view.visible && this.surface?.webview === view.webview) this.catchUp();
      }),
      view.onDidDispose(() => {
        if (this.view !== view) return;
        for (const d of this.viewDisposables) d.dispose();
        this.viewDisposables = [];
        this.view = undefined;
        // A view moved to another side bar is disposed and resolved again: the reply goes on.
        if (this.surface?.kind === 'view') this.unbind();
      }),
    );
    if (this.panel) this.showPlaceholder(view);
    else this.attachView(view);
    // Waiters for this location's view are done; a view of the other location leaves them waiting.
    const waiting = this.viewWaiters.splice(0).filter((done) => !done());
    this.viewWaiters.push(...waiting);
  }

  /** Resolves once the view has been resolved, or after `ms` (the focus command does not wait for it). */
  private viewResolved(ms: number): Promise<void> {
    if (this.view?.viewType === chatViewId()) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.viewWaiters.push(() => {
        if (this.view?.viewType !== chatViewId()) return false;
        clearTimeout(timer);
        resolve();
        return true;
      });
    });
  }

  private attachView(view: vscode.WebviewView): void {
    if (this.panel || this.view !== view) return;
    this.attach({ kind: 'view', webview: view.webview, reveal: (preserveFocus) => view.show(preserveFocus), visible: () => view.visible }, []);
  }

  /** The view while the chat is in the editor: a line saying so and a button to bring it back. */
  private showPlaceholder(view: vscode.WebviewView): void {
    const webview = view.webview;
    const media = this.mediaRoot();
    webview.html = placeholderHtml({
      cspSource: webview.cspSource,
      nonce: pageNonce(),
      chatCssUri: webview.asWebviewUri(vscode.Uri.joinPath(media, 'chat.css')).toString(),
      codiconCssUri: webview.asWebviewUri(vscode.Uri.joinPath(media, 'dist', 'codicons', 'codicon.css')).toString(),
      text: vscode.l10n.t('The chat is open in the editor.'),
      buttonLabel: vscode.l10n.t('Move Chat to Side Bar'),
    });
    this.viewDisposables.push(
      webview.onDidReceiveMessage((raw: unknown) => {
        if (raw && typeof raw === 'object' && (raw as { type?: unknown }).type === 'bringBack') void this.moveToSideBar();
      }),
    );
  }

  /** Called by the WebviewPanelSerializer after a window reload. */
  async restore(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const conversationId =
      state && typeof state === 'object' && typeof (state as { conversationId?: unknown }).conversationId === 'string'
        ? (state as { conversationId: string }).conversationId
        : undefined;
    await this.restoreCurrent(conversationId);
    this.deps.logger.info('Chat panel restored', {
      savedConversation: conversationId !== undefined,
      current: this.session.conversation.id === conversationId ? 'same' : 'other',
      messages: this.session.conversation.messages.length,
    });
    if (this.panel && this.panel !== panel) {
      // The restored panel is the one on screen: it replaces a stale one.
      const old = this.panel;
      this.unbind();
      this.panel = undefined;
      old.dispose();
    }
    panel.webview.options = { enableScripts: true, localResourceRoots: [this.mediaRoot()] };
    this.attachPanel(panel);
  }

  private mediaRoot(): vscode.Uri {
    return vscode.Uri.joinPath(this.deps.context.extensionUri, 'media');
  }

  private attachPanel(panel: vscode.WebviewPanel): void {
    // The chat leaves the view (a reply in progress goes on, now shown in the panel).
    if (this.surface?.kind === 'view') this.unbind();
    this.panel = panel;
    panel.iconPath = vscode.Uri.joinPath(this.mediaRoot(), 'chat-icon.svg');
    if (this.view) this.showPlaceholder(this.view);
    this.attach({ kind: 'panel', webview: panel.webview, reveal: (preserveFocus) => panel.reveal(undefined, preserveFocus), visible: () => panel.visible }, [
      panel.onDidDispose(() => this.detachPanel(panel)),
      panel.onDidChangeViewState(() => {
        if (panel.visible && this.panel === panel) this.catchUp();
      }),
    ]);
  }

  private attach(surface: Surface, listeners: vscode.Disposable[]): void {
    this.surface = surface;
    const webview = surface.webview;
    const media = this.mediaRoot();
    const host = new WebviewHost<WebviewMessage, HostMessage>({
      webview,
      name: surface.kind === 'panel' ? 'chat panel' : 'chat view', // l10n-ignore: names the webview in the log
      parse: parseWebviewMessage,
      check: fitHostMessage,
      receive: (message) => this.handle(message),
      refused: (message) => this.refused(surface, message),
      undelivered: (message) => {
        if ('version' in message && message.version !== undefined) surface.stale = true;
      },
      logger: this.deps.logger,
    });
    surface.host = host;
    host.setHtml((cspSource, nonce) => chatHtml({
      cspSource,
      nonce,
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(media, 'dist', 'webview.js')).toString(),
      chatCssUri: webview.asWebviewUri(vscode.Uri.joinPath(media, 'chat.css')).toString(),
      renderCssUri: webview.asWebviewUri(vscode.Uri.joinPath(media, 'render.css')).toString(),
      codiconCssUri: webview.asWebviewUri(vscode.Uri.joinPath(media, 'dist', 'codicons', 'codicon.css')).toString(),
      surface: surface.kind,
      l10nBundle: vscode.l10n.bundle,
    }));
    this.panelDisposables.push(host, ...listeners);
  }

  /** Forgets the surface (listeners, queue) without touching the chat. */
  private unbind(): void {
    for (const d of this.panelDisposables) d.dispose();
    this.panelDisposables = [];
    this.surface = undefined;
  }

  private detachPanel(panel: vscode.WebviewPanel): void {
    if (this.panel !== panel) return;
    this.unbind();
    this.panel = undefined;
    // Closing the panel stops a reply in progress (its partial text is kept); the chat goes back to the view.
    this.session.stop();
    if (this.view) this.attachView(this.view);
  }

  /** A surface shown again after a change did not reach it: the whole state, at the session's version. */
  private catchUp(): void {
    const surface = this.surface;
    if (!surface?.stale || !surface.host?.isReady) return;
    surface.stale = false;
    this.post(this.controller.conversationMessage(this.restoreNotice));
    this.post(this.controller.queueMessage());
  }

  /**
   * Posts to the surface's webview (kept until it says `ready`), checked with the schema the
   * webview parses it with: strings and lists over their maxima are cut (and logged).
   */
  private post(message: HostMessage): void {
    const surface = this.surface;
    if (!surface) return;
    if (message.type === 'restoreInput' && this.sending && message.text === this.sending.full) message = { ...message, text: this.sending.text };
    surface.host?.post(message);
  }

  /**
   * A message the webview would drop even cut: a change of the conversation is replaced by the
   * whole state, so the webview never stays on an older one; a conversation that cannot be shown
   * at all says so instead of showing an empty chat.
   */
  private refused(surface: Surface, message: HostMessage): void {
    if (this.surface !== surface) return;
    if ('version' in message && message.type !== 'conversation') {
      surface.stale = true;
      this.post(this.controller.conversationMessage(this.restoreNotice));
    } else if (message.type === 'conversation') {
      this.post({
        type: 'conversation',
        conversation: { id: message.conversation.id, title: message.conversation.title, messages: [] },
        status: message.status,
        ...(message.version !== undefined ? { version: message.version } : {}),
        notice: vscode.l10n.t('This conversation cannot be shown here. Export it with "AI Chat: Export Chat", or start a new chat.'),
      });
    }
  }

  /** Coalesces settings snapshots caused by bursts of setting/model/key events. */
  private scheduleSettings(): void {
    if (this.settingsTimer || !this.surface) return;
    this.settingsTimer = setTimeout(() => {
      this.settingsTimer = undefined;
      this.controller.settingsChanged();
      this.meter.update();
    }, 10);
  }

  private async handle(msg: WebviewMessage): Promise<void> {
    switch (msg.type) {
      case 'ready': {
        const surface = this.surface;
        // The conversation sent now holds everything of the running turn so far: of what was
        // queued before, only what is not part of it stays.
        const queued = (surface?.host?.markReady() ?? []).filter((m) => m.type === 'restoreInput' || m.type === 'focusInput' || m.type === 'insertPrompt');
        this.post(this.controller.settingsMessage());
        // The conversation of the last window first (a view resolved after a reload): the webview
        // shows "Opening…" meanwhile, never an empty chat for it.
        await this.restoreCurrent();
        if (this.surface !== surface) return;
        if (surface) surface.stale = false;
        this.post(this.controller.conversationMessage(this.restoreNotice));
        this.post(this.controller.queueMessage());
        this.post({ type: 'contextChips', chips: this.attachments.chips() });
        // The webview keeps its draft in its own state; the host's copy covers a reload that lost it.
        const draft = this.deps.context.workspaceState.get<string>(DRAFT_KEY);
        if (draft) this.post({ type: 'restoreInput', text: draft });
        for (const m of queued) this.post(m);
        this.meter.setDraft(draft ?? '', false);
        this.meter.update(true);
        void this.deps.keys.get().then(() => {
          this.controller.settingsChanged();
          if (this.deps.keys.hasKey && !this.deps.models.models) void this.deps.models.load();
        });
        return;
      }
      case 'resync':
        if (this.surface) this.surface.stale = true;
        this.catchUp();
        return;
      case 'send':
        return this.sendText(msg.text);
      case 'stop':
        this.session.stop();
        return;
      case 'retry':
        return this.controller.retry();
      case 'continue':
        return this.controller.continueReply();
      case 'queueRemove':
        return this.controller.queueRemove(msg.id);
      case 'queueEdit':
        return this.controller.queueEdit(msg.id, msg.text);
      case 'queueResume':
        return this.controller.queueResume();
      case 'queueClear':
        return this.controller.queueClear();
      case 'dropUris':
        await this.attachments.addDropped(msg.uris, msg.total, msg.outsideFiles);
        return;
      case 'dismissOutOfCredits':
        return this.controller.dismissOutOfCredits();
      case 'editLast':
        return this.session.editLast();
      case 'fork':
        if (!(await this.controller.fork(msg.messageId)) && !this.session.busy) {
          void vscode.window.showWarningMessage(vscode.l10n.t('That message could not be forked: it is not in the conversation any more.'));
        }
        return;
      case 'newChat':
        return this.session.newChat();
      case 'openHistory':
        return this.openHistory();
      case 'loadConversation':
        if (!isSafeConversationId(msg.id) || !(await this.session.open(msg.id))) {
          void vscode.window.showWarningMessage(vscode.l10n.t('That conversation could not be opened.'));
        }
        return;
      case 'selectModel':
        if (msg.valueId === undefined) {
          await this.deps.models.pick();
        } else if (!(await this.deps.models.select(msg.valueId))) {
          void vscode.window.showWarningMessage(vscode.l10n.t('The model "{0}" cannot be used for chat.', msg.valueId));
        }
        this.controller.settingsChanged();
        return;
      case 'setSearch':
        await this.deps.config.update('search', msg.value);
        return;
      case 'setTemperature':
        await this.deps.config.update('temperature', Math.round(msg.value * 100) / 100);
        return;
      case 'codeAction':
        return this.codeAction(msg.action, msg.code, msg.language, msg.path);
      case 'openLink': {
        const url = safeExternalUrl(msg.href);
        if (!url) {
          this.deps.logger.warn('Refused to open a link that is not http(s)', { href: msg.href.slice(0, 200) });
          return;
        }
        await vscode.env.openExternal(vscode.Uri.parse(url, true));
        return;
      }
      case 'draft':
        this.meter.setDraft(msg.text);
        await this.deps.context.workspaceState.update(DRAFT_KEY, msg.text || undefined);
        return;
      case 'sendFewer':
        // The service said the input is too long: half the earlier turns, the same text.
        this.session.fewerEarlierTurns();
        if (msg.text !== undefined) return this.sendText(msg.text);
        return this.controller.retry();
      case 'addContext':
        await this.attachments.pick();
        return;
      case 'removeContext':
        this.attachments.remove(msg.id);
        return;
      case 'runCommand': {
        await runAllowedCommand(msg.command, this.deps.context.extension.id);
        return;
      }
    }
  }

  /** Sends a message from the panel, a selection or a command (opens the panel first). */
  async sendText(text: string): Promise<void> {
    if (!this.surface) await this.show(true);
    await sendWithAttachments(text, this.attachments, this.controller, this.session, (s) => (this.sending = s));
  }

  async newChat(): Promise<void> {
    await this.session.newChat();
    await this.show();
    this.post({ type: 'focusInput' });
  }

  async openHistory(): Promise<void> {
    await this.restoreCurrent();
    await showHistory({
      store: this.deps.store,
      currentId: () => this.session.conversation.id,
      open: (id) => this.session.open(id),
      newChat: () => this.newChat(),
      show: () => this.show(),
      currentRemoved: () => this.session.newChat(),
      logger: this.deps.logger,
    });
  }

  private async codeAction(action: CodeActionKind, code: string, language: string, path?: string): Promise<void> {
    if (action === 'apply') return this.deps.apply.propose(code, path);
    if (action === 'copy') {
      await vscode.env.clipboard.writeText(code);
      vscode.window.setStatusBarMessage(vscode.l10n.t('$(check) Copied to the clipboard'), 2000);
      return;
    }
    if (action === 'insert') {
      const editor = this.deps.editors.lastEditor();
      if (!editor) {
        const choice = await vscode.window.showWarningMessage(vscode.l10n.t('There is no editor to insert the code into.'), vscode.l10n.t('Open in New Editor'));
        if (choice) await this.codeAction('newEditor', code, language);
        return;
      }
      const shown = await vscode.window.showTextDocument(editor.document, { viewColumn: editor.viewColumn, preserveFocus: false });
      const ok = await shown.edit((eb) => {
        for (const sel of shown.selections) eb.replace(sel, code);
      });
      if (!ok) void vscode.window.showWarningMessage(vscode.l10n.t('The code could not be inserted (is the editor read-only?).'));
      return;
    }
    const known = await vscode.languages.getLanguages();
    const lang = known.includes(language) ? language : 'plaintext';
    const doc = await vscode.workspace.openTextDocument({ content: code, language: lang });
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One, preview: false });
  }

  dispose(): void {
    this.session.stop();
    if (this.settingsTimer) clearTimeout(this.settingsTimer);
    for (const d of this.disposables) d.dispose();
    this.panel?.dispose();
    this.unbind();
    for (const d of this.viewDisposables) d.dispose();
  }
}
