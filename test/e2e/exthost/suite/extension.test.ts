// Extension-host tests: run inside a real VS Code's extension host, with the VS Code API.
import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import { report } from './figures';

const ID = 'ai-chat-assistant.ai-chat-assistant';
const COMMANDS = [
  'aiChat.openChat',
  'aiChat.newChat',
  'aiChat.setApiKey',
  'aiChat.clearApiKey',
  'aiChat.selectModel',
  'aiChat.showBalance',
  'aiChat.refreshBalance',
  'aiChat.showSubscriptions',
  'aiChat.sendSelection',
  'aiChat.exportChat',
  'aiChat.copyConversation',
  'aiChat.importConversation',
  'aiChat.exportAll',
  'aiChat.importAll',
  'aiChat.reviewServiceAddress',
  'aiChat.focusChatInput',
  'aiChat.showHistory',
  'aiChat.moveChatToSideBar',
];

function chatTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.label === 'AI Chat');
}

async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('AI Chat Assistant in the extension host', () => {
  before(async () => {
    const ext = vscode.extensions.getExtension(ID);
    assert.ok(ext, `${ID} is installed`);
    await ext.activate();
  });

  it('activation: the installed bundle loads and exports activate; the client and the rooms loaded on first use are files of their own, not loaded by activation (figures: sizes and load times)', () => {
    const ext = vscode.extensions.getExtension(ID);
    assert.ok(ext);
    const dist = path.join(ext.extensionPath, 'dist');
    const file = path.join(dist, 'extension.js');
    const client = path.join(dist, 'client.js');
    const load = createRequire(file);
    const inDist = (f: string) => path.dirname(f) === dist && f.endsWith('.js');
    const files = readdirSync(dist).map((f) => path.join(dist, f)).filter(inDist);
    // The rooms loaded on first use (src/extension/lazyRooms.ts): their files are there, and
    // activation (with whatever else this window did before this test) did not read them.
    const rooms = ['chatRoom', 'rulesService', 'rulesCommands', 'exportCommands', 'inlineEdit', 'commitMessageCommand'].map((name) => {
      const found = files.find((f) => path.basename(f).startsWith(`${name}-`));
      assert.ok(found, `dist/${name}-….js is built`);
      assert.equal(load.cache[found], undefined, `dist/${path.basename(found)} is not loaded by activation`);
      return found;
    });
    /**
     * Median of 7 fresh loads of `target` with every file of dist/ it requires (reading, compiling
     * and evaluating: the part of activation the files' size decides). The modules the running
     * extension holds are put back after, so it keeps one instance of each.
     */
    const timed = (target: string, check: (m: Record<string, unknown>) => void, keep: readonly string[] = []) => {
      const held = new Map(Object.entries(load.cache).filter(([f]) => inDist(f)));
      const times: number[] = [];
      let read: string[] = [];
      try {
        for (let i = 0; i < 7; i++) {
          for (const f of Object.keys(load.cache)) if (inDist(f) && !keep.includes(f)) delete load.cache[f];
          const started = performance.now();
          const fresh = load(target) as Record<string, unknown>;
          times.push(performance.now() - started);
          read = Object.keys(load.cache).filter((f) => inDist(f) && !keep.includes(f));
          check(fresh);
        }
      } finally {
        for (const f of Object.keys(load.cache)) if (inDist(f)) delete load.cache[f];
        for (const [f, m] of held) load.cache[f] = m;
      }
      times.sort((a, b) => a - b);
      const shared = read.filter((f) => f !== target);
      const kb = (size: number) => `${(size / 1024).toFixed(1)} KB`;
      const also = shared.length ? ` with ${shared.length} shared file${shared.length === 1 ? '' : 's'} (${kb(read.reduce((n, f) => n + statSync(f).size, 0))} in all)` : '';
      return `${kb(statSync(target).size)}${also}, loaded in ${times[3].toFixed(1)} ms (median of 7 fresh loads, min ${times[0].toFixed(1)}, max ${times[6].toFixed(1)})`;
    };
    report(`activation: dist/extension.js ${timed(file, (m) => assert.equal(typeof m.activate, 'function'))}`);
    // The packaged client (undici, the response schemas): what the first request loads.
    report(`first request: dist/client.js ${timed(client, (m) => assert.equal(typeof m.ChatServiceClient, 'function'))}`);
    // Each room's first use: its own file, the shared ones already loaded by activation.
    const startup = Object.keys(load.cache).filter(inDist);
    for (const room of rooms) report(`first use: dist/${path.basename(room)} ${timed(room, (m) => assert.ok(Object.keys(m).length > 0), startup)}`);
  });

  it('activates and registers every command', async () => {
    assert.equal(vscode.extensions.getExtension(ID)?.isActive, true);
    const all = new Set(await vscode.commands.getCommands(true));
    for (const c of COMMANDS) assert.ok(all.has(c), `${c} is registered`);
  });

  it('declares its settings with their defaults', () => {
    const cfg = vscode.workspace.getConfiguration('aiChat');
    for (const key of ['baseUrl', 'model', 'temperature', 'search', 'stream', 'systemPrompt', 'requestTimeoutSeconds', 'balanceRefreshMinutes']) {
      assert.notEqual(cfg.inspect(key)?.defaultValue, undefined, `aiChat.${key} has a default`);
    }
    assert.equal(cfg.inspect('temperature')?.defaultValue, 1);
  });

  it('Open Chat shows one "AI Chat" panel, and running it again reveals the same one', async () => {
    await vscode.commands.executeCommand('aiChat.openChat');
    await until(() => chatTabs().length === 1, 'the AI Chat panel');
    await vscode.commands.executeCommand('aiChat.openChat');
    assert.equal(chatTabs().length, 1);
  });

  it('the "AI Chat" tab is the extension\'s webview panel', () => {
    const tabs = chatTabs();
    assert.equal(tabs.length, 1);
    const input = tabs[0]?.input;
    assert.ok(input instanceof vscode.TabInputWebview, 'the tab holds a webview');
    assert.match(input.viewType, /aiChat\.chat$/);
  });

  it('after the panel is closed, Open Chat opens a new one', async () => {
    await vscode.window.tabGroups.close(chatTabs());
    await until(() => chatTabs().length === 0, 'the AI Chat panel to close');
    await vscode.commands.executeCommand('aiChat.openChat');
    await until(() => chatTabs().length === 1, 'a new AI Chat panel');
  });

  it('New Chat keeps the chat where it is: in the open editor panel, else in the side bar (no editor tab)', async () => {
    await vscode.commands.executeCommand('aiChat.openChat');
    await until(() => chatTabs().length === 1, 'the AI Chat panel');
    await vscode.commands.executeCommand('aiChat.newChat');
    assert.equal(chatTabs().length, 1, 'New Chat used the open panel');
    await vscode.window.tabGroups.close(chatTabs());
    await until(() => chatTabs().length === 0, 'the AI Chat panel to close');
    await vscode.commands.executeCommand('aiChat.newChat');
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(chatTabs().length, 0, 'New Chat showed the side bar view, not a new editor panel');
  });

  it('Export Chat of a new, empty conversation opens no document', async () => {
    await vscode.commands.executeCommand('aiChat.newChat');
    const markdownDocs = () => vscode.workspace.textDocuments.filter((d) => d.languageId === 'markdown').length;
    const before = markdownDocs();
    await vscode.commands.executeCommand('aiChat.exportChat');
    assert.equal(markdownDocs(), before);
  });

  it('keeps no API key in the settings', () => {
    const cfg = vscode.workspace.getConfiguration('aiChat');
    const inspected = JSON.stringify(['baseUrl', 'model', 'systemPrompt'].map((k) => cfg.inspect(k)));
    assert.doesNotMatch(inspected, /sk-[a-z]+-\d{6,}/);
  });
});
