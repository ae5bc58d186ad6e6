// Where the chat is shown: the side bar view (a WebviewView, in the primary or secondary side
// bar) or an editor panel (a WebviewPanel), one at a time. Opening the panel moves the chat there
// and the view shows a placeholder with a button to bring it back; closing the panel brings it
// back to the view. A view of the location the chat is not in (alive until its `when` clause
// hides it) says where the chat is. Each surface's page, ready queue, parsed receive and checked post are a
// WebviewHost; what a surface shows comes from the chat controller.
import * as vscode from 'vscode';
import type { HostMessage, WebviewMessage } from '../../protocol';
import type { Logger } from '../platform/log';
import { CHAT_VIEW_TYPE, chatLocation, chatViewId, type ChatLocation } from './chatLocation';
import { ChatPage } from './chatPage';
import { ViewPlaceholder } from './viewPlaceholder';
import type { Surface } from './surface';

export interface ChatSurfacesDeps {
  extensionUri: vscode.Uri;
  logger: Logger;
  /** A message from the surface's webview, parsed. */
  receive(message: WebviewMessage): Promise<void>;
  /** The whole state of the conversation, at the session's version (and why it is not shown, if so). */
  conversationMessage(): HostMessage;
  queueMessage(): HostMessage;
  /** Reopens the conversation of the last window (once); `preferred` is a restored panel's. */
  restoreCurrent(preferred?: string): Promise<void>;
  /** The editor panel was closed by the user. */
  panelClosed(): void;
  /** The chat's surface came back on screen (what other windows added is shown then). */
  shown?(): void;
}

export type { Surface } from './surface';
export { CHAT_VIEW_TYPE, CHAT_SIDEBAR_VIEW, CHAT_SECONDARY_VIEW, CHAT_VIEWS, chatLocation, type ChatLocation } from './chatLocation';

/** The `type` of a raw message from a page this class reads before any host parses it (`ready`, `bringBack`). */
const typeOf = (raw: unknown): unknown => (raw && typeof raw === 'object' ? (raw as { type?: unknown }).type : undefined);

/** A resolved side bar view: its listeners, and the placeholder's while it shows one. */
interface ResolvedView {
  view: vscode.WebviewView;
  listeners: vscode.Disposable[];
  placeholder?: vscode.Disposable;
}

export class ChatSurfaces implements vscode.Disposable, vscode.WebviewViewProvider {
  private panel: vscode.WebviewPanel | undefined;
  /** An editor panel being created (it waits for the conversation to be restored first). */
  private opening: Promise<void> | undefined;
  /**
   * Every resolved view, by view type. Both locations' views can be alive at once: a window can
   * resolve the other location's view before its `when` clause hides it, and a move between
   * side bars resolves the new view before the old one is disposed.
   */
  private readonly views = new Map<string, ResolvedView>();
  /** The chat's page on the surface it is attached to (the panel when there is one, else the view): post, resync, ready. */
  readonly page: ChatPage;
  /** Called when a view resolves; each returns true once its wait is over. */
  private readonly viewWaiters: Array<() => boolean> = [];
  constructor(private readonly deps: ChatSurfacesDeps) {
    this.page = new ChatPage({ ...deps, media: this.mediaRoot() });
  }

  /** The surface the chat is attached to now, if any. */
  private get surface(): Surface | undefined {
    return this.page.current;
  }

  get isOpen(): boolean {
    return this.surface !== undefined;
  }

  /** The chat is on screen (its card can tell the user what a notification would). */
  get isVisible(): boolean {
    return this.surface?.visible() ?? false;
  }

  /** Shows the chat where it is: the editor panel when open, else the side bar view. */
  async show(preserveFocus = false): Promise<void> {
    await this.deps.restoreCurrent();
    if (this.surface) {
      this.surface.reveal(preserveFocus);
      return;
    }
    // Resolves the view (resolveWebviewView attaches the chat to it); with preserveFocus the
    // view is opened without taking the keyboard from where the user is typing.
    await vscode.commands.executeCommand(`${chatViewId()}.focus`, { preserveFocus });
    await this.viewResolved(5000);
    // The view was resolved while the chat was elsewhere (its location just changed).
    const view = this.view;
    if (!this.surface && view) this.attachView(view);
    // A host without the view (hidden by the user, or never resolved): the editor panel.
    if (!this.surface) await this.openInEditor(preserveFocus);
  }

  /** Moves the chat into an editor panel beside the editor (or reveals it there). */
  async openInEditor(preserveFocus = false): Promise<void> {
    if (this.panel) {
      this.panel.reveal(undefined, preserveFocus);
      return;
    }
    // A second call while the first waits for the conversation to be restored opens no second panel.
    this.opening ??= this.createPanel(preserveFocus).finally(() => (this.opening = undefined));
    return this.opening;
  }

  private async createPanel(preserveFocus: boolean): Promise<void> {
    await this.deps.restoreCurrent();
    if (this.panel) {
      // Restored by the workbench meanwhile.
      this.panel.reveal(undefined, preserveFocus);
      return;
    }
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
    // The view of the old location is disposed once its `when` clause turns false; meanwhile it
    // says where the chat went.
    if (this.surface?.kind === 'view' && this.surface.webview !== this.view?.webview) this.page.detach();
    await this.show(true);
    this.presentViews();
  }

  /** The side bar view is shown for the first time (or again after it was moved or closed). */
  resolveWebviewView(view: vscode.WebviewView): void {
    const previous = this.views.get(view.viewType);
    if (previous && previous.view !== view) this.forgetView(previous);
    const resolved: ResolvedView = { view, listeners: [] };
    this.views.set(view.viewType, resolved);
    view.webview.options = { enableScripts: true, localResourceRoots: [this.mediaRoot()] };
    this.deps.logger.info('Chat view resolved', { view: view.viewType, current: view.viewType === chatViewId(), editorPanel: !!this.panel });
    // The view shows the conversation the extension goes on with: the last window's, once read.
    void this.deps.restoreCurrent();
    resolved.listeners.push(
      view.onDidChangeVisibility(() => {
        if (!view.visible || this.surface?.webview !== view.webview) return;
        this.page.catchUp();
        this.deps.shown?.();
      }),
      // A view moved to another side bar is disposed and resolved again: the reply goes on.
      view.onDidDispose(() => this.forgetView(resolved)),
      // A chat page on this view while the chat is not attached to it (a page loaded for the view
      // after the chat left it, or one the host never answered): the view is shown as it should be.
      view.webview.onDidReceiveMessage((raw: unknown) => {
        if (typeOf(raw) !== 'ready' || this.views.get(view.viewType) !== resolved || this.surface?.webview === view.webview) return;
        this.deps.logger.info('A chat page on a view without the chat: shown again', { view: view.viewType, editorPanel: !!this.panel });
        this.present(resolved);
      }),
    );
    this.present(resolved);
    // Waiters for this location's view are done; a view of the other location leaves them waiting.
    const waiting = this.viewWaiters.splice(0).filter((done) => !done());
    this.viewWaiters.push(...waiting);
  }

  /** The resolved view of the chat's location, if any. */
  private get view(): vscode.WebviewView | undefined {
    return this.views.get(chatViewId())?.view;
  }

  /** A view was disposed (or replaced): its listeners go, and the chat leaves it if it was there. */
  private forgetView(resolved: ResolvedView): void {
    for (const d of resolved.listeners) d.dispose();
    resolved.placeholder?.dispose();
    resolved.listeners = [];
    resolved.placeholder = undefined;
    if (this.views.get(resolved.view.viewType) === resolved) this.views.delete(resolved.view.viewType);
    if (this.surface?.kind === 'view' && this.surface.webview === resolved.view.webview) this.page.detach();
  }

  /**
   * What a view that does not hold the chat shows: the chat when it is its place (no editor
   * panel, the chat's location), else a line saying where the chat is and a button to bring it.
   */
  private present(resolved: ResolvedView): void {
    const { view } = resolved;
    if (this.surface?.webview === view.webview) return;
    if (!this.panel && view.viewType === chatViewId()) {
      this.attachView(view);
    } else if (this.panel) {
      this.showPlaceholder(resolved, vscode.l10n.t('The chat is open in the editor.'), vscode.l10n.t('Move Chat to Side Bar'), () => this.moveToSideBar());
    } else {
      const where = chatLocation() === 'secondarySideBar' ? vscode.l10n.t('The chat is in the secondary side bar.') : vscode.l10n.t('The chat is in the primary side bar.');
      this.showPlaceholder(resolved, where, vscode.l10n.t('Show Chat'), () => this.show());
    }
  }

  /** Each resolved view shows the chat or says where it is. */
  private presentViews(): void {
    for (const resolved of this.views.values()) this.present(resolved);
  }

  /** A panel restored by the WebviewPanelSerializer after a window reload: the chat goes there. */
  adoptRestoredPanel(panel: vscode.WebviewPanel): void {
    if (this.panel && this.panel !== panel) {
      // The restored panel is the one on screen: it replaces a stale one.
      const old = this.panel;
      this.page.detach();
      this.panel = undefined;
      old.dispose();
    }
    panel.webview.options = { enableScripts: true, localResourceRoots: [this.mediaRoot()] };
    this.attachPanel(panel);
  }

  /** Resolves once the view has been resolved, or after `ms` (the focus command does not wait for it). */
  private viewResolved(ms: number): Promise<void> {
    if (this.view) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.viewWaiters.push(() => {
        if (!this.view) return false;
        clearTimeout(timer);
        resolve();
        return true;
      });
    });
  }

  private attachView(view: vscode.WebviewView): void {
    const resolved = this.views.get(view.viewType);
    if (this.panel || resolved?.view !== view || this.surface?.webview === view.webview) return;
    resolved.placeholder?.dispose();
    resolved.placeholder = undefined;
    this.attach({ kind: 'view', webview: view.webview, reveal: (preserveFocus) => view.show(preserveFocus), visible: () => view.visible }, []);
  }

  /** A view without the chat: a line saying where it is and a button that brings it (a page of its own). */
  private showPlaceholder(resolved: ResolvedView, text: string, buttonLabel: string, bring: () => Promise<void>): void {
    resolved.placeholder?.dispose();
    resolved.placeholder = new ViewPlaceholder(resolved.view.webview, this.mediaRoot(), text, buttonLabel, bring, this.deps.logger);
  }

  private mediaRoot(): vscode.Uri {
    return vscode.Uri.joinPath(this.deps.extensionUri, 'media');
  }

  private attachPanel(panel: vscode.WebviewPanel): void {
    // The chat leaves the view (a reply in progress goes on, now shown in the panel).
    if (this.surface?.kind === 'view') this.page.detach();
    this.panel = panel;
    panel.iconPath = vscode.Uri.joinPath(this.mediaRoot(), 'chat-icon.svg');
    this.attach({ kind: 'panel', webview: panel.webview, reveal: (preserveFocus) => panel.reveal(undefined, preserveFocus), visible: () => panel.visible }, [
      panel.onDidDispose(() => this.detachPanel(panel)),
      panel.onDidChangeViewState(() => {
        if (!panel.visible || this.panel !== panel) return;
        this.page.catchUp();
        this.deps.shown?.();
      }),
    ]);
  }

  private attach(surface: Surface, listeners: vscode.Disposable[]): void {
    this.page.attach(surface, listeners);
    // The views that do not hold the chat now say where it is.
    this.presentViews();
  }

  private detachPanel(panel: vscode.WebviewPanel): void {
    if (this.panel !== panel) return;
    this.page.detach();
    this.panel = undefined;
    this.deps.panelClosed();
    this.presentViews();
  }

  dispose(): void {
    this.panel?.dispose();
    this.page.dispose();
    for (const resolved of [...this.views.values()]) this.forgetView(resolved);
  }
}
