// Edit in the editor: AI Chat: Edit Selection… asks what to change (showing the model and its
// price), streams the reply through the one turn pipeline (surface "edit", inlineEditProgress.ts)
// into the editor as a diff in place (inlineEditLive.ts), then reviews the new code where it is:
// Keep/Undo per hunk (CodeLens) and Keep Edit/Undo Edit for all. Stop, Escape, a failure or a reply
// without code give the document back exactly as it was (and clean when it was clean).
import * as vscode from 'vscode';
import { actionCommand, actionTitle } from '../../core';
import { buildEditPrompt } from '../../core/inlineEdit/prompt';
import { documentsValue, editInScope, REVIEWED_DOCUMENTS, STREAMING_DOCUMENTS } from '../../core/inlineEdit/scope';
import type { SurfaceTurnResult, TurnQuote, TurnService } from '../pipeline/turnService';
import type { Logger } from '../platform/log';
import { askInstruction, EditLenses } from './inlineEditUi';
import { InlineEditLive } from './inlineEditLive';
import { streamReply } from './inlineEditProgress';
import { InlineEditReview, type ReviewEnd } from './inlineEditReview';
import { EDITABLE_SCHEMES, refusal, targetOf, type EditTarget } from './inlineEditTarget';

export interface InlineEditDeps {
  turns: Pick<TurnService, 'run' | 'quote'>;
  logger: Logger;
  /** Where earlier instructions are kept (Up/Down in the quick input). */
  state?: vscode.Memento;
  /** Asks for the instruction (default: the quick input). */
  ask?: (quote: TurnQuote | undefined, earlier: readonly string[], initial?: string) => Promise<string | undefined>;
  /** Keeps the instruction and the reply as a conversation of History's (to go on with it in the chat). */
  keep?: (instruction: string, reply: string, model: string) => Promise<unknown>;
}

/** What an edit ended as (for callers and tests). */
export type EditOutcome = 'refused' | 'cancelled' | 'stopped' | 'failed' | 'noCode' | 'unchanged' | 'moved' | 'reviewing';

/** The documents the Keep/Undo CodeLens is offered in. */
export const LENS_SELECTOR: vscode.DocumentFilter[] = [...EDITABLE_SCHEMES].map((scheme) => ({ scheme }));

const HISTORY_KEY = 'aiChat.edit.instructions';

export class InlineEditor implements vscode.Disposable {
  private readonly reviews = new Map<string, InlineEditReview>();
  private readonly streaming = new Map<string, AbortController>();
  /** Keep/Undo above each pending hunk (registered for every document an edit may change). */
  readonly lenses = new EditLenses((uri) => this.reviews.get(uri.toString()));
  private readonly changes = new vscode.EventEmitter<void>();
  /** Fires when a review starts or ends. */
  readonly onDidChange = this.changes.event;

  constructor(private readonly deps: InlineEditDeps) {}

  register(): vscode.Disposable[] {
    return [
      this,
      vscode.languages.registerCodeLensProvider(LENS_SELECTOR, this.lenses),
      // Returns what the edit ended as (for tests and callers such as the lightbulb).
      // `{ instruction }`: a proposed instruction (the lightbulb's Fix), shown in the box with the price to edit or send.
      vscode.commands.registerCommand('aiChat.editSelection', async (args?: unknown): Promise<EditOutcome> => {
        const editor = vscode.window.activeTextEditor;
        const proposed = args && typeof args === 'object' ? (args as { instruction?: unknown }).instruction : undefined;
        if (editor) return this.edit(editor, typeof proposed === 'string' ? proposed.slice(0, 20_000) : undefined);
        void vscode.window.showInformationMessage(vscode.l10n.t('AI Chat: open a file and select the code to edit first.'));
        return 'refused';
      }),
      // The others act on the edit of the document they are given (the CodeLens passes its own), else
      // of the active editor's document; never on another document's (core/inlineEdit/scope.ts).
      vscode.commands.registerCommand('aiChat.keepEdit', (uri?: unknown) => this.endEdit(uri, true)),
      vscode.commands.registerCommand('aiChat.undoEdit', (uri?: unknown) => this.endEdit(uri, false)),
      vscode.commands.registerCommand('aiChat.keepHunk', (uri?: unknown, i?: number) => this.decideIn(uri, i, true)),
      vscode.commands.registerCommand('aiChat.undoHunk', (uri?: unknown, i?: number) => this.decideIn(uri, i, false)),
      vscode.commands.registerCommand('aiChat.stopEdit', (uri?: unknown) => this.stop(uri)),
    ];
  }

  /** The edit in `edits` of the document `uri` if one is given, else of the active editor's document. */
  private inScope<T>(edits: ReadonlyMap<string, T>, uri: unknown): T | undefined {
    const given = uri instanceof vscode.Uri ? uri.toString() : undefined;
    return editInScope(edits, { given, active: vscode.window.activeTextEditor?.document.uri.toString() });
  }

  /** Stop (Escape): stops the reply streaming into the document `uri` (default: the active editor's); whether one was. */
  stop(uri?: unknown): boolean {
    const controller = this.inScope(this.streaming, uri);
    controller?.abort();
    return controller !== undefined;
  }

  /** Keep Edit (`keep`) or Undo Edit of the document `uri` (default: the active editor's); while its reply streams, Undo Edit stops it. */
  async endEdit(uri: unknown, keep: boolean): Promise<void> {
    const review = this.inScope(this.reviews, uri);
    if (!review && !keep && this.stop(uri)) return;
    await this.finish(review, keep);
  }

  /** Whether a reply for the document `uri` is streaming. */
  isStreaming(uri: vscode.Uri): boolean {
    return this.streaming.has(uri.toString());
  }

  /** The review of the document `uri`. */
  reviewOf(uri: vscode.Uri): InlineEditReview | undefined {
    return this.reviews.get(uri.toString());
  }

  /** Ends the review: Keep Edit (`keep`) or Undo Edit. */
  async finish(review: InlineEditReview | undefined, keep: boolean): Promise<void> {
    if (!review) return void vscode.window.showInformationMessage(vscode.l10n.t('AI Chat: no edit is under review.'));
    if (keep) await review.keepAll();
    else if (!(await review.undoAll())) void vscode.window.showErrorMessage(vscode.l10n.t('AI Chat could not undo the edit. Use Undo (Ctrl+Z) in the editor.'));
  }

  /** Keep/Undo Hunk in the review of the document `uri` (default: the active editor's). */
  decideIn(uri: unknown, i: number | undefined, keep: boolean): Promise<void> {
    return this.decide(this.inScope(this.reviews, uri), i, keep);
  }

  /** Keeps or undoes hunk `i` (default: the one at the cursor, else the first pending one). */
  async decide(review: InlineEditReview | undefined, i: number | undefined, keep: boolean): Promise<void> {
    if (!review) return void vscode.window.showInformationMessage(vscode.l10n.t('AI Chat: no edit is under review.'));
    const editor = vscode.window.activeTextEditor;
    const hunk = i ?? review.hunkAt(editor?.document === review.document ? editor.selection.active.line : undefined);
    if (hunk === undefined || review.review.state(hunk) !== 'pending') return;
    if (keep) await review.keep(hunk);
    else if (!(await review.undo(hunk))) void vscode.window.showErrorMessage(vscode.l10n.t('AI Chat could not undo that change.'));
    this.lenses.refresh();
  }

  /** Edit Selection… in `editor`: ask (with `proposed` in the box), stream, then review. */
  async edit(editor: vscode.TextEditor, proposed?: string): Promise<EditOutcome> {
    const document = editor.document;
    const key = document.uri.toString();
    const why = await refusal(document);
    if (why) return this.refuse(why);
    if (this.reviews.has(key) || this.streaming.has(key)) {
      return this.refuse(vscode.l10n.t('An edit of this file is already under way: keep or undo it first (AI Chat: Keep Edit / Undo Edit).'));
    }
    const target = await targetOf(editor);
    const earlier = this.deps.state?.get<string[]>(HISTORY_KEY) ?? [];
    const instruction = (await (this.deps.ask ?? askInstruction)(this.deps.turns.quote(), earlier, proposed))?.trim();
    if (!instruction) return 'cancelled';
    void this.deps.state?.update(HISTORY_KEY, [instruction, ...earlier.filter((e) => e !== instruction)].slice(0, 20));
    const { prompt } = buildEditPrompt({
      instruction,
      languageId: document.languageId,
      path: document.isUntitled ? document.fileName : vscode.workspace.asRelativePath(document.uri, false),
      lines: target.lines,
      start: target.start,
      end: target.end,
    });
    const controller = new AbortController();
    // The selection has been taken: left as it is, it would stretch over the lines being rewritten,
    // and the editor measures and draws it again at every streamed line. The cursor goes to the
    // start of the region.
    if (!editor.selection.isEmpty && vscode.window.visibleTextEditors.includes(editor)) {
      const at = document.positionAt(target.offset);
      editor.selection = new vscode.Selection(at, at);
    }
    const live = new InlineEditLive(document, target, () => controller.abort());
    this.streaming.set(key, controller);
    this.publish();
    let ran: SurfaceTurnResult;
    try {
      ran = await streamReply(this.deps.turns, live, prompt, controller);
    } catch (err) {
      await live.revert();
      live.dispose();
      throw err;
    } finally {
      this.streaming.delete(key);
      this.publish();
    }
    try {
      if (ran.kind === 'ran') ran.charge.catch((err: unknown) => this.deps.logger.warn('Edit: the charge was not settled', { err: String(err) }));
      if (live.interrupted) {
        await live.revert();
        if (live.interrupted === 'changed') {
          void vscode.window.showWarningMessage(vscode.l10n.t('The lines being edited were changed while the reply came, so the edit stopped with the text as it is (Undo in the editor takes it back).'));
        }
        return 'moved';
      }
      if (ran.kind === 'refused') {
        await live.revert();
        void this.showError(ran.error.message || vscode.l10n.t('AI Chat could not send the edit.'), ran.error.actions);
        return 'refused';
      }
      const result = ran.result;
      if (result.ending !== 'complete') {
        const back = await live.revert();
        if (!back) void vscode.window.showErrorMessage(vscode.l10n.t('AI Chat could not take the edit back. Use Undo (Ctrl+Z) in the editor.'));
        if (result.ending === 'stopped') return 'stopped';
        void this.showError(result.error?.message ?? vscode.l10n.t('The edit failed.'), result.error?.actions ?? []);
        return 'failed';
      }
      // In History as a conversation of its own: the instruction and the whole reply.
      this.deps.keep?.(instruction, result.text, result.meta.model).catch((err: unknown) => this.deps.logger.warn('Edit: not kept in History', { err: String(err) }));
      return await this.propose(live, target, result.text);
    } finally {
      live.dispose();
    }
  }

  /** The reply is complete: its code (from the whole reply) is made the region's text, for review. */
  private async propose(live: InlineEditLive, target: EditTarget, reply: string): Promise<EditOutcome> {
    const extracted = live.stream.finish();
    const { document } = target;
    if (extracted.kind === 'none' || extracted.code === target.region.text) {
      await live.revert();
      if (extracted.kind !== 'none') {
        void vscode.window.showInformationMessage(vscode.l10n.t('The reply changes nothing in the selection.'));
        return 'unchanged';
      }
      const show = vscode.l10n.t('Show Reply');
      void vscode.window.showWarningMessage(vscode.l10n.t('The reply has no code to replace the selection, so nothing was changed.'), show).then(async (choice) => {
        if (choice === show) await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ content: reply, language: 'markdown' }));
      });
      return 'noCode';
    }
    const applied = await live.converge(extracted.code);
    const key = document.uri.toString();
    const review = applied && (await InlineEditReview.open(document, live.offset, target.region.text, extracted.code, (r, how) => this.ended(key, r, how), applied, live.handOver()));
    if (!review) {
      await live.revert();
      void vscode.window.showErrorMessage(vscode.l10n.t('AI Chat could not change the document; nothing was changed.'));
      return 'failed';
    }
    this.reviews.set(key, review);
    this.changed();
    const count = review.review.hunks.length;
    // Said once, for screen readers too: the buttons end the review.
    const keep = vscode.l10n.t('Keep All');
    const undo = vscode.l10n.t('Undo All');
    void vscode.window.showInformationMessage(count === 1 ? vscode.l10n.t('1 change proposed') : vscode.l10n.t('{0} changes proposed', String(count)), keep, undo).then((choice) => {
      if (choice === keep) return this.finish(this.reviews.get(key) === review ? review : undefined, true);
      if (choice === undo) return this.finish(this.reviews.get(key) === review ? review : undefined, false);
    });
    return 'reviewing';
  }

  /** How the last review ended. */
  lastEnd: ReviewEnd | undefined;

  private ended(key: string, review: InlineEditReview, how: ReviewEnd): void {
    if (this.reviews.get(key) === review) this.reviews.delete(key);
    this.lastEnd = how;
    this.deps.logger.info('Edit: the review ended', { how, hunks: review.review.hunks.length });
    this.changed();
    if (how === 'changed') void vscode.window.showInformationMessage(vscode.l10n.t('AI Chat: the lines under review were changed, so the review ended with the text as it is.'));
  }

  private changed(): void {
    this.publish();
    this.lenses.refresh();
    this.changes.fire();
  }

  /** The documents with a streaming reply and with a review, for the keys' and the palette's `when` clauses. */
  private publish(): void {
    const paths = (keys: Iterable<string>) => [...keys].map((k) => vscode.Uri.parse(k).path);
    // The command palette's entries hold in the whole window (it may be opened from the chat).
    void vscode.commands.executeCommand('setContext', 'aiChat.inlineEditStreaming', this.streaming.size > 0);
    void vscode.commands.executeCommand('setContext', 'aiChat.inlineEditReviewing', this.reviews.size > 0);
    void vscode.commands.executeCommand('setContext', STREAMING_DOCUMENTS, documentsValue(paths(this.streaming.keys())));
    void vscode.commands.executeCommand('setContext', REVIEWED_DOCUMENTS, documentsValue(paths(this.reviews.keys())));
  }

  private refuse(message: string): EditOutcome {
    void vscode.window.showWarningMessage(message);
    return 'refused';
  }

  private async showError(message: string, actions: Parameters<typeof actionCommand>[0][]): Promise<void> {
    const buttons = actions.flatMap((a) => {
      const command = actionCommand(a);
      return command ? [{ title: actionTitle(a), command }] : [];
    });
    const choice = await vscode.window.showErrorMessage(message, ...buttons);
    if (choice) await vscode.commands.executeCommand(choice.command.command, ...(choice.command.arguments ?? []));
  }

  dispose(): void {
    for (const c of this.streaming.values()) c.abort();
    for (const r of this.reviews.values()) r.dispose();
    this.reviews.clear();
    this.changes.dispose();
    this.lenses.dispose();
  }
}

/** The edit commands, CodeLens and context keys; disposed with the extension. */
export function registerInlineEdit(deps: InlineEditDeps): vscode.Disposable[] {
  return new InlineEditor(deps).register();
}
