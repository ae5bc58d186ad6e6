// Edit in the editor: nothing unaccepted reaches the disk. During the review a save, by hand or
// automatic (files.autoSave afterDelay, onFocusChange), writes the file as it was plus only the kept
// hunks; the proposal stays in the editor, marked as modified, until it is kept.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { InlineEditor } from '../../../../src/extension/inlineEdit/inlineEdit';
import type { TurnService } from '../../../../src/extension/pipeline/turnService';
import { closeAllEditors, silent } from './fakes';
import { report } from './figures';
import { fakeTurns, SOURCE, until } from './inlineEditFakes';

/** A reply for the whole file with two changes: load()'s parameter (two lines), and VERSION. */
const TWO = "```js\nimport { readFile } from 'node:fs/promises';\n\nexport async function load(file) {\n  const text = await readFile(file, 'utf8');\n  return JSON.parse(text);\n}\n\nexport const VERSION = 3;\n```";
const PROPOSED = SOURCE.replace('load(path)', 'load(file)').replace('readFile(path,', 'readFile(file,').replace('VERSION = 2', 'VERSION = 3');
const VERSION_KEPT = SOURCE.replace('VERSION = 2', 'VERSION = 3');

const onDisk = async (uri: vscode.Uri) => new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));

/** Resolves at the first save of `doc` after which the file on disk passes `test` (each save's text is given to `seen`), or fails after 20 s. */
function savedUntil(doc: vscode.TextDocument, test: (disk: string) => boolean, what: string, seen?: (disk: string) => void): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      sub.dispose();
      reject(new Error(`not within 20 s: ${what}`));
    }, 20_000);
    const sub = vscode.workspace.onDidSaveTextDocument(async (d) => {
      if (d !== doc) return;
      const disk = await onDisk(doc.uri);
      seen?.(disk);
      if (!test(disk)) return;
      clearTimeout(timer);
      sub.dispose();
      resolve(disk);
    });
  });
}

async function setAutoSave(mode: string | undefined): Promise<void> {
  await vscode.workspace.getConfiguration('files').update('autoSave', mode, vscode.ConfigurationTarget.Global);
}

describe('Edit in the editor: a save during the review', () => {
  let n = 0;
  /** A new file of SOURCE on disk, opened in an editor with the whole text selected. */
  async function open(): Promise<vscode.TextEditor> {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(folder, 'the test window has a workspace folder');
    const uri = vscode.Uri.joinPath(folder, `save-${Date.now()}-${n++}.js`);
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(SOURCE));
    const editor = await vscode.window.showTextDocument(uri, { preview: false, preserveFocus: true });
    editor.selection = new vscode.Selection(0, 0, 8, 0);
    return editor;
  }
  const editor = (turns: Pick<TurnService, 'run' | 'quote'>) => new InlineEditor({ turns, logger: silent, ask: async () => 'Rename path to file, version 3' });

  afterEach(async () => {
    await setAutoSave(undefined);
    await closeAllEditors();
  });

  it('by hand: the file on disk stays as it was, the proposal stays in the editor (modified) with its hunks where they are; Undo Edit leaves it clean', async () => {
    await setAutoSave('off');
    const ed = await open();
    const doc = ed.document;
    const inline = editor(fakeTurns(TWO, []));
    try {
      assert.equal(await inline.edit(ed), 'reviewing');
      const review = inline.reviewOf(doc.uri);
      assert.ok(review);
      assert.deepEqual([review.hunkLine(0), review.hunkLine(1)], [2, 7]);
      assert.ok(await doc.save(), 'saved');
      assert.equal(await onDisk(doc.uri), SOURCE, 'the proposal is not on disk');
      await until(doc, (t) => t === PROPOSED, 'the proposal back in the editor after the save');
      assert.ok(doc.isDirty, 'the editor differs from the file on disk');
      assert.equal(inline.reviewOf(doc.uri), review, 'the review goes on');
      assert.deepEqual([review.hunkLine(0), review.hunkLine(1)], [2, 7], 'the hunks are where they were');
      // Undo of one hunk after the round trip takes out its own lines, nothing else.
      await inline.decide(review, 0, false);
      assert.equal(doc.getText(), VERSION_KEPT);
      await inline.finish(review, false);
      assert.equal(doc.getText(), SOURCE);
      assert.equal(doc.isDirty, false, 'the editor is the file on disk again');
    } finally {
      inline.dispose();
    }
  });

  it('files.autoSave afterDelay: the original on disk while the change waits, the kept hunk only after Keep, everything after Keep Edit', async () => {
    await setAutoSave('afterDelay');
    const ed = await open();
    const doc = ed.document;
    const inline = editor(fakeTurns(TWO, []));
    const written: string[] = [];
    const started = Date.now();
    try {
      const saved = savedUntil(doc, () => true, 'an auto save during the review', (disk) => written.push(disk));
      assert.equal(await inline.edit(ed), 'reviewing');
      const review = inline.reviewOf(doc.uri);
      assert.ok(review);
      assert.equal(await saved, SOURCE, 'the auto save wrote the original');
      await until(doc, (t) => t === PROPOSED, 'the proposal back in the editor');
      assert.ok(doc.isDirty);
      // Keep the VERSION hunk: the next auto save writes it, and only it.
      const kept = savedUntil(doc, (disk) => disk !== SOURCE, 'an auto save with the kept hunk', (disk) => written.push(disk));
      await inline.decide(review, 1, true);
      assert.equal(await kept, VERSION_KEPT);
      await until(doc, (t) => t === PROPOSED, 'the pending hunk back in the editor');
      assert.ok(written.every((disk) => disk === SOURCE || disk === VERSION_KEPT), 'no save wrote the pending hunk');
      report(`Edit in the editor, files.autoSave afterDelay: ${written.length} saves in ${Date.now() - started} ms of review, none with the pending hunk`);
      await inline.finish(review, true);
      assert.equal(inline.reviewOf(doc.uri), undefined);
      await doc.save();
      assert.equal(await onDisk(doc.uri), PROPOSED, 'Keep Edit, then a save: everything on disk');
    } finally {
      inline.dispose();
    }
  });

  it('files.autoSave afterDelay while the user types above the change: what is typed is saved, the pending hunk is not, and stays where it moved', async () => {
    await setAutoSave('afterDelay');
    const ed = await open();
    ed.selection = new vscode.Selection(2, 0, 6, 0);
    const doc = ed.document;
    const inline = editor(fakeTurns("```js\nexport async function load(path) {\n  const text = await readFile(path, 'utf8');\n  return JSON.parse(text) ?? {};\n}\n```", []));
    const changed = SOURCE.replace('JSON.parse(text);', 'JSON.parse(text) ?? {};');
    try {
      assert.equal(await inline.edit(ed), 'reviewing');
      const review = inline.reviewOf(doc.uri);
      assert.ok(review);
      assert.equal(review.hunkLine(0), 4);
      const saved = savedUntil(doc, (disk) => disk.startsWith('// typed'), 'an auto save with the typed line');
      for (const key of ['// typed', '\n']) {
        const typed = new vscode.WorkspaceEdit();
        typed.insert(doc.uri, new vscode.Position(0, key === '\n' ? 8 : 0), key);
        assert.ok(await vscode.workspace.applyEdit(typed));
      }
      assert.equal(await saved, `// typed\n${SOURCE}`, 'the typed line saved, the pending hunk not');
      await until(doc, (t) => t === `// typed\n${changed}`, 'the proposal back below the typed line');
      assert.equal(review.hunkLine(0), 5, 'the hunk moved down with the line typed above it');
      await inline.finish(review, true);
      await doc.save();
      assert.equal(await onDisk(doc.uri), `// typed\n${changed}`);
    } finally {
      inline.dispose();
    }
  });

  it('files.autoSave onFocusChange: moving to another editor saves the original; the proposal stays', async () => {
    await setAutoSave('onFocusChange');
    const ed = await open();
    const doc = ed.document;
    const inline = editor(fakeTurns(TWO, []));
    try {
      assert.equal(await inline.edit(ed), 'reviewing');
      await vscode.window.showTextDocument(doc, { preview: false });
      const saved = savedUntil(doc, () => true, 'the save on leaving the editor');
      const other = vscode.Uri.joinPath(doc.uri, '..', `elsewhere-${n++}.js`);
      await vscode.workspace.fs.writeFile(other, new TextEncoder().encode('elsewhere\n'));
      await vscode.window.showTextDocument(other, { preview: false });
      assert.equal(await saved, SOURCE);
      await until(doc, (t) => t === PROPOSED, 'the proposal back in the editor');
      assert.ok(inline.reviewOf(doc.uri), 'the review goes on');
    } finally {
      inline.dispose();
    }
  });

  it('Undo (Ctrl+Z) after a save takes the pending hunks out as they are on disk: the review ends, the editor is clean', async () => {
    await setAutoSave('off');
    const ed = await open();
    const doc = ed.document;
    const inline = editor(fakeTurns(TWO, []));
    try {
      assert.equal(await inline.edit(ed), 'reviewing');
      assert.ok(await doc.save());
      await until(doc, (t) => t === PROPOSED, 'the proposal back in the editor');
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand('undo');
      await until(doc, (t) => t === SOURCE, 'one undo');
      assert.equal(inline.reviewOf(doc.uri), undefined, 'the review is over');
      assert.equal(inline.lastEnd, 'undone');
      assert.equal(doc.isDirty, false, 'the editor is the file on disk');
    } finally {
      inline.dispose();
    }
  });
});
