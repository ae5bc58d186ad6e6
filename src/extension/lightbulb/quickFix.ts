// The lightbulb (Quick Fix, Ctrl+.) in every language: "Fix with AI Chat" where an error or warning
// meets the range, "Explain with AI Chat" otherwise. The provider only chooses (no network, no file
// access); the work happens when the user picks the action: Fix goes to Edit in the editor when that
// command is there, else to the chat's message box as an editable prompt with its price; Explain
// goes to the chat's box. Nothing is sent until the user sends it.
import * as vscode from 'vscode';
import {
  buildCodeActionPrompt, chooseCodeAction,
  type CodeActionChoice, type DiagnosticFacts, type Span,
} from '../../core/lightbulb/codeActionChoice';
import { severityOf } from '../platform/editorFacts';

export const FIX_COMMAND = 'aiChat.quickFix.fix';
export const EXPLAIN_COMMAND = 'aiChat.quickFix.explain';
/** Edit in the editor: runs an instruction on a range of the active editor, `{ range, instruction }`. */
export const EDIT_SELECTION_COMMAND = 'aiChat.editSelection';
const SETTING = 'codeActions.enabled';

const FIX_KIND = vscode.CodeActionKind.QuickFix.append('aiChat');
// Explain changes nothing: no kind, so it is never taken for a fix or a refactoring (and never preferred).
const EXPLAIN_KIND = vscode.CodeActionKind.Empty;
/** Documents of files and unsaved editors (not output channels, the commit box or other views' text). */
const SELECTOR: vscode.DocumentSelector = [{ scheme: 'file' }, { scheme: 'untitled' }, { scheme: 'vscode-remote' }, { scheme: 'vscode-vfs' }];

function spanOf(r: vscode.Range): Span {
  return { start: { line: r.start.line, character: r.start.character }, end: { line: r.end.line, character: r.end.character } };
}

/** A diagnostic as plain data (what the prompt needs). */
export function factsOf(d: vscode.Diagnostic): DiagnosticFacts {
  const code = d.code === undefined ? '' : typeof d.code === 'object' ? String(d.code.value) : String(d.code);
  return { severity: severityOf(d.severity), message: d.message, code, source: d.source ?? '', range: spanOf(d.range) };
}

/** What a chosen action carries to its command. */
export interface QuickFixArgs {
  uri: string;
  range: Span;
  choice: Exclude<CodeActionChoice, { kind: 'none' }>;
}

export class AiChatCodeActions implements vscode.CodeActionProvider {
  static readonly metadata: vscode.CodeActionProviderMetadata = { providedCodeActionKinds: [FIX_KIND, EXPLAIN_KIND] };

  provideCodeActions(document: vscode.TextDocument, range: vscode.Range | vscode.Selection, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const facts = context.diagnostics.map(factsOf);
    const choice = chooseCodeAction({
      range: spanOf(range),
      diagnostics: facts,
      invoked: context.triggerKind === vscode.CodeActionTriggerKind.Invoke,
    });
    if (choice.kind === 'none') return [];
    const kind = choice.kind === 'fix' ? FIX_KIND : EXPLAIN_KIND;
    if (context.only && !context.only.contains(kind)) return [];
    const action = new vscode.CodeAction(choice.kind === 'fix' ? vscode.l10n.t('Fix with AI Chat') : vscode.l10n.t('Explain with AI Chat'), kind);
    if (choice.kind === 'fix') action.diagnostics = context.diagnostics.filter((_, i) => choice.diagnostics.includes(facts[i]));
    const args: QuickFixArgs = { uri: document.uri.toString(), range: spanOf(range), choice };
    action.command = { command: choice.kind === 'fix' ? FIX_COMMAND : EXPLAIN_COMMAND, title: action.title, arguments: [args] };
    return [action];
  }
}

export interface QuickFixDeps {
  /** Puts an editable prompt in the chat's message box (the chat shows its price) and shows the chat. */
  insertPrompt(text: string): Promise<void>;
  /** Whether Edit in the editor is there (its command is registered). */
  canEdit(): Promise<boolean>;
  /** Runs Edit in the editor on the range with the instruction. */
  edit(range: vscode.Range, instruction: string): Thenable<unknown>;
}

/** What a chosen action does: 'edit' when Edit in the editor took it, else 'chat'. */
export async function runQuickFix(deps: QuickFixDeps, args: QuickFixArgs): Promise<'edit' | 'chat'> {
  const uri = vscode.Uri.parse(args.uri);
  const document = await vscode.workspace.openTextDocument(uri);
  const built = buildCodeActionPrompt({
    choice: args.choice,
    range: args.range,
    lineAt: (i) => document.lineAt(i).text,
    lineCount: document.lineCount,
    languageId: document.languageId,
    fileName: vscode.workspace.asRelativePath(uri, false),
    // The user's own rules for Fix (not a Restricted Mode workspace's).
    fixRules: vscode.workspace.isTrusted ? vscode.workspace.getConfiguration('aiChat').get<string>('fix.instructions', '') : '',
  });
  if (args.choice.kind === 'fix' && (await deps.canEdit())) {
    // Whole lines: the edit sees the statement the problem is in, not a single token.
    const last = Math.min(built.focus.end, document.lineCount - 1);
    const range = new vscode.Range(built.focus.start, 0, last, document.lineAt(last).text.length);
    await vscode.window.showTextDocument(document, { selection: range, preserveFocus: false });
    await deps.edit(range, built.instruction);
    return 'edit';
  }
  await deps.insertPrompt(built.prompt);
  return 'chat';
}

/** The provider (while aiChat.codeActions.enabled is on) and its two commands. */
export function registerQuickFix(insertPrompt: (text: string) => Promise<void>): vscode.Disposable[] {
  const deps: QuickFixDeps = {
    insertPrompt,
    canEdit: async () => (await vscode.commands.getCommands(true)).includes(EDIT_SELECTION_COMMAND),
    edit: (range, instruction) => vscode.commands.executeCommand(EDIT_SELECTION_COMMAND, { range, instruction }),
  };
  let provider: vscode.Disposable | undefined;
  const apply = () => {
    const on = vscode.workspace.getConfiguration('aiChat').get<boolean>(SETTING, true) !== false;
    if (on && !provider) provider = vscode.languages.registerCodeActionsProvider(SELECTOR, new AiChatCodeActions(), AiChatCodeActions.metadata);
    if (!on && provider) {
      provider.dispose();
      provider = undefined;
    }
  };
  apply();
  const run = (args: QuickFixArgs | undefined) => async () => {
    if (!args) return;
    try {
      await runQuickFix(deps, args);
    } catch (err) {
      void vscode.window.showErrorMessage(vscode.l10n.t('AI Chat: {0}', err instanceof Error ? err.message : String(err)));
    }
  };
  return [
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`aiChat.${SETTING}`)) apply();
    }),
    vscode.commands.registerCommand(FIX_COMMAND, (args?: QuickFixArgs) => run(args)()),
    vscode.commands.registerCommand(EXPLAIN_COMMAND, (args?: QuickFixArgs) => run(args)()),
    new vscode.Disposable(() => {
      provider?.dispose();
    }),
  ];
}
