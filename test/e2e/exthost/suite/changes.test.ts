// A reply's changes across files in a real extension host: Keep through VS Code's WorkspaceEdit
// (exact bytes on disk: a byte-order mark, CRLF, no final newline, a new file), an open editor of a
// changed file showing the reply's text, Undo and Redo byte for byte, and an editor holding unsaved
// work stopping Undo with nothing written.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { closeAllEditors } from './fakes';
import { keepChanges, reviewReply, turnChanges, type ChangesPorts } from '../../../../src/core';
import { vscodeChangeFiles } from '../../../../src/extension/changes/changeFiles';
import { ChangeStorage } from '../../../../src/extension/changes/changeStorage';

const fence = (path: string, code: string) => '```ts ' + path + '\n' + code + '\n```';

describe('A reply\'s changes across files (Apply All, Undo, Redo)', function () {
  this.timeout(60_000);
  const folder = () => {
    const f = vscode.workspace.workspaceFolders?.[0];
    assert.ok(f, 'the test window has a workspace folder');
    return f.uri;
  };
  const at = (...parts: string[]) => vscode.Uri.joinPath(folder(), 'changes-check', ...parts);
  const bytes = async (uri: vscode.Uri) => Buffer.from(await vscode.workspace.fs.readFile(uri));
  const exists = (uri: vscode.Uri) => Promise.resolve(vscode.workspace.fs.stat(uri)).then(() => true, () => false);
  let store: string;
  let ports: ChangesPorts;

  before(async () => {
    store = await mkdtemp(join(tmpdir(), 'changes-store-'));
    const storage = new ChangeStorage(store);
    ports = { files: vscodeChangeFiles(), copies: storage, journal: storage, now: () => Date.now() };
  });
  after(async () => {
    await closeAllEditors();
    await vscode.workspace.fs.delete(at(), { recursive: true }).then(undefined, () => undefined);
    await rm(store, { recursive: true, force: true });
  });

  it('keeps, undoes and redoes three files byte for byte; an open editor follows', async () => {
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('export const a = 1;\r\nexport const b = 2;\r\n')]);
    const noEol = Buffer.from('one\ntwo');
    await vscode.workspace.fs.writeFile(at('a.ts'), bom);
    await vscode.workspace.fs.writeFile(at('b.txt'), noEol);
    const doc = await vscode.workspace.openTextDocument(at('a.ts'));
    await vscode.window.showTextDocument(doc);
    const reply = [fence('changes-check/a.ts', 'export const a = 10;\nexport const b = 20;'), fence('changes-check/b.txt', 'one\n2'), fence('changes-check/new.ts', 'export {};')].join('\n\n');
    const review = await reviewReply(reply, ports.files);
    assert.deepEqual(review.files.map((f) => f.path), ['changes-check/a.ts', 'changes-check/b.txt', 'changes-check/new.ts']);
    const kept = await keepChanges(review.files, { conversationId: 'c1', messageId: 'msg_a02' }, ports);
    assert.ok(kept.ok, JSON.stringify(kept));
    const applied = [await bytes(at('a.ts')), await bytes(at('b.txt')), await bytes(at('new.ts'))];
    assert.deepEqual(applied[0], Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('export const a = 10;\r\nexport const b = 20;\r\n')]));
    assert.equal(applied[2].toString(), 'export {};\n');
    // The editor shows the file as it is on disk, not dirty.
    for (let i = 0; i < 100 && !doc.getText().includes('= 10;'); i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(doc.getText(), 'export const a = 10;\r\nexport const b = 20;\r\n');
    assert.equal(doc.isDirty, false);

    const undo = await turnChanges(kept.set.id, 'undone', ports);
    assert.ok(undo.ok, JSON.stringify(undo));
    assert.deepEqual(await bytes(at('a.ts')), bom);
    assert.deepEqual(await bytes(at('b.txt')), noEol);
    assert.equal(await exists(at('new.ts')), false);
    const redo = await turnChanges(kept.set.id, 'applied', ports);
    assert.ok(redo.ok, JSON.stringify(redo));
    assert.deepEqual([await bytes(at('a.ts')), await bytes(at('b.txt')), await bytes(at('new.ts'))], applied);
  });

  it('an editor with unsaved work stops Undo: nothing is written and the file is named', async () => {
    await vscode.workspace.fs.writeFile(at('c.ts'), Buffer.from('const c = 1;\n'));
    const review = await reviewReply(fence('changes-check/c.ts', 'const c = 2;'), ports.files);
    const kept = await keepChanges(review.files, { conversationId: 'c1', messageId: 'msg_a04' }, ports);
    assert.ok(kept.ok);
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(at('c.ts')));
    await editor.edit((e) => e.insert(new vscode.Position(0, 0), '// mine\n'));
    assert.equal(editor.document.isDirty, true);
    const undo = await turnChanges(kept.set.id, 'undone', ports);
    assert.ok(!undo.ok && undo.reason === 'differs', JSON.stringify(undo));
    assert.deepEqual(undo.files.map((f) => f.path), ['changes-check/c.ts']);
    assert.equal((await bytes(at('c.ts'))).toString(), 'const c = 2;\n');
    assert.ok(editor.document.getText().startsWith('// mine\n'), 'the unsaved work is still in the editor');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });
});
