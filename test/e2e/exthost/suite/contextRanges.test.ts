// Add Selection with several selections in several files, pins read again at each send, and an
// item of "Sent with this message" opened at its lines: against the real editor and file system.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ContextAttachments } from '../../../../src/extension/context/attachments';
import { openSentItem } from '../../../../src/extension/context/openSent';
import { referencedContext } from '../../../../src/extension/context/chatReferences';
import { findSymbols } from '../../../../src/extension/context/symbols';
import { closeAllEditors } from './fakes';
import { onceEach, type Pin } from '../../../../src/core';

async function until(check: () => boolean, what: () => string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('Context: ranges and pins', () => {
  const folder = () => {
    const f = vscode.workspace.workspaceFolders?.[0];
    assert.ok(f, 'the test window has a workspace folder');
    return f.uri;
  };
  const lines = (name: string, n: number) => Array.from({ length: n }, (_, i) => `${name} line ${i + 1}`).join('\n') + '\n';
  const files = ['ranges-a.ts', 'ranges-b.ts', 'pinned-c.md', 'sent-open.ts'];
  const uri = (name: string) => vscode.Uri.joinPath(folder(), name);
  const write = (name: string, text: string) => vscode.workspace.fs.writeFile(uri(name), new TextEncoder().encode(text));

  before(async () => {
    await write('ranges-a.ts', lines('a', 60));
    await write('ranges-b.ts', lines('b', 30));
    await write('pinned-c.md', 'first version\n');
  });
  after(async () => {
    await closeAllEditors();
    for (const f of files) await vscode.workspace.fs.delete(uri(f)).then(undefined, () => undefined);
  });

  it('each selection of each editor is its own chip named path:lines with its exact text; one ending at column 0 leaves that line out', async () => {
    const chips = new ContextAttachments(() => vscode.window.activeTextEditor);
    try {
      const a = await vscode.window.showTextDocument(uri('ranges-a.ts'));
      a.selections = [new vscode.Selection(40, 0, 45, 3), new vscode.Selection(11, 0, 40, 0), new vscode.Selection(2, 0, 2, 0)];
      assert.ok(chips.addSelection());
      const b = await vscode.window.showTextDocument(uri('ranges-b.ts'));
      b.selections = [new vscode.Selection(0, 0, 0, 9), new vscode.Selection(10, 2, 20, 0)];
      assert.ok(chips.addSelection());
      // The same lines again replace their chip.
      b.selections = [new vscode.Selection(0, 0, 0, 9)];
      assert.ok(chips.addSelection());
      assert.deepEqual(chips.chips().map((c) => c.name).sort(), ['ranges-a.ts:12-40', 'ranges-a.ts:41-46', 'ranges-b.ts:1', 'ranges-b.ts:11-20'].sort());
      const twelve = chips.attachments.find((x) => x.startLine === 12);
      assert.equal(twelve?.content, lines('a', 60).split('\n').slice(11, 40).join('\n') + '\n', 'lines 12 to 40, not 41');
    } finally {
      chips.dispose();
    }
  });

  it('a pinned file leaves the chips, stays with the conversation and is read again at each send (an unsaved edit included)', async () => {
    let pins: Pin[] = [];
    const chips = new ContextAttachments(() => vscode.window.activeTextEditor, { get: () => pins, set: (p) => (pins = p) });
    try {
      assert.ok(await chips.addFile(uri('pinned-c.md')));
      const id = chips.attachments[0].id;
      chips.pin(id);
      assert.deepEqual(pins, [{ kind: 'file', path: 'pinned-c.md' }]);
      assert.equal(chips.attachments.length, 0, 'no longer a chip of the next message only');
      let read = await chips.pinned();
      assert.equal(read[0]?.content, 'first version\n');
      const chip = chips.chips()[0];
      assert.ok(chip.pinned && /kept for this conversation, no extra credits/.test(chip.detail), chip.detail);
      await write('pinned-c.md', 'second version on disk\n');
      read = await chips.pinned();
      assert.equal(read[0]?.content, 'second version on disk\n');
      const editor = await vscode.window.showTextDocument(uri('pinned-c.md'));
      await editor.edit((e) => e.insert(new vscode.Position(0, 0), 'unsaved: '));
      read = await chips.pinned();
      assert.equal(read[0]?.content, 'unsaved: second version on disk\n', "the editor's text, not the disk's");
      assert.deepEqual(chips.forMeter().map((x) => x.path), ['pinned-c.md'], 'the meter counts it');
      chips.remove(chip.id);
      assert.deepEqual(pins, []);
    } finally {
      chips.dispose();
    }
  });

  it('a folder: its files as chips, shallow first, within the budget; a file already pinned goes once', async () => {
    await write('folder-x/one.ts', 'export const one = 1;\n');
    await write('folder-x/deep/two.ts', 'export const two = 2;\n');
    await write('folder-x/big.ts', `export const big = '${'x'.repeat(400)}';\n`);
    let pins: Pin[] = [{ kind: 'file', path: 'folder-x/one.ts' }];
    const chips = new ContextAttachments(() => vscode.window.activeTextEditor, { get: () => pins, set: (p) => (pins = p) }, () => 100);
    try {
      assert.equal(await chips.addFolder(uri('folder-x')), 2, 'one.ts and deep/two.ts fit in 100 characters, big.ts does not');
      assert.deepEqual(chips.attachments.map((a) => a.path), ['folder-x/one.ts', 'folder-x/deep/two.ts']);
      const read = await chips.pinned();
      assert.deepEqual(onceEach([...read, ...chips.attachments]).map((a) => a.path), ['folder-x/one.ts', 'folder-x/deep/two.ts'], 'the pinned file once');
    } finally {
      chips.dispose();
      await vscode.workspace.fs.delete(uri('folder-x'), { recursive: true }).then(undefined, () => undefined);
    }
  });

  it('a symbol found by name (the file\'s outline, the workspace\'s as you type) becomes a range chip named by it, its whole lines', async () => {
    await write('symbols-d.txt', 'intro\nfunction alpha() {\n  return 1;\n}\noutro\n');
    const doc = await vscode.workspace.openTextDocument(uri('symbols-d.txt'));
    await until(() => doc.lineCount === 6, () => `the document read the file (${doc.lineCount} lines)`);
    const alpha = new vscode.DocumentSymbol('alpha', '', vscode.SymbolKind.Function, new vscode.Range(1, 9, 3, 1), new vscode.Range(1, 9, 1, 14));
    const providers = [
      vscode.languages.registerDocumentSymbolProvider({ pattern: '**/symbols-d.txt' }, { provideDocumentSymbols: () => [alpha] }),
      vscode.languages.registerWorkspaceSymbolProvider({
        provideWorkspaceSymbols: (q) => ('alpha'.includes(q) ? [new vscode.SymbolInformation('alpha', vscode.SymbolKind.Function, '', new vscode.Location(doc.uri, alpha.range))] : []),
      }),
    ];
    const chips = new ContextAttachments(() => vscode.window.activeTextEditor);
    try {
      const outline = await findSymbols('', doc);
      assert.deepEqual(outline.map((h) => h.name), ['alpha']);
      const found = (await findSymbols('alp')).filter((h) => h.uri.toString() === doc.uri.toString());
      assert.deepEqual(found.map((h) => [h.name, h.range.start.line]), [['alpha', 1]]);
      assert.ok(await chips.addSymbol(found[0]));
      const chip = chips.chips()[0];
      assert.deepEqual([chip.name, chip.detail.split(' · ')[0]], ['alpha', 'symbols-d.txt:2-4']);
      assert.equal(chips.attachments[0].content, 'function alpha() {\n  return 1;\n}');
    } finally {
      chips.dispose();
      for (const p of providers) p.dispose();
      await vscode.workspace.fs.delete(uri('symbols-d.txt')).then(undefined, () => undefined);
    }
  });

  it('an item of "Sent with this message" opens its file at its lines; a path outside the workspace is not opened', async () => {
    await closeAllEditors();
    await write('sent-open.ts', lines('s', 50));
    // The file as written (a document model may take the write in a moment after it).
    const doc = await vscode.workspace.openTextDocument(uri('sent-open.ts'));
    await until(() => doc.lineCount === 51, () => `the document read the file (${doc.lineCount} lines)`);
    await openSentItem('sent-open.ts', 12, 40);
    const shown = () => vscode.window.activeTextEditor;
    await until(
      () => shown()?.document.uri.toString() === uri('sent-open.ts').toString() && shown()?.selection.start.line === 11 && shown()?.selection.end.line === 39,
      () => `lines 12-40 of sent-open.ts selected (${shown()?.document.uri.path} ${shown()?.document.lineCount} lines, ${JSON.stringify(shown()?.selections)})`,
    );
    assert.equal(shown()?.document.getText(shown()?.selection), lines('s', 50).split('\n').slice(11, 40).join('\n'));
    await closeAllEditors();
    await openSentItem('../outside.ts', 1, 1);
    assert.equal(vscode.window.activeTextEditor, undefined);
  });

  it('a link in the workspace to a file outside it is not attached (alone, in a folder or as a pin made a link later); a link to a file inside it is', async function () {
    if (process.platform === 'win32') this.skip();
    const fs = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-chat-outside-'));
    const secret = path.join(outside, 'credentials');
    fs.writeFileSync(secret, 'aws_secret_access_key = not-for-the-service\n');
    const dir = path.join(folder().fsPath, 'linked');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'real.md'), 'a file of the workspace\n');
    fs.symlinkSync(secret, path.join(dir, 'setup.md'));
    fs.symlinkSync(path.join(dir, 'real.md'), path.join(dir, 'alias.md'));
    const chips = new ContextAttachments(() => vscode.window.activeTextEditor);
    try {
      assert.equal(await chips.addFile(vscode.Uri.file(path.join(dir, 'setup.md'))), false, 'the link out was attached');
      assert.ok(await chips.addFile(vscode.Uri.file(path.join(dir, 'alias.md'))), 'a link to a file of the workspace is a file of the workspace');
      chips.clear();
      await chips.addFolder(vscode.Uri.file(dir));
      const sent = chips.attachments.map((a) => a.content).join('\n');
      assert.ok(!sent.includes('not-for-the-service'), 'the folder took the file the link leads to');
      assert.ok(sent.includes('a file of the workspace'));
      chips.dispose();
      // A pin is read again at each send: a file pinned while it was the workspace's, made a link
      // out afterwards, is left out and its chip says where it leads.
      let pins: Pin[] = [];
      const pinned = new ContextAttachments(() => vscode.window.activeTextEditor, { get: () => pins, set: (p) => (pins = p) });
      try {
        fs.writeFileSync(path.join(dir, 'notes.md'), 'notes of the workspace\n');
        assert.ok(await pinned.addFile(vscode.Uri.file(path.join(dir, 'notes.md'))));
        pinned.pin(pinned.attachments[0].id);
        assert.equal((await pinned.pinned())[0]?.content, 'notes of the workspace\n');
        fs.rmSync(path.join(dir, 'notes.md'));
        fs.symlinkSync(secret, path.join(dir, 'notes.md'));
        const read = await pinned.pinned();
        assert.ok(!read.some((a) => a.content.includes('not-for-the-service')), 'the pin took the file the link leads to');
        assert.deepEqual(read, []);
        assert.match(pinned.chips()[0].detail, /a link to .*credentials, outside the workspace: nothing of it is sent/);
      } finally {
        pinned.dispose();
      }
      // @aichat's references: the link out is not sent, and the reply is told why.
      const refs = [vscode.Uri.file(path.join(dir, 'setup.md')), vscode.Uri.file(path.join(dir, 'real.md'))].map((value, i) => ({ id: `file${i}`, value }));
      const referenced = await referencedContext(refs);
      assert.deepEqual(referenced.attachments.map((a) => a.path), ['linked/real.md']);
      assert.ok(!referenced.attachments.some((a) => a.content.includes('not-for-the-service')));
      assert.equal(referenced.notes.length, 1, JSON.stringify(referenced.notes));
      assert.match(referenced.notes[0], /setup\.md is a link to .*credentials, outside the workspace, and was not attached/);
    } finally {
      chips.dispose();
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });
});
