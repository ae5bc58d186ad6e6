// The pages of the chat's webviews: the chat itself (its script, styles and strings) and the
// placeholder the side bar view shows while the chat is in the editor.
import * as vscode from 'vscode';
import { chatHtml, placeholderHtml } from './common/html';
import { pageNonce } from '../platform/webviewHost';

/** The chat page for a webview, given the page's CSP source and nonce (see WebviewHost.setHtml). */
export function chatPage(webview: vscode.Webview, media: vscode.Uri, surface: 'panel' | 'view'): (cspSource: string, nonce: string) => string {
  const uri = (...parts: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(media, ...parts)).toString();
  return (cspSource, nonce) =>
    chatHtml({
      cspSource,
      nonce,
      scriptUri: uri('dist', 'webview.js'),
      chatCssUri: uri('chat.css'),
      renderCssUri: uri('render.css'),
      codiconCssUri: uri('dist', 'codicons', 'codicon.css'),
      surface,
      l10nBundle: vscode.l10n.bundle,
    });
}

/** A side bar view that does not hold the chat: a line saying where it is and a button (posts `bringBack`). */
export function placeholderPage(webview: vscode.Webview, media: vscode.Uri, text: string, buttonLabel: string): string {
  return placeholderHtml({
    cspSource: webview.cspSource,
    nonce: pageNonce(),
    chatCssUri: webview.asWebviewUri(vscode.Uri.joinPath(media, 'chat.css')).toString(),
    codiconCssUri: webview.asWebviewUri(vscode.Uri.joinPath(media, 'dist', 'codicons', 'codicon.css')).toString(),
    text,
    buttonLabel,
  });
}
