// The page of the chat's webviews: the chat itself (its script, styles and strings). The placeholder
// a side bar view shows while the chat is elsewhere is viewPlaceholder.ts.
import * as vscode from 'vscode';
import { chatHtml } from './common/html';

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
