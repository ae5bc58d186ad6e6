// The `#` menu's host against the real workspace, symbol providers and Git: a `#word` gets the
// actions, then the files and folders whose paths match, then the symbols; a choice attaches the
// file, the folder's files or the symbol's lines; #changes, #staged and #branch read a real
// repository's diffs; an answer replaced by a later word is never run.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as vscode from 'vscode';
import { ContextAttachments } from '../../../../src/extension/context/attachments';
import { readChanges } from '../../../../src/extension/context/gitChanges';
import { HashMenuHost } from '../../../../src/extension/context/hashMenu';
import type { GitApi, GitRepository } from '../../../../src/extension/sourceControl/gitApi';
import type { HostMessage } from '../../../../src/protocol';
import { closeAllEditors } from './fakes';

type Options = Extract<HostMessage, { type: 'contextOptions' }>;

describe('The # menu of the message box', function () {
  this.timeout(60_000);
  const folder = () => {
    const f = vscode.workspace.workspaceFolders?.[0];
    assert.ok(f, 'the test window has a workspace folder');
    return f.uri;
  };
  const uri = (...parts: string[]) => vscode.Uri.joinPath(folder(), ...parts);
  const write = (u: vscode.Uri, text: string) => vscode.workspace.fs.writeFile(u, new TextEncoder().encode(text));

  before(async () => {
    await write(uri('hashmenu-dir', 'hashmenuTarget.ts'), 'export function hashmenuAlpha() {\n  return 1;\n}\n');
    await write(uri('hashmenu-dir', 'nested', 'hashmenuOther.ts'), 'export const other = 2;\n');
  });
  after(async () => {
    await closeAllEditors();
    await vscode.workspace.fs.delete(uri('hashmenu-dir'), { recursive: true }).then(undefined, () => undefined);
  });

  it('a bare # lists what can be attached; a word adds the matching files and folders, then the symbols; each choice attaches it', async () => {
    const posted: Options[] = [];
    const chips = new ContextAttachments(() => vscode.window.activeTextEditor);
    const menu = new HashMenuHost({ attachments: chips, editor: () => vscode.window.activeTextEditor, post: (m) => posted.push(m) });
    const target = uri('hashmenu-dir', 'hashmenuTarget.ts');
    const provider = vscode.languages.registerWorkspaceSymbolProvider({
      provideWorkspaceSymbols: (q) =>
        'hashmenuAlpha'.toLowerCase().includes(q.toLowerCase()) ? [new vscode.SymbolInformation('hashmenuAlpha', vscode.SymbolKind.Function, '', new vscode.Location(target, new vscode.Range(0, 0, 2, 1)))] : [],
    });
    try {
      await menu.search(1, '');
      assert.equal(posted.length, 1);
      assert.deepEqual(posted[0].options.slice(0, 2).map((o) => [o.kind, o.label]), [['action', 'codebase'], ['action', 'file']]);
      assert.ok(posted[0].options.some((o) => o.label === 'changes') && !posted[0].pending);

      posted.length = 0;
      await menu.search(2, 'hashmenu');
      const last = posted.at(-1);
      assert.ok(last && !last.pending, 'the last answer is complete');
      assert.ok(posted.slice(0, -1).every((m) => m.pending), 'earlier answers say more is coming');
      const labels = last.options.map((o) => `${o.kind}:${o.label}`);
      const at = (label: string) => last.options[labels.indexOf(label)];
      const file = at('file:hashmenuTarget.ts');
      const dir = at('folder:hashmenu-dir');
      const symbol = at('symbol:hashmenuAlpha');
      assert.ok(file && dir && symbol && labels.includes('file:hashmenuOther.ts'), JSON.stringify(labels));
      assert.ok(labels.indexOf('symbol:hashmenuAlpha') < labels.indexOf('file:hashmenuTarget.ts'), 'symbols before files');
      // An option of the answer before the symbols is still found in the last (chosen by what it shows, not its place).
      const first = posted.at(-2)?.options.find((o) => o.label === 'hashmenuTarget.ts');
      assert.ok(first && posted.at(-2)?.options.indexOf(first) !== labels.indexOf('file:hashmenuTarget.ts'), 'the file was in the answer before, at another place');

      await menu.choose(2, first, undefined);
      assert.deepEqual(chips.attachments.map((a) => [a.kind, a.path]), [['file', 'hashmenu-dir/hashmenuTarget.ts']]);
      await menu.choose(2, symbol, undefined);
      const range = chips.attachments.find((a) => a.kind === 'selection');
      assert.deepEqual([range?.symbol, range?.startLine, range?.endLine, range?.content], ['hashmenuAlpha', 1, 3, 'export function hashmenuAlpha() {\n  return 1;\n}']);
      chips.clear();
      await menu.choose(2, dir, undefined);
      assert.deepEqual(chips.attachments.map((a) => a.path).sort(), ['hashmenu-dir/hashmenuTarget.ts', 'hashmenu-dir/nested/hashmenuOther.ts']);

      // An answer no longer kept is never run; a page made again (counting from 0) is answered.
      chips.clear();
      for (let seq = 3; seq < 13; seq++) await menu.search(seq, 'hashmenuOther');
      await menu.choose(2, file, undefined);
      assert.equal(chips.attachments.length, 0, 'an answer no longer kept runs nothing');
      posted.length = 0;
      await menu.search(0, 'hashmenuTarget');
      assert.ok(posted.at(-1)?.options.some((o) => o.label === 'hashmenuTarget.ts'), 'a new page\'s first word is answered');
    } finally {
      provider.dispose();
      menu.dispose();
      chips.dispose();
    }
  });

  it('words typed while a symbol search runs wait for it, and only the newest of them is searched', async () => {
    const posted: Options[] = [];
    const chips = new ContextAttachments(() => vscode.window.activeTextEditor);
    const menu = new HashMenuHost({ attachments: chips, editor: () => undefined, post: (m) => posted.push(m) });
    const target = uri('hashmenu-dir', 'hashmenuTarget.ts');
    const asked: string[] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    const provider = vscode.languages.registerWorkspaceSymbolProvider({
      provideWorkspaceSymbols: async (q) => {
        if (!q.startsWith('hashmenuSlow')) return [];
        asked.push(q);
        if (asked.length === 1) await held;
        return [new vscode.SymbolInformation(`${q}Fn`, vscode.SymbolKind.Function, '', new vscode.Location(target, new vscode.Range(0, 0, 2, 1)))];
      },
    });
    const until = async (check: () => boolean, what: string) => {
      const end = Date.now() + 20_000;
      while (!check()) {
        assert.ok(Date.now() < end, `timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    try {
      await menu.search(1, 'hashmenu'); // the file list read
      const first = menu.search(2, 'hashmenuSlow');
      await until(() => asked.length === 1, 'the first search to reach the provider');
      const later = [3, 4, 5].map((seq) => menu.search(seq, `hashmenuSlow${'x'.repeat(seq - 2)}`));
      // The newest word's paths come at once; the words it superseded stop before answering.
      await until(() => posted.some((m) => m.seq === 5 && m.pending), 'the paths of the newest word');
      assert.ok(!posted.some((m) => m.seq === 3 || m.seq === 4), 'superseded words are not answered');
      release();
      await Promise.all([first, ...later]);
      assert.deepEqual(asked, ['hashmenuSlow', 'hashmenuSlowxxx'], 'the words between were never searched');
      const last = posted.at(-1);
      assert.ok(last?.seq === 5 && !last.pending && last.options.some((o) => o.label === 'hashmenuSlowxxxFn'), JSON.stringify(last));
    } finally {
      release();
      provider.dispose();
      menu.dispose();
      chips.dispose();
    }
  });

  it('the names the codebase index knows are listed with the paths, before the language servers answer; one is attached with its outline\'s lines', async () => {
    const posted: Options[] = [];
    const chips = new ContextAttachments(() => vscode.window.activeTextEditor);
    const target = uri('hashmenu-dir', 'hashmenuTarget.ts');
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    const providers = [
      // The language server: slow, and it names the same function.
      vscode.languages.registerWorkspaceSymbolProvider({
        provideWorkspaceSymbols: async (q) => {
          if (!q.startsWith('hashmenuAl')) return [];
          await held;
          return [new vscode.SymbolInformation('hashmenuAlpha', vscode.SymbolKind.Function, '', new vscode.Location(target, new vscode.Range(0, 0, 2, 1)))];
        },
      }),
      vscode.languages.registerDocumentSymbolProvider({ pattern: '**/hashmenuTarget.ts' }, {
        provideDocumentSymbols: () => [new vscode.DocumentSymbol('hashmenuAlpha', '', vscode.SymbolKind.Function, new vscode.Range(0, 0, 2, 1), new vscode.Range(0, 16, 0, 29))],
      }),
    ];
    const menu = new HashMenuHost({
      attachments: chips,
      editor: () => undefined,
      post: (m) => posted.push(m),
      names: async (q) => ('hashmenualpha'.startsWith(q.toLowerCase()) ? [{ name: 'hashmenuAlpha', line: 1, uri: target }] : []),
    });
    try {
      const searching = menu.search(1, 'hashmenuAl');
      const end = Date.now() + 20_000;
      while (!posted.some((m) => m.pending && m.options.some((o) => o.kind === 'symbol'))) {
        assert.ok(Date.now() < end, `no quick symbol while the language server is held: ${JSON.stringify(posted)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      const quick = posted.find((m) => m.pending && m.options.some((o) => o.kind === 'symbol'));
      const option = quick?.options.find((o) => o.kind === 'symbol');
      assert.deepEqual([option?.label, option?.detail], ['hashmenuAlpha', 'hashmenu-dir/hashmenuTarget.ts:1']);
      release();
      await searching;
      const last = posted.at(-1);
      assert.equal(last?.options.filter((o) => o.kind === 'symbol' && o.label === 'hashmenuAlpha').length, 1, 'the language server\'s same symbol is not listed twice');
      await menu.choose(1, option!, undefined);
      const range = chips.attachments.find((a) => a.kind === 'selection');
      assert.deepEqual([range?.symbol, range?.startLine, range?.endLine], ['hashmenuAlpha', 1, 3], 'the outline\'s lines of the symbol');
    } finally {
      release();
      for (const p of providers) p.dispose();
      menu.dispose();
      chips.dispose();
    }
  });

  it('a file created after the list was read is found by the next word', async () => {
    const posted: Options[] = [];
    const chips = new ContextAttachments(() => vscode.window.activeTextEditor);
    const menu = new HashMenuHost({ attachments: chips, editor: () => undefined, post: (m) => posted.push(m) });
    try {
      await menu.search(1, 'hashmenuLate');
      assert.ok(!posted.at(-1)?.options.some((o) => o.kind === 'file'));
      await write(uri('hashmenu-dir', 'hashmenuLate.ts'), 'late\n');
      const end = Date.now() + 10_000;
      let found = false;
      for (let seq = 2; !found && Date.now() < end; seq++) {
        await menu.search(seq, 'hashmenuLate');
        found = !!posted.at(-1)?.options.some((o) => o.label === 'hashmenuLate.ts');
        if (!found) await new Promise((r) => setTimeout(r, 100));
      }
      assert.ok(found, 'the new file is listed');
    } finally {
      menu.dispose();
      chips.dispose();
    }
  });

  describe('#changes, #staged and #branch on a real repository', () => {
    let api: GitApi | undefined;
    let root: vscode.Uri | undefined;
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd: root?.fsPath, encoding: 'utf8' });

    before(async () => {
      const ext = vscode.extensions.getExtension<{ enabled: boolean; onDidChangeEnablement: vscode.Event<boolean>; getAPI(v: 1): GitApi }>('vscode.git');
      assert.ok(ext, 'the built-in Git extension');
      const exports = ext.isActive ? ext.exports : await ext.activate();
      const enabled = exports.enabled ? Promise.resolve() : new Promise<void>((r) => exports.onDidChangeEnablement((on) => on && r()));
      await vscode.workspace.getConfiguration('git').update('enabled', true, vscode.ConfigurationTarget.Global);
      await enabled;
      api = exports.getAPI(1);
      if (api.state !== 'initialized') await new Promise<void>((r) => api?.onDidChangeState((s) => s === 'initialized' && r()));
      root = uri(`hashmenu-repo-${Date.now()}`);
      await vscode.workspace.fs.createDirectory(root);
      git('init', '-q', '-b', 'main');
      await write(vscode.Uri.joinPath(root, 'price.ts'), 'export const price = 1;\n');
      git('add', '.');
      git('commit', '-q', '-m', 'first');
      git('checkout', '-q', '-b', 'feature');
      await write(vscode.Uri.joinPath(root, 'price.ts'), 'export const price = 2;\n');
      git('commit', '-q', '-am', 'on the branch');
      await write(vscode.Uri.joinPath(root, 'staged.ts'), 'export const staged = true;\n');
      git('add', 'staged.ts');
      await write(vscode.Uri.joinPath(root, 'price.ts'), 'export const price = 3;\n');
      const repo = (await (api as unknown as { openRepository(u: vscode.Uri): Promise<GitRepository | null> }).openRepository(root)) ?? api.getRepository(root);
      assert.ok(repo, 'the Git extension opened the repository');
    });
    after(async () => {
      await vscode.workspace.getConfiguration('git').update('enabled', false, vscode.ConfigurationTarget.Global);
      if (root) await vscode.workspace.fs.delete(root, { recursive: true }).then(undefined, () => undefined);
    });

    it('each reads its own diff of the repository holding the editor\'s file', async () => {
      const inRepo = vscode.Uri.joinPath(root as vscode.Uri, 'price.ts');
      const working = await readChanges('working', inRepo);
      const staged = await readChanges('staged', inRepo);
      const branch = await readChanges('branch', inRepo);
      assert.ok('diff' in working && /-export const price = 2;\n\+export const price = 3;/.test(working.diff) && !/staged\.ts/.test(working.diff) && /^hashmenu-repo-\d+: /.test(working.name), JSON.stringify(working));
      assert.ok('diff' in staged && /\+export const staged = true;/.test(staged.diff) && !/price\.ts/.test(staged.diff), JSON.stringify(staged));
      // The branch's own commits, not what is uncommitted.
      assert.ok('diff' in branch && /: main\.\.\.feature$/.test(branch.name) && /-export const price = 1;\n\+export const price = 2;/.test(branch.diff) && !/price = 3/.test(branch.diff) && !/staged/.test(branch.diff), JSON.stringify(branch));
      git('reset', '-q', 'staged.ts');
      const none = await readChanges('staged', inRepo);
      assert.ok('why' in none && /Nothing is staged/.test(none.why), JSON.stringify(none));
    });
  });
});
