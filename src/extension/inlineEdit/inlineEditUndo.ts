// Taking an edit in the editor back with the editor's own Undo: the only way to leave a document
// that was clean before the edit clean again (an edit that puts the same text back leaves it dirty).
import * as vscode from 'vscode';

/** The first event of `event` that `pick` gives a value for, or undefined when none comes within `ms`. */
function firstWithin<T, R>(event: vscode.Event<T>, pick: (e: T) => R | undefined, ms: number): Promise<R | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      sub.dispose();
      resolve(undefined);
    }, ms);
    const sub = event((e) => {
      const value = pick(e);
      if (value === undefined) return;
      clearTimeout(timer);
      sub.dispose();
      resolve(value);
    });
  });
}

/** Resolves true at `document`'s next change, false when none comes within `ms`. */
export async function nextChange(document: vscode.TextDocument, ms = 1_000): Promise<boolean> {
  const changed = await firstWithin(vscode.workspace.onDidChangeTextDocument, (e) => (e.document === document && e.contentChanges.length > 0 ? true : undefined), ms);
  return changed ?? false;
}

/** Resolves with the active editor once it is `document`'s, undefined when it is not within `ms`. */
function activeEditorOf(document: vscode.TextDocument, ms = 5_000): Promise<vscode.TextEditor | undefined> {
  const now = vscode.window.activeTextEditor;
  if (now?.document === document) return Promise.resolve(now);
  return firstWithin(vscode.window.onDidChangeActiveTextEditor, (e) => (e?.document === document ? e : undefined), ms);
}

/** The open notebook that holds `document` as a cell, with the cell's index. */
function cellOf(document: vscode.TextDocument): { notebook: vscode.NotebookDocument; index: number } | undefined {
  for (const notebook of vscode.workspace.notebookDocuments) {
    if (notebook.isClosed) continue;
    const cell = notebook.getCells().find((c) => c.document === document);
    if (cell) return { notebook, index: cell.index };
  }
  return undefined;
}

/**
 * Brings `document`'s editor to the front with the focus (Undo works on the active editor); for a
 * notebook cell, its notebook with the cell selected, and the cell's own editor focused. Undefined
 * when there is no such editor (the document or its notebook was closed).
 */
async function bringToFront(document: vscode.TextDocument): Promise<vscode.TextEditor | undefined> {
  if (document.isClosed) return undefined;
  if (document.uri.scheme !== 'vscode-notebook-cell') {
    const column = vscode.window.visibleTextEditors.find((v) => v.document === document)?.viewColumn;
    return vscode.window.showTextDocument(document, { preserveFocus: false, preview: false, ...(column ? { viewColumn: column } : {}) });
  }
  const cell = cellOf(document);
  if (!cell) return undefined;
  const column = vscode.window.visibleNotebookEditors.find((v) => v.notebook === cell.notebook)?.viewColumn;
  const range = new vscode.NotebookRange(cell.index, cell.index + 1);
  // Selecting the cell brings it into sight (its editor may be gone while it is scrolled away). The
  // cell leaves its edit mode before it enters it again: entered anew while it is being edited, its
  // editor has the focus but the workbench's Undo no longer reaches the notebook's edits.
  await vscode.window.showNotebookDocument(cell.notebook, { preserveFocus: false, preview: false, selections: [range], ...(column ? { viewColumn: column } : {}) });
  await vscode.commands.executeCommand('notebook.cell.quitEdit');
  await vscode.commands.executeCommand('notebook.cell.edit');
  return activeEditorOf(document);
}

/**
 * Runs Undo in `document`'s editor up to `steps` times, until its text is `snapshot` again; true
 * when it is, undefined when its editor could not be brought to the front (Undo did not run). The
 * editor is brought to the front (Undo works on the active editor). Edits made one after the other
 * are usually one undo step, but not always (the workbench may close a step in between, e.g. when
 * the focus moves, and an edit to a document without a visible editor is a step of its own), so
 * `steps` is how many edits there were.
 */
export async function undoBack(document: vscode.TextDocument, snapshot: string, steps: number): Promise<boolean | undefined> {
  let editor: vscode.TextEditor | undefined;
  try {
    editor = await bringToFront(document);
  } catch {
    editor = undefined;
  }
  if (!editor) return undefined;
  for (let n = 0; n < steps && document.getText() !== snapshot && editor === vscode.window.activeTextEditor; n++) {
    // The document hears of the undo after the command returns: wait for that change (or not long).
    const heard = nextChange(document);
    await vscode.commands.executeCommand('undo');
    if (!(await heard)) break;
  }
  return document.getText() === snapshot;
}

/**
 * The edits of one edit in the editor to its document, from the streamed preview to the end of its
 * review: applied one at a time (a change heard while one is applied is ours), counted as undo
 * steps, and taken back with the editor's Undo as long as nothing else changed the document.
 */
export class OwnEdits {
  /** The document's whole text and dirty state before the edit. */
  readonly snapshot: string;
  readonly wasDirty: boolean;
  /** Our edits so far (each may be an undo step of its own). */
  private steps = 0;
  /** One of ours is being applied: the document's change events meanwhile are ours. */
  applying = false;
  /** Someone else changed the document: the editor's Undo is not ours to use any more. */
  private foreign = false;
  /** The next edit joins the undo step of the one before (nothing else changed the document since). */
  private open = false;
  /** The work of ours under way, one at a time (run()). */
  private queue: Promise<void> = Promise.resolve();

  constructor(readonly document: vscode.TextDocument) {
    this.snapshot = document.getText();
    this.wasDirty = document.isDirty;
  }

  /** How many edits of ours there were. */
  get count(): number {
    return this.steps;
  }

  /**
   * Replaces `range` with `text` (resolves once the document holds it). `join`: in the visible
   * editor, joining our undo step, which `join.last` closes (the streamed preview's edits); without
   * it, an undo step of its own.
   */
  replace(range: vscode.Range, text: string, join?: { last: boolean }): Promise<boolean> {
    return this.change([{ range, text }], join);
  }

  /** Replaces each range (all of the document as it is now) with its text, as one edit; see replace(). */
  async change(changes: ReadonlyArray<{ range: vscode.Range; text: string }>, join?: { last: boolean }): Promise<boolean> {
    const editor = join ? vscode.window.visibleTextEditors.find((e) => e.document === this.document) : undefined;
    const before = this.document.version;
    // The document may hear of the edit after the call returns: it is ours until then.
    const heard = nextChange(this.document);
    this.applying = true;
    try {
      let ok: boolean;
      if (editor && join) ok = await editor.edit((b) => changes.forEach((c) => b.replace(c.range, c.text)), { undoStopBefore: !this.open, undoStopAfter: join.last });
      else {
        const edit = new vscode.WorkspaceEdit();
        for (const c of changes) edit.replace(this.document.uri, c.range, c.text);
        ok = await vscode.workspace.applyEdit(edit);
      }
      if (!ok) return false;
      if (this.document.version === before) await heard;
      if (!this.open) this.steps++;
      this.open = editor !== undefined && !join?.last;
      return true;
    } catch {
      return false;
    } finally {
      this.applying = false;
    }
  }

  /**
   * Runs `work` (edits of ours that belong together) once the work before it is over; a save's
   * round trip (inlineEditSave.ts) holds the turn from taking the unaccepted lines out until they are back.
   */
  run<T>(work: () => Promise<T>): Promise<T> {
    const result = this.queue.then(work);
    this.queue = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  /** Waits for the turn and holds it until the returned function is called. */
  async hold(): Promise<() => void> {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let granted = () => {};
    const turn = new Promise<void>((resolve) => (granted = resolve));
    void this.run(() => (granted(), held));
    await turn;
    return release;
  }

  /** A change that is not ours: the next edit of ours starts an undo step; `foreign` (default): Undo is not ours to use any more. */
  others(foreign = true): void {
    this.open = false;
    if (foreign) this.foreign = true;
  }

  /**
   * Takes our edits back with the editor's Undo: true when the document is as before, false when
   * Undo ran but did not get there, undefined when it was not ours to use (someone else changed the
   * document, nothing of ours to undo) or could not run (the document or its notebook was closed).
   */
  async undo(): Promise<boolean | undefined> {
    if (this.steps === 0 || this.foreign || this.document.isClosed) return undefined;
    this.applying = true;
    let ran: boolean | undefined;
    try {
      ran = await undoBack(this.document, this.snapshot, this.steps + 1);
    } finally {
      this.applying = false;
    }
    this.open = false;
    if (ran === undefined) return undefined;
    if (this.document.getText() !== this.snapshot) return false;
    this.steps = 0;
    return true;
  }
}
