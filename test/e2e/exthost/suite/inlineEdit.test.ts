// Edit in the editor against real documents, editors, undo and saves: the turn pipeline is a
// stand-in that streams a given reply (the pipeline itself is tested with the reference server
// elsewhere), the instruction is given without the quick input.
import assert from 'node:assert/strict';
import { chmodSync } from 'node:fs';
import * as vscode from 'vscode';
import type { TurnCharge, TurnResult } from '../../../../src/core';
import { InlineEditor, LENS_SELECTOR } from '../../../../src/extension/editor/inlineEdit';
import type { SurfaceTurnRequest, SurfaceTurnResult, TurnService } from '../../../../src/extension/chat/turnService';
import { silent } from './fakes';

const SOURCE = [
  "import { readFile } from 'node:fs/promises';",
  '',
  'export async function load(path) {',
  "  const text = await readFile(path, 'utf8');",
  '  return JSON.parse(text);',
  '}',
  '',
  'export const VERSION = 2;',
  '',
].join('\n');

interface Sent {
  req: SurfaceTurnRequest;
}

/** A pipeline that streams `reply` in chunks of a few characters (or waits for Stop when `hold`). */
function fakeTurns(reply: string, sent: Sent[], hold = false): Pick<TurnService, 'run' | 'quote'> {
  return {
    quote: () => ({ model: 'swift-chat', name: 'Swift Chat', cost: 2 }),
    run: async (req, sink, signal): Promise<SurfaceTurnResult> => {
      sent.push({ req });
      let text = '';
      for (let i = 0; i < reply.length && !signal.aborted; i += 7) {
        const chunk = reply.slice(i, i + 7);
        text += chunk;
        sink.text(chunk);
        await new Promise((r) => setTimeout(r, 1));
      }
      if (hold) await new Promise<void>((r) => (signal.aborted ? r() : signal.addEventListener('abort', () => r())));
      const result = { ending: signal.aborted ? 'stopped' : 'complete', text, answered: true, started: true, meta: {}, sources: [], files: [] } as unknown as TurnResult;
      return { kind: 'ran', result, charge: Promise.resolve({} as TurnCharge) };
    },
  };
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
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('a selection: the request is an edit with the instruction and the lines; the new code is in place for review, Undo Edit gives the file back unchanged', async () => {
    const ed = await open(SOURCE, 2, 6);
    const sent: Sent[] = [];
    const asked: string[] = [];
    const inline = editor(fakeTurns(reply, sent), asked);
    try {
      assert.equal(await inline.edit(ed), 'reviewing');
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

  it('Stop while the reply streams leaves the document as it was; a reply without code changes nothing', async () => {
    const ed = await open(SOURCE, 2, 6);
    const inline = editor(fakeTurns(reply, [], true));
    try {
      const running = inline.edit(ed);
      const end = Date.now() + 10_000;
      while (!inline.isStreaming(ed.document.uri) && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
      assert.ok(inline.isStreaming(ed.document.uri), 'the reply streams');
      // Undo Edit while the reply streams stops it.
      await inline.finish(undefined, false);
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

  it('a save during the review writes the proposed text, never the removed lines with it; Undo Edit and a save write the original', async () => {
    const ed = await open(SOURCE, 2, 6);
    const inline = editor(fakeTurns(reply, []));
    try {
      assert.equal(await inline.edit(ed), 'reviewing');
      await ed.document.save();
      assert.equal(await onDisk(ed.document.uri), SOURCE.replace('JSON.parse(text);', 'JSON.parse(text) ?? {};'));
      assert.ok(inline.reviewOf(ed.document.uri), 'the review goes on');
      await inline.finish(inline.reviewOf(ed.document.uri), false);
      assert.equal(ed.document.getText(), SOURCE);
      await ed.document.save();
      assert.equal(await onDisk(ed.document.uri), SOURCE);
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
    const cell = new vscode.NotebookCellData(vscode.NotebookCellKind.Code, SOURCE, 'javascript');
    const notebook = await vscode.workspace.openNotebookDocument('jupyter-notebook', new vscode.NotebookData([cell]));
    await vscode.window.showNotebookDocument(notebook, { preserveFocus: true });
    const doc = notebook.cellAt(0).document;
    assert.equal(doc.uri.scheme, 'vscode-notebook-cell');
    const end = Date.now() + 10_000;
    let ed = vscode.window.visibleTextEditors.find((e) => e.document === doc);
    while (!ed && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 50));
      ed = vscode.window.visibleTextEditors.find((e) => e.document === doc);
    }
    assert.ok(ed, 'the cell has an editor');
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
});
