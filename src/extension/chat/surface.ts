// One place the chat is shown: a side bar view or the editor panel.
import type * as vscode from 'vscode';
import type { HostMessage, WebviewMessage } from '../../protocol';
import type { WebviewHost } from '../platform/webviewHost';

/** Where the chat is attached: its webview, and how to bring it to the front. */
export interface Surface {
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
