// Edit in the editor against real documents, editors, undo and saves: the turn pipeline is a
// stand-in that streams a given reply (the pipeline itself is tested with the reference server
// elsewhere), the instruction is given without the quick input.
import assert from 'node:assert/strict';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { InlineEditor, LENS_SELECTOR } from '../../../../src/extension/inlineEdit/inlineEdit';
import type { TurnService } from '../../../../src/extension/pipeline/turnService';
import { closeAllEditors, silent } from './fakes';
import { fakeTurns, scriptedTurns, SOURCE, until, type Sent } from './inlineEditFakes';

const NEW_LOAD = ['export async function load(path, fallback = {}) {', "  const text = await readFile(path, 'utf8');", '  if (!text) return fallback;', '  return JSON.parse(text);', '}'];

/** A new notebook with one code cell of SOURCE, shown; the cell's document and its editor once it has one. */
async function notebookCell(): Promise<{ notebook: vscode.NotebookDocument; doc: vscode.TextDocument; ed: vscode.TextEditor }> {
  const cell = new vscode.NotebookCellData(vscode.NotebookCellKind.Code, SOURCE, 'javascript');
  const notebook = await vscode.workspace.openNotebookDocument('jupyter-notebook', new vscode.NotebookData([cell]));
  await vscode.window.showNotebookDocument(notebook, { preserveFocus: true });
  const doc = notebook.cellAt(0).document;
  const end = Date.now() + 10_000;
  let ed = vscode.window.visibleTextEditors.find((e) => e.document === doc);
  while (!ed && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 50));
    ed = vscode.window.visibleTextEditors.find((e) => e.document === doc);
  }
  assert.ok(ed, 'the cell has an editor');
  return { notebook, doc, ed };
}

/**
 * Ctrl+Z in the first cell of `notebook` (whose document is `doc`), as when the user clicks into
 * the cell and presses it: the cell is selected, out of its edit mode and into it again, and its
 * editor has the focus when Undo runs.
 */
async function undoInCell(notebook: vscode.NotebookDocument, doc: vscode.TextDocument): Promise<void> {
  await vscode.window.showNotebookDocument(notebook, { selections: [new vscode.NotebookRange(0, 1)] });
  await vscode.commands.executeCommand('notebook.cell.quitEdit');
  await vscode.commands.executeCommand('notebook.cell.edit');
  const focused = Date.now() + 10_000;
  while (vscode.window.activeTextEditor?.document !== doc && Date.now() < focused) await new Promise((r) => setTimeout(r, 50));
  assert.equal(vscode.window.activeTextEditor?.document, doc, 'the cell\'s editor has the focus');
  await vscode.commands.executeCommand('undo');
}

/** Keep Edit on the review of the cell `doc` (its text then `changed`), then one Ctrl+Z in the cell: SOURCE again. */
async function keepThenOneUndo(inline: InlineEditor, notebook: vscode.NotebookDocument, doc: vscode.TextDocument, changed: string): Promise<void> {
  await inline.finish(inline.reviewOf(doc.uri), true);
  assert.equal(inline.reviewOf(doc.uri), undefined);
  assert.equal(doc.getText(), changed);
  await undoInCell(notebook, doc);
  await until(doc, (text) => text !== changed, 'the undo reaches the cell');
  assert.equal(doc.getText(), SOURCE, 'one undo step');
}

/** Resolves once `doc` has a visible editor (`shown`) or has none, or fails after 10 s. */
function inSight(doc: vscode.TextDocument, shown: boolean): Promise<void> {
  const now = () => vscode.window.visibleTextEditors.some((e) => e.document === doc) === shown;
  if (now()) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      sub.dispose();
      reject(new Error(`not within 10 s: the cell ${shown ? 'in sight' : 'out of sight'}`));
    }, 10_000);
    const sub = vscode.window.onDidChangeVisibleTextEditors(() => {
      if (!now()) return;
      clearTimeout(timer);
      sub.dispose();
      resolve();
    });
  });
}

/**
 * The notebook file `uri`, written first: its first code cell is SOURCE, with forty long cells after
 * it (so that the first can be scrolled out of sight), shown. The first cell's document and its
 * editor, lines [2, 6) selected. (A file of its own: an untitled notebook gets the name of one
 * closed just before, whose undo history the workbench may still hold.)
 */
async function longNotebook(uri: vscode.Uri): Promise<{ notebook: vscode.NotebookDocument; shown: vscode.NotebookEditor; doc: vscode.TextDocument; ed: vscode.TextEditor }> {
  const filler = Array.from({ length: 30 }, (_, i) => `// line ${i}\n`).join('');
  const cells = [SOURCE, ...Array.from({ length: 40 }, () => filler)].map((text) => ({ cell_type: 'code', execution_count: null, metadata: {}, outputs: [], source: text.split(/(?<=\n)/) }));
  const ipynb = { cells, metadata: { language_info: { name: 'javascript' } }, nbformat: 4, nbformat_minor: 5 };
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(JSON.stringify(ipynb, null, 1)));
  const notebook = await vscode.workspace.openNotebookDocument(uri);
  const shown = await vscode.window.showNotebookDocument(notebook, { preserveFocus: true, preview: false });
  const doc = notebook.cellAt(0).document;
  assert.equal(doc.getText(), SOURCE);
  await inSight(doc, true);
  const ed = vscode.window.visibleTextEditors.find((e) => e.document === doc);
  assert.ok(ed, 'the cell has an editor');
  ed.selection = new vscode.Selection(2, 0, 6, 0);
  return { notebook, shown, doc, ed };
}

/** A new load() of four lines: the first and the fourth replace lines of SOURCE's, the third is new. */
const SCROLLED_LOAD = ['export async function load(path, fallback = {}) {', "  const text = await readFile(path, 'utf8');", '  if (!text) return fallback;', '  return JSON.parse(text) ?? fallback;', '}'];

/**
 * A reply of SCROLLED_LOAD, line by line, each waited for in the cell: the cell is scrolled out of
 * sight before the new third line goes in, and back before the fourth (its editor is gone
 * meanwhile, so the third line is written without it); `last` runs after the fourth line.
 */
function scrolledReply(doc: vscode.TextDocument, shown: vscode.NotebookEditor, last?: () => Promise<void>): Array<string | (() => Promise<void>)> {
  const script: Array<string | (() => Promise<void>)> = ['```js\n'];
  SCROLLED_LOAD.forEach((line, i) => {
    script.push(`${line}\n`);
    script.push(() => until(doc, (t) => t.split('\n').slice(2, 3 + i).join('\n') === SCROLLED_LOAD.slice(0, i + 1).join('\n'), `line ${i + 1} in the cell`));
    if (i === 1) {
      script.push(async () => {
        shown.revealRange(new vscode.NotebookRange(40, 41), vscode.NotebookEditorRevealType.AtTop);
        await inSight(doc, false);
      });
    }
    if (i === 2) {
      script.push(async () => {
        shown.revealRange(new vscode.NotebookRange(0, 1), vscode.NotebookEditorRevealType.AtTop);
        await inSight(doc, true);
      });
    }
    if (i === 3 && last) script.push(last);
  });
  script.push('```\n');
  return script;
}

describe('Edit in the editor (Edit Selection…)', () => {
  const folder = () => {
    const f = vscode.workspace.workspaceFolders?.[0];
    assert.ok(f, 'the test window has a workspace folder');
    return f.uri;
  };
  let n = 0;
  /** A new file with `text` on disk, opened in an editor with lines [from, to) selected. */
  async function open(text: string, from: number, to: number, name = `edit-${Date.now()}-${n++}.js`): Promise<vscode.TextEditor> {
    const uri = vscode.Uri.joinPath(folder(), name);
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
    // The focus stays where it is: keys the runner presses in the workbench meanwhile (setting the
    // API key at the start of a run) must not reach this editor.
    const editor = await vscode.window.showTextDocument(uri, { preview: false, preserveFocus: true });
    assert.equal(editor.document.getText(), text);
    editor.selection = new vscode.Selection(from, 0, to, 0);
    return editor;
  }
  const onDisk = async (uri: vscode.Uri) => new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  const reply = '```js\nexport async function load(path) {\n  const text = await readFile(path, \'utf8\');\n  return JSON.parse(text) ?? {};\n}\n```\nNow an empty file gives {}.';
  const editor = (turns: Pick<TurnService, 'run' | 'quote'>, asked: string[] = []) =>
    new InlineEditor({ turns, logger: silent, ask: async (quote) => (asked.push(`${quote?.name} ${quote?.cost}`), 'Return {} for an empty file') });

  afterEach(async () => {
    await closeAllEditors();
  });

  it('a selection: the request is an edit with the instruction and the lines; the new code is in place for review, Undo Edit gives the file back unchanged', async () => {
    const ed = await open(SOURCE, 2, 6);
    const sent: Sent[] = [];
    const asked: string[] = [];
    const inline = editor(fakeTurns(reply, sent), asked);
    try {
      assert.equal(await inline.edit(ed), 'reviewing');
      // The selection was let go when the reply began (a cursor at the region's start, moved by nothing but the edit).
      assert.ok(ed.selection.isEmpty, 'the selection became a cursor');
      assert.ok(ed.selection.active.line >= 2 && ed.selection.active.line <= 6, `the cursor is in the region (line ${ed.selection.active.line})`);
      assert.deepEqual(asked, ['Swift Chat 2'], 'the model and price were shown before sending');
      assert.equal(sent.length, 1);
      assert.equal(sent[0].req.surface, 'edit');
      assert.match(sent[0].req.prompt, /^Instruction: Return \{\} for an empty file/);
      assert.match(sent[0].req.prompt, /selected lines 3-6:\n```javascript\nexport async function load\(path\) \{/);
      const doc = ed.document;
      assert.equal(doc.getText(), SOURCE.replace('JSON.parse(text);', 'JSON.parse(text) ?? {};'));
      const review = inline.reviewOf(doc.uri);
      assert.ok(review, 'a review is open');
      assert.equal(review.review.hunks.length, 1, 'only the changed line is a hunk');
      assert.equal(review.hunkLine(0), 4);
      // Keep and Undo above the hunk, through the provider as VS Code asks it.
      const registered = vscode.languages.registerCodeLensProvider(LENS_SELECTOR, inline.lenses);
      try {
        const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri)) ?? [];
        const ours = lenses.filter((l) => l.command?.command.startsWith('aiChat.'));
        assert.deepEqual(ours.map((l) => [l.range.start.line, l.command?.title, l.command?.command]), [
          [4, 'Keep', 'aiChat.keepHunk'],
          [4, 'Undo', 'aiChat.undoHunk'],
        ]);
      } finally {
        registered.dispose();
      }
      assert.equal(inline.lastEnd, undefined, 'the review is still open');
      await inline.finish(review, false);
      assert.equal(inline.lastEnd, 'undone');
      assert.equal(doc.getText(), SOURCE, 'byte for byte');
      assert.equal(inline.reviewOf(doc.uri), undefined);
      await doc.save();
      assert.equal(await onDisk(doc.uri), SOURCE);
    } finally {
      inline.dispose();
    }
  });

  it('an instruction proposed by the caller (the lightbulb\'s Fix) is in the box, with the price, to edit or send', async () => {
    const ed = await open(SOURCE, 2, 6);
    const sent: Sent[] = [];
    const proposals: Array<string | undefined> = [];
    const kept: string[][] = [];
    const inline = new InlineEditor({
      turns: fakeTurns(reply, sent),
      logger: silent,
      ask: async (_quote, _earlier, initial) => (proposals.push(initial), initial),
      keep: async (instruction, text, model) => void kept.push([instruction, text, model]),
    });
    try {
      assert.equal(await inline.edit(ed, 'Fix: Error ts(2322): Type \'string\' is not assignable to type \'number\'.'), 'reviewing');
      assert.deepEqual(proposals, ["Fix: Error ts(2322): Type 'string' is not assignable to type 'number'."]);
      assert.match(sent[0].req.prompt, /^Instruction: Fix: Error ts\(2322\)/);
      assert.equal(kept.length, 1, 'the instruction and the reply are kept for History');
      assert.equal(kept[0][0], "Fix: Error ts(2322): Type 'string' is not assignable to type 'number'.");
      assert.equal(kept[0][1], reply);
      const review = inline.reviewOf(ed.document.uri);
      assert.ok(review);
      await inline.finish(review, false);
      assert.equal(ed.document.getText(), SOURCE);
    } finally {
      inline.dispose();
    }
  });

  it('text typed elsewhere in the file during the review stays after a hunk undone and Undo Edit (the editor\'s Undo is not used past it)', async () => {
    const ed = await open(SOURCE, 0, 8);
    const two = "```js\nimport { readFile } from 'node:fs/promises';\n\nexport async function load(file) {\n  const text = await readFile(file, 'utf8');\n  return JSON.parse(text);\n}\n\nexport const VERSION = 3;\n```";
    const inline = editor(fakeTurns(two, []));
    try {
      assert.equal(await inline.edit(ed), 'reviewing');
      const doc = ed.document;
      const review = inline.reviewOf(doc.uri);
      assert.ok(review);
      assert.equal(review.review.hunks.length, 2);
      // The user adds a line at the end of the file, below the region; then undoes one hunk (an edit of ours after it).
      const typed = new vscode.WorkspaceEdit();
      typed.insert(doc.uri, doc.lineAt(doc.lineCount - 1).range.end, '\n// a note of my own');
      assert.ok(await vscode.workspace.applyEdit(typed));
      await until(doc, (t) => t.endsWith('// a note of my own'), 'the line typed');
      await inline.decide(review, 1, false);
      assert.ok(inline.reviewOf(doc.uri), 'one hunk still to decide');
      await inline.finish(review, false);
      assert.equal(inline.lastEnd, 'undone');
      assert.equal(doc.getText(), SOURCE + '\n// a note of my own', 'the original lines back, the typed line kept');
    } finally {
      inline.dispose();
    }
  });

  it('the file changed on disk by another program during the review: a save does not overwrite it; Undo Edit gives the document back', async () => {
    const ed = await open(SOURCE, 2, 6);
    const inline = editor(fakeTurns(reply, []));
    try {
      assert.equal(await inline.edit(ed), 'reviewing');
      const doc = ed.document;
      if (doc.uri.scheme !== 'file') return;
      const elsewhere = '// written by another program\n';
      writeFileSync(doc.uri.fsPath, elsewhere);
      // VS Code finds the file newer than the document and asks; the save does not happen.
      assert.equal(await doc.save(), false, 'the save was refused');
      assert.equal(readFileSync(doc.uri.fsPath, 'utf8'), elsewhere, 'the other program\'s text is on disk');
      await inline.finish(inline.reviewOf(doc.uri), false);
      assert.equal(doc.getText(), SOURCE, 'the document as it was before the edit');
    } finally {
      inline.dispose();
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor').then(undefined, () => undefined);
    }
  });

  it('Keep Edit: the new code is saved; one Undo gives the original back', async () => {
    const ed = await open(SOURCE, 2, 6);
    const inline = editor(fakeTurns(reply, []));
    try {
      assert.equal(await inline.edit(ed), 'reviewing');
      await inline.finish(inline.reviewOf(ed.document.uri), true);
      assert.equal(inline.reviewOf(ed.document.uri), undefined);
      await ed.document.save();
      const changed = SOURCE.replace('JSON.parse(text);', 'JSON.parse(text) ?? {};');
      assert.equal(await onDisk(ed.document.uri), changed);
      await vscode.window.showTextDocument(ed.document);
      await vscode.commands.executeCommand('undo');
      assert.equal(ed.document.getText(), SOURCE, 'one undo step');
      await ed.document.save();
    } finally {
      inline.dispose();
    }
  });

  it('a cursor without a selection: the enclosing block is edited', async () => {
    const ed = await open(SOURCE, 3, 3);
    const sent: Sent[] = [];
    const inline = editor(fakeTurns(reply, sent));
    try {
      assert.equal(await inline.edit(ed), 'reviewing');
      assert.match(sent[0].req.prompt, /selected lines 3-6:/, 'the function around the cursor, with its closing brace');
      assert.equal(ed.document.getText(), SOURCE.replace('JSON.parse(text);', 'JSON.parse(text) ?? {};'));
      await inline.finish(inline.reviewOf(ed.document.uri), false);
      assert.equal(ed.document.getText(), SOURCE);
    } finally {
      inline.dispose();
    }
  });

  it('per hunk: one change undone, the other kept; a CRLF file keeps its line ends', async () => {
    const crlf = SOURCE.replace(/\n/g, '\r\n');
    const ed = await open(crlf, 0, 8);
    const two = "```js\nimport { readFile } from 'node:fs/promises';\n\nexport async function load(file) {\n  const text = await readFile(file, 'utf8');\n  return JSON.parse(text);\n}\n\nexport const VERSION = 3;\n```";
    const inline = editor(fakeTurns(two, []));
    try {
      assert.equal(await inline.edit(ed), 'reviewing');
      const review = inline.reviewOf(ed.document.uri);
      assert.ok(review);
      assert.equal(review.review.hunks.length, 2);
      await inline.decide(review, 0, false);
      await inline.decide(review, 1, true);
      assert.equal(inline.reviewOf(ed.document.uri), undefined, 'every hunk decided: the review is over');
      assert.equal(ed.document.getText(), crlf.replace('VERSION = 2', 'VERSION = 3'));
      await ed.document.save();
    } finally {
      inline.dispose();
    }
  });

  /** Waits (10 s at most) until the reply streams into `uri`. */
  async function untilStreaming(inline: { isStreaming(uri: vscode.Uri): boolean }, uri: vscode.Uri): Promise<void> {
    const end = Date.now() + 10_000;
    while (!inline.isStreaming(uri) && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    assert.ok(inline.isStreaming(uri), 'the reply streams');
  }

  it('Stop while the reply streams leaves the document as it was; a reply without code changes nothing', async () => {
    const ed = await open(SOURCE, 2, 6);
    const inline = editor(fakeTurns(reply, [], true));
    try {
      const running = inline.edit(ed);
      await untilStreaming(inline, ed.document.uri);
      // Undo Edit while the reply streams stops it.
      await inline.endEdit(ed.document.uri, false);
      assert.equal(await running, 'stopped');
      assert.equal(ed.document.getText(), SOURCE);
      assert.equal(ed.document.isDirty, false);
    } finally {
      inline.dispose();
    }
    const prose = editor(fakeTurns('I would need to know what the file holds before changing this function. Could you say more?', []));
    try {
      assert.equal(await prose.edit(ed), 'noCode');
      assert.equal(ed.document.getText(), SOURCE);
    } finally {
      prose.dispose();
    }
  });

  /** Shows `doc` in its editor (the focus left where it is) and waits until it is the active editor. */
  async function activate(doc: vscode.TextDocument): Promise<void> {
    await vscode.window.showTextDocument(doc, { preview: false, preserveFocus: true });
    const end = Date.now() + 10_000;
    while (vscode.window.activeTextEditor?.document !== doc && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    assert.equal(vscode.window.activeTextEditor?.document, doc, `${doc.uri.path} is the active editor's`);
  }

  it('Stop (Escape) and Undo Edit in the editor of another file leave the reply streaming; in its own editor Stop stops it', async () => {
    const other = (await open('export const other = 1;\n', 0, 1)).document;
    const ed = await open(SOURCE, 2, 6);
    const inline = editor(fakeTurns(reply, [], true));
    try {
      const running = inline.edit(ed);
      await untilStreaming(inline, ed.document.uri);
      await activate(other);
      assert.equal(inline.stop(), false, 'no reply streams into the other file');
      await inline.endEdit(undefined, false);
      await new Promise((r) => setTimeout(r, 100));
      assert.ok(inline.isStreaming(ed.document.uri), 'the reply into the first file still streams');
      assert.equal(other.getText(), 'export const other = 1;\n');
      await activate(ed.document);
      assert.equal(inline.stop(), true);
      assert.equal(await running, 'stopped');
      assert.equal(ed.document.getText(), SOURCE);
      assert.equal(ed.document.isDirty, false);
    } finally {
      inline.dispose();
    }
  });

  it('Keep/Undo of a hunk and Keep Edit/Undo Edit in the editor of another file leave the review alone; in its own editor they act on it', async () => {
    const other = (await open('export const other = 1;\n', 0, 1)).document;
    const ed = await open(SOURCE, 2, 6);
    const changed = SOURCE.replace('JSON.parse(text);', 'JSON.parse(text) ?? {};');
    const inline = editor(fakeTurns(reply, []));
    try {
      assert.equal(await inline.edit(ed), 'reviewing');
      const review = inline.reviewOf(ed.document.uri);
      assert.ok(review);
      await activate(other);
      await inline.decideIn(undefined, undefined, false);
      await inline.decideIn(undefined, undefined, true);
      await inline.endEdit(undefined, false);
      await inline.endEdit(undefined, true);
      assert.equal(inline.reviewOf(ed.document.uri), review, 'the review goes on');
      assert.deepEqual(review.review.pending(), [0], 'its hunk is still pending');
      assert.equal(ed.document.getText(), changed);
      await activate(ed.document);
      await inline.decideIn(undefined, undefined, false);
      assert.equal(inline.reviewOf(ed.document.uri), undefined, 'its only hunk undone: the review is over');
      assert.equal(ed.document.getText(), SOURCE);
      await ed.document.save();
    } finally {
      inline.dispose();
    }
  });

  it('a read-only file and a document that is not a file are refused before anything is asked or sent', async () => {
    const ed = await open(SOURCE, 2, 6);
    chmodSync(ed.document.uri.fsPath, 0o444);
    const sent: Sent[] = [];
    const asked: string[] = [];
    const inline = editor(fakeTurns(reply, sent), asked);
    const provider = vscode.workspace.registerTextDocumentContentProvider('aichat-edit-test', { provideTextDocumentContent: () => SOURCE });
    try {
      assert.equal(await inline.edit(ed), 'refused');
      const virtual = await vscode.window.showTextDocument(vscode.Uri.parse('aichat-edit-test:/view.js'));
      assert.equal(await inline.edit(virtual), 'refused');
      assert.deepEqual([asked.length, sent.length], [0, 0]);
      assert.equal(ed.document.getText(), SOURCE);
    } finally {
      chmodSync(ed.document.uri.fsPath, 0o644);
      provider.dispose();
      inline.dispose();
    }
  });

  it('the extension registers the commands; Edit Selection… refuses a read-only document', async () => {
    const all = new Set(await vscode.commands.getCommands(true));
    for (const c of ['aiChat.editSelection', 'aiChat.keepEdit', 'aiChat.undoEdit', 'aiChat.keepHunk', 'aiChat.undoHunk', 'aiChat.stopEdit']) assert.ok(all.has(c), c);
    const provider = vscode.workspace.registerTextDocumentContentProvider('aichat-edit-test2', { provideTextDocumentContent: () => SOURCE });
    try {
      await vscode.window.showTextDocument(vscode.Uri.parse('aichat-edit-test2:/view.js'));
      assert.equal(await vscode.commands.executeCommand('aiChat.editSelection'), 'refused');
    } finally {
      provider.dispose();
    }
  });

  it('a notebook code cell can be edited and undone', async () => {
    const { notebook, doc, ed } = await notebookCell();
    assert.equal(doc.uri.scheme, 'vscode-notebook-cell');
    ed.selection = new vscode.Selection(2, 0, 6, 0);
    const inline = editor(fakeTurns(reply, []));
    try {
      assert.equal(await inline.edit(ed), 'reviewing');
      assert.equal(doc.getText(), SOURCE.replace('JSON.parse(text);', 'JSON.parse(text) ?? {};'));
      await inline.finish(inline.reviewOf(doc.uri), false);
      assert.equal(doc.getText(), SOURCE);
    } finally {
      inline.dispose();
      await vscode.window.showNotebookDocument(notebook);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
  });

  it('a notebook code cell: Keep Edit, then one Undo in the cell gives its original text back', async () => {
    const { notebook, doc, ed } = await notebookCell();
    ed.selection = new vscode.Selection(2, 0, 6, 0);
    const inline = editor(fakeTurns(reply, []));
    const changed = SOURCE.replace('JSON.parse(text);', 'JSON.parse(text) ?? {};');
    try {
      assert.equal(await inline.edit(ed), 'reviewing');
      await keepThenOneUndo(inline, notebook, doc, changed);
    } finally {
      inline.dispose();
      await vscode.window.showNotebookDocument(notebook);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
  });

  it('a notebook file whose code cell is scrolled out of sight while the reply streams (the preview then takes several undo steps): Keep Edit, then one Undo in the cell gives its original text back', async () => {
    const { notebook, shown, doc, ed } = await longNotebook(vscode.Uri.joinPath(folder(), `edit-${Date.now()}-${n++}.ipynb`));
    const inline = editor(scriptedTurns(scrolledReply(doc, shown)));
    const changed = SOURCE.replace(/export async function load\(path\) \{[\s\S]*?\n\}\n/, `${SCROLLED_LOAD.join('\n')}\n`);
    try {
      assert.equal(await inline.edit(ed), 'reviewing');
      assert.equal(doc.getText(), changed);
      await keepThenOneUndo(inline, notebook, doc, changed);
    } finally {
      inline.dispose();
      await vscode.window.showNotebookDocument(notebook);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
  });

  it('a notebook file whose code cell was scrolled out of sight while the reply streamed: Stop gives the cell back byte for byte and the notebook clean', async () => {
    const { notebook, shown, doc, ed } = await longNotebook(vscode.Uri.joinPath(folder(), `edit-${Date.now()}-${n++}.ipynb`));
    assert.equal(notebook.isDirty, false);
    // Stop (Undo Edit while the reply streams) once the cell holds the fourth line.
    const inline: InlineEditor = editor(scriptedTurns(scrolledReply(doc, shown, () => inline.endEdit(doc.uri, false))));
    try {
      assert.equal(await inline.edit(ed), 'stopped');
      assert.equal(doc.getText(), SOURCE);
      assert.equal(notebook.isDirty, false, 'the notebook is clean');
    } finally {
      inline.dispose();
      await vscode.window.showNotebookDocument(notebook);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
  });

  it('an untitled file can be edited and undone', async () => {
    const doc = await vscode.workspace.openTextDocument({ content: SOURCE, language: 'javascript' });
    const ed = await vscode.window.showTextDocument(doc, { preserveFocus: true });
    ed.selection = new vscode.Selection(2, 0, 6, 0);
    const inline = editor(fakeTurns(reply, []));
    try {
      assert.equal(await inline.edit(ed), 'reviewing');
      assert.equal(doc.getText(), SOURCE.replace('JSON.parse(text);', 'JSON.parse(text) ?? {};'));
      await inline.finish(inline.reviewOf(doc.uri), false);
      assert.equal(doc.getText(), SOURCE);
    } finally {
      inline.dispose();
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
  });

  it('the reply streams into the document line by line: prose is never written, each code line is in the document before the reply ends, removed lines never are; Stop gives the file back byte for byte and clean', async () => {
    const ed = await open(SOURCE, 2, 6);
    const doc = ed.document;
    const original = SOURCE.split('\n').slice(2, 6);
    const texts: string[] = [];
    const watch = vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document === doc) texts.push(doc.getText());
    });
    const script: Array<string | (() => Promise<void>)> = ['Here is the function with a fallback:\n\n```js\n'];
    NEW_LOAD.forEach((line, i) => {
      script.push(`${line}\n`);
      // The line is in the document while the reply still streams.
      script.push(() => until(doc, (t) => t.split('\n').slice(2, 3 + i).join('\n') === NEW_LOAD.slice(0, i + 1).join('\n'), `line ${i + 1} in the document`));
    });
    let stop: (() => void) | undefined;
    script.push(() => new Promise<void>((resolve) => (stop = resolve)));
    const inline = editor(scriptedTurns(script));
    try {
      const running = inline.edit(ed);
      const end = Date.now() + 10_000;
      while (!stop && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
      assert.ok(stop, 'every line reached the document while the reply streamed');
      assert.ok(doc.isDirty);
      await inline.endEdit(doc.uri, false);
      stop();
      assert.equal(await running, 'stopped');
      assert.equal(doc.getText(), SOURCE, 'byte for byte');
      assert.equal(doc.isDirty, false, 'clean again');
    } finally {
      watch.dispose();
      inline.dispose();
    }
    // Every state of the document: the lines before and after as they were; in the region the
    // reply's first lines, then the original lines not reached yet; never prose, never a line taken out.
    const head = SOURCE.split('\n').slice(0, 2);
    const tail = SOURCE.split('\n').slice(6);
    const streamed = texts.slice(0, texts.findIndex((t) => t.includes('if (!text) return fallback;')) + 1);
    assert.ok(streamed.length >= 3, `a change per new line (${streamed.length})`);
    for (const t of streamed) {
      const lines = t.split('\n');
      assert.deepEqual(lines.slice(0, 2), head);
      assert.deepEqual(lines.slice(lines.length - tail.length), tail);
      const region = lines.slice(2, lines.length - tail.length);
      const k = region.findIndex((l, i) => l !== NEW_LOAD[i]);
      const rest = k < 0 ? [] : region.slice(k);
      assert.deepEqual(rest, original.slice(original.length - rest.length), `the reply's lines, then the original's last ones:\n${region.join('\n')}`);
    }
  });

  it('a save while the reply streams writes the original; the reply goes on into review; Undo Edit leaves the file clean with the original on disk', async () => {
    const ed = await open(SOURCE, 2, 6);
    const doc = ed.document;
    let savedMidStream = '';
    const script: Array<string | (() => Promise<void>)> = [
      '```js\n',
      `${NEW_LOAD[0]}\n${NEW_LOAD[1]}\n${NEW_LOAD[2]}\n`,
      () => until(doc, (t) => t.includes(NEW_LOAD[2]), 'the third line in the document'),
      async () => {
        assert.ok(await doc.save(), 'saved');
        savedMidStream = await onDisk(doc.uri);
      },
      `${NEW_LOAD[3]}\n${NEW_LOAD[4]}\n\`\`\`\n`,
    ];
    const inline = editor(scriptedTurns(script));
    try {
      assert.equal(await inline.edit(ed), 'reviewing');
      assert.equal(savedMidStream, SOURCE, 'the file on disk is the original, not a mix');
      const proposed = SOURCE.replace(/export async function load\(path\) \{[\s\S]*?\n\}\n/, `${NEW_LOAD.join('\n')}\n`);
      assert.equal(doc.getText(), proposed, 'the reply\'s lines came back and the rest followed');
      assert.ok(doc.isDirty);
      const review = inline.reviewOf(doc.uri);
      assert.ok(review);
      assert.deepEqual(review.review.hunks.map((h) => [h.start, h.removed.length, h.added.length]), [[0, 1, 1], [2, 0, 1]], 'only the changed lines are hunks');
      await inline.finish(review, false);
      assert.equal(doc.getText(), SOURCE);
      assert.equal(doc.isDirty, false, 'the document is as it was saved');
      assert.equal(await onDisk(doc.uri), SOURCE);
    } finally {
      inline.dispose();
    }
  });

  it('a whole-file reply with prose around it: the lines around the selection are never repeated into the document; Keep Edit is one undo step', async () => {
    const ed = await open(SOURCE, 2, 6);
    const doc = ed.document;
    const whole = SOURCE.replace(/export async function load\(path\) \{[\s\S]*?\n\}\n/, `${NEW_LOAD.join('\n')}\n`);
    let most = 0;
    const watch = vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document === doc) most = Math.max(most, doc.getText().split("import { readFile }").length - 1);
    });
    const inline = editor(fakeTurns(`Sure. Here is the whole file:\n\n\`\`\`js\n${whole}\`\`\`\n\nIt now takes a fallback.`, []));
    try {
      assert.equal(await inline.edit(ed), 'reviewing');
      assert.equal(most, 1, 'the import line was never written twice');
      assert.equal(doc.getText(), whole);
      await inline.finish(inline.reviewOf(doc.uri), true);
      await doc.save();
      assert.equal(await onDisk(doc.uri), whole);
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand('undo');
      assert.equal(doc.getText(), SOURCE, 'one undo step');
      await doc.save();
    } finally {
      watch.dispose();
      inline.dispose();
    }
  });
});
