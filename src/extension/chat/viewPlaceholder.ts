// What a side bar view shows while it does not hold the chat: a line saying where the chat is and a
// button that brings it. A page of its own on a WebviewHost of its own (CSP with a fresh nonce, every
// message parsed: the page may say nothing but `bringBack`).
import * as vscode from 'vscode';
import { placeholderHtml } from './common/html';
import type { Logger } from '../platform/log';
import { WebviewHost } from '../platform/webviewHost';

type BringBack = { type: 'bringBack' };

const NOT_BRING_BACK = 'the placeholder page says only bringBack'; // l10n-ignore: logged, not shown
const NOTHING_POSTED = 'the placeholder takes no messages'; // l10n-ignore: logged, not shown

const parseBringBack = (raw: unknown): { ok: true; message: BringBack } | { ok: false; error: string } =>
  raw && typeof raw === 'object' && (raw as { type?: unknown }).type === 'bringBack' ? { ok: true, message: { type: 'bringBack' } } : { ok: false, error: NOT_BRING_BACK };

export class ViewPlaceholder implements vscode.Disposable {
  private readonly host: WebviewHost<BringBack, { type: 'none' }>;

  constructor(webview: vscode.Webview, media: vscode.Uri, text: string, buttonLabel: string, bring: () => Promise<void>, logger: Logger) {
    this.host = new WebviewHost<BringBack, { type: 'none' }>({
      webview,
      name: 'chat view placeholder', // l10n-ignore: names the webview in the log
      parse: parseBringBack,
      // Nothing is ever posted to the placeholder.
      check: () => ({ ok: false, error: NOTHING_POSTED }),
      receive: () => bring(),
      logger,
    });
    const uri = (...parts: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(media, ...parts)).toString();
    this.host.setHtml((cspSource, nonce) =>
      placeholderHtml({ cspSource, nonce, chatCssUri: uri('chat.css'), codiconCssUri: uri('dist', 'codicons', 'codicon.css'), text, buttonLabel }),
    );
  }

  dispose(): void {
    this.host.dispose();
  }
}
