// Where the chat is shown when a window resolves its views and restores its editor panel in any
// order: the side bar view (primary or secondary location) or the editor panel, one at a time,
// and every other view saying where the chat is. Real VS Code API (configuration, panels, l10n);
// the side bar views are stand-ins, since only the workbench resolves real ones.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { HostMessage, WebviewMessage } from '../../../../src/protocol';
import { ChatSurfaces } from '../../../../src/extension/chat/chatSurfaces';
import { CHAT_SECONDARY_VIEW, CHAT_SIDEBAR_VIEW, CHAT_VIEW_TYPE } from '../../../../src/extension/chat/chatLocation';
import { silent } from './fakes';

/** A WebviewView as the workbench hands it to resolveWebviewView; `fromPage` is a message its page posts. */
function fakeView(viewType: string) {
  const disposed = new vscode.EventEmitter<void>();
  const visibility = new vscode.EventEmitter<void>();
  const received = new vscode.EventEmitter<unknown>();
  const webview = {
    html: '',
    options: {} as vscode.WebviewOptions,
    cspSource: 'https://webview.test',
    asWebviewUri: (uri: vscode.Uri) => uri,
    onDidReceiveMessage: received.event,
    postMessage: async () => true,
  };
  return {
    viewType,
    webview: webview as unknown as vscode.Webview,
    visible: true,
    title: undefined,
    description: undefined,
    badge: undefined,
    onDidDispose: disposed.event,
    onDidChangeVisibility: visibility.event,
    show() {},
    html: () => webview.html,
    fromPage: (message: unknown) => received.fire(message),
    dispose: () => disposed.fire(),
  } satisfies vscode.WebviewView & Record<string, unknown>;
}

type FakeView = ReturnType<typeof fakeView>;

const isChat = (v: FakeView) => v.html().includes('id="app"');
const says = (v: FakeView, text: string) => v.html().includes(text) && !isChat(v);

function surfaces(restoreCurrent: () => Promise<void> = async () => {}) {
  const received: WebviewMessage[] = [];
  let closed = 0;
  const s = new ChatSurfaces({
    extensionUri: vscode.Uri.file('/ext'),
    logger: silent,
    receive: async (m) => void received.push(m),
    conversationMessage: () => ({ type: 'conversation', conversation: { id: 'c1', title: 'T', messages: [] }, status: { busy: false } }) as unknown as HostMessage,
    queueMessage: () => ({ type: 'queue', items: [], paused: false }) as unknown as HostMessage,
    restoreCurrent,
    panelClosed: () => void closed++,
  });
  return { s, received, closed: () => closed };
}

function restoredPanel(): vscode.WebviewPanel {
  return vscode.window.createWebviewPanel(CHAT_VIEW_TYPE, 'AI Chat', { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, { enableScripts: true });
}

describe('Where the chat is shown', () => {
  before(async () => {
    // The default location: the primary side bar.
    await vscode.workspace.getConfiguration('aiChat').update('chatLocation', undefined, vscode.ConfigurationTarget.Global);
  });

  it('the other location\'s view, resolved beside the chat\'s, says where the chat is and takes nothing from it', () => {
    const { s, received } = surfaces();
    const primary = fakeView(CHAT_SIDEBAR_VIEW);
    const secondary = fakeView(CHAT_SECONDARY_VIEW);
    s.resolveWebviewView(primary);
    const page = primary.html();
    assert.ok(isChat(primary), 'the primary view shows the chat');
    s.resolveWebviewView(secondary);
    assert.ok(says(secondary, 'The chat is in the primary side bar.'), secondary.html());
    assert.equal(primary.html(), page, 'the chat page is not loaded again');
    assert.equal(s.page.current?.webview, primary.webview);
    primary.fromPage({ type: 'ready' });
    assert.deepEqual(received.map((m) => m.type), ['ready'], "the chat's page is heard");
    secondary.fromPage({ type: 'ready' });
    assert.equal(received.length, 1, 'a page that does not hold the chat is not heard');
    secondary.dispose();
    assert.equal(s.page.current?.webview, primary.webview);
    s.dispose();
  });

  it('a panel restored after both views resolved leaves each view saying the chat is in the editor, and closing it brings the chat back', () => {
    const { s, received, closed } = surfaces();
    const primary = fakeView(CHAT_SIDEBAR_VIEW);
    const secondary = fakeView(CHAT_SECONDARY_VIEW);
    s.resolveWebviewView(primary);
    s.resolveWebviewView(secondary);
    const panel = restoredPanel();
    s.adoptRestoredPanel(panel);
    assert.equal(s.page.current?.kind, 'panel');
    // The workbench hides the other location's view once its `when` clause is read.
    secondary.dispose();
    assert.ok(says(primary, 'The chat is open in the editor.'), `the primary view shows: ${primary.html().slice(0, 300)}`);
    primary.fromPage({ type: 'ready' });
    assert.equal(received.length, 0, 'the view is not heard as the chat while the panel holds it');
    panel.dispose();
    assert.equal(closed(), 1);
    assert.ok(isChat(primary), 'closing the panel brings the chat back to the view');
    assert.equal(s.page.current?.webview, primary.webview);
    s.dispose();
  });

  it('a chat page left on a view after the panel took the chat is replaced by where the chat is when it asks again', () => {
    const { s, received } = surfaces();
    const primary = fakeView(CHAT_SIDEBAR_VIEW);
    s.resolveWebviewView(primary);
    const chatPageHtml = primary.html();
    const panel = restoredPanel();
    s.adoptRestoredPanel(panel);
    assert.ok(says(primary, 'The chat is open in the editor.'));
    // The workbench shows the view's earlier page again (the chat page, never answered now).
    (primary.webview as { html: string }).html = chatPageHtml;
    primary.fromPage({ type: 'ready' });
    assert.ok(says(primary, 'The chat is open in the editor.'), `the view shows: ${primary.html().slice(0, 300)}`);
    assert.equal(received.length, 0, 'the page is not heard as the chat');
    assert.equal(s.page.current?.kind, 'panel', 'the panel keeps the chat');
    // A placeholder page that is already there is not loaded again by other messages.
    const placeholder = primary.html();
    primary.fromPage({ type: 'draft', text: 'x' });
    assert.equal(primary.html(), placeholder);
    panel.dispose();
    s.dispose();
  });

  it('a view resolved after the panel was restored says the chat is in the editor; its button brings the chat back', async () => {
    const { s } = surfaces();
    const panel = restoredPanel();
    s.adoptRestoredPanel(panel);
    const primary = fakeView(CHAT_SIDEBAR_VIEW);
    s.resolveWebviewView(primary);
    assert.ok(says(primary, 'The chat is open in the editor.'));
    primary.fromPage({ type: 'bringBack' });
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(s.page.current?.webview, primary.webview, 'the chat is back in the view');
    assert.ok(isChat(primary));
    s.dispose();
  });

  it('a view resolved again (moved between side bars) takes the chat; the one it replaces is forgotten', () => {
    const { s, received } = surfaces();
    const first = fakeView(CHAT_SIDEBAR_VIEW);
    const second = fakeView(CHAT_SIDEBAR_VIEW);
    s.resolveWebviewView(first);
    s.resolveWebviewView(second);
    assert.equal(s.page.current?.webview, second.webview);
    first.fromPage({ type: 'ready' });
    assert.equal(received.length, 0, 'the replaced view is not heard');
    first.dispose();
    assert.equal(s.page.current?.webview, second.webview, 'disposing the replaced view leaves the chat where it is');
    s.dispose();
  });

  it('Open in Editor twice while the conversation is still being restored opens one panel', async () => {
    let release: () => void = () => undefined;
    const restoring = new Promise<void>((r) => (release = r));
    const { s } = surfaces(() => restoring);
    // Panels are counted where this chat makes them: the installed extension's own chat shares the
    // view type and the title, and the tests before leave its panels opening or closing.
    const window = vscode.window as { createWebviewPanel: typeof vscode.window.createWebviewPanel };
    const create = window.createWebviewPanel;
    const made: vscode.WebviewPanel[] = [];
    window.createWebviewPanel = (...args: Parameters<typeof create>) => {
      const panel = create.apply(vscode.window, args);
      made.push(panel);
      return panel;
    };
    try {
      const first = s.openInEditor(true);
      const second = s.openInEditor(true);
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(made.length, 0, 'no panel before the conversation is restored');
      release();
      await Promise.all([first, second]);
      assert.equal(made.length, 1, 'one panel');
      assert.equal(s.page.current?.kind, 'panel');
      assert.equal(s.page.current?.webview, made[0].webview, 'the chat is in that panel');
      await s.openInEditor(true);
      assert.equal(made.length, 1, 'Open in Editor once the panel is open reveals it');
    } finally {
      window.createWebviewPanel = create;
      s.dispose();
    }
  });
});
