// The chat's page on the one surface it is attached to (a side bar view or the editor panel): the
// page set on the surface's webview, its WebviewHost (ready queue, parsed receive, checked post),
// what goes when the surface changes, and how a surface that missed a change catches up with the
// whole state at the session's version. Where the chat is shown is chatSurfaces.ts's.
import * as vscode from 'vscode';
import { fitHostMessage, parseWebviewMessage, type HostMessage, type WebviewMessage } from '../../protocol';
import type { Logger } from '../platform/log';
import { WebviewHost } from '../platform/webviewHost';
import { chatPage } from './chatPageHtml';
import { unshownConversationOf } from './common/presenter';
import type { Surface } from './surface';

export interface ChatPageDeps {
  media: vscode.Uri;
  logger: Logger;
  /** A message from the page, parsed. */
  receive(message: WebviewMessage): Promise<void>;
  /** The whole state of the conversation, at the session's version. */
  conversationMessage(): HostMessage;
  queueMessage(): HostMessage;
}

export class ChatPage implements vscode.Disposable {
  private surface: Surface | undefined;
  private disposables: vscode.Disposable[] = [];

  constructor(private readonly deps: ChatPageDeps) {}

  /** The surface the chat is attached to now, if any. */
  get current(): Surface | undefined {
    return this.surface;
  }

  /** Attaches the chat to `surface` (one at a time: the last one's page and `listeners` go; a reply goes on here). */
  attach(surface: Surface, listeners: vscode.Disposable[]): void {
    if (this.surface) this.detach();
    this.surface = surface;
    const webview = surface.webview;
    const host = new WebviewHost<WebviewMessage, HostMessage>({
      webview,
      name: surface.kind === 'panel' ? 'chat panel' : 'chat view', // l10n-ignore: names the webview in the log
      parse: parseWebviewMessage,
      check: fitHostMessage,
      receive: (message) => this.deps.receive(message),
      refused: (message) => this.refused(surface, message),
      undelivered: (message) => {
        if ('version' in message && message.version !== undefined) surface.stale = true;
      },
      logger: this.deps.logger,
    });
    surface.host = host;
    host.setHtml(chatPage(webview, this.deps.media, surface.kind));
    this.disposables.push(host, ...listeners);
  }

  /** Forgets the surface (listeners, queue) without touching the chat. */
  detach(): void {
    for (const d of this.disposables) d.dispose();
    this.disposables = [];
    this.surface = undefined;
  }

  /** Posts to the page (kept until it says `ready`), checked with the schema the page parses it with. */
  post(message: HostMessage): void {
    this.surface?.host?.post(message);
  }

  /** The surface is shown again: when a change did not reach it, the whole state, at the session's version. */
  catchUp(): void {
    const surface = this.surface;
    if (!surface?.stale || !surface.host?.isReady) return;
    surface.stale = false;
    this.post(this.deps.conversationMessage());
    this.post(this.deps.queueMessage());
  }

  /** The page of `surface` said `ready`: what was queued for it before, in order. */
  markReady(surface: Surface | undefined): HostMessage[] {
    return surface?.host?.markReady() ?? [];
  }

  /** The page asked for the whole state (it missed a change). */
  resync(): void {
    if (this.surface) this.surface.stale = true;
    this.catchUp();
  }

  /**
   * A message the page would drop even cut: a change of the conversation is replaced by the whole
   * state, so the page never stays on an older one; a conversation that cannot be shown at all
   * says so instead of showing an empty chat.
   */
  private refused(surface: Surface, message: HostMessage): void {
    if (this.surface !== surface) return;
    if ('version' in message && message.type !== 'conversation') {
      surface.stale = true;
      this.post(this.deps.conversationMessage());
    } else if (message.type === 'conversation') {
      this.post(unshownConversationOf(message, vscode.l10n.t('This conversation cannot be shown here. Export it with "AI Chat: Export Chat", or start a new chat.')));
    }
  }

  dispose(): void {
    this.detach();
  }
}
