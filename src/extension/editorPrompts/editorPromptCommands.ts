// The editor's chat commands. Send Selection sends the selection (with an optional question);
// the editor context submenu "AI Chat": Explain, Fix and Write Tests put an editable prompt with
// the selection into the chat's message box and focus it; nothing is sent until the user sends.
import * as vscode from 'vscode';
import { buildEditorPrompt, formatSelectionMessage, detectTestFramework, type EditorPromptKind, type SelectionProblem, type TestFramework } from '../../core';
import type { ChatBox } from '../pipeline/chatBox';
import type { Logger } from '../platform/log';
import { registerSafely } from '../platform/commands';
import { severityOf } from '../platform/editorFacts';

const COMMANDS: Record<string, EditorPromptKind> = {
  'aiChat.explainSelection': 'explain',
  'aiChat.fixSelection': 'fix',
  'aiChat.writeTests': 'tests',
};

/** The editor's chat commands (Send Selection; Explain, Fix, Write Tests), through the chat's message box. */
export function registerEditorPromptCommands(chat: ChatBox, logger: Logger): vscode.Disposable[] {
  return [
    registerSafely('aiChat.sendSelection', () => sendSelection(chat), logger),
    ...Object.entries(COMMANDS).map(([id, kind]) => registerSafely(id, () => insertEditorPrompt(chat, kind), logger)),
  ];
}

/** Sends the selection (with an optional question) to the chat. */
async function sendSelection(chat: ChatBox): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.selection.isEmpty) {
    void vscode.window.showInformationMessage(vscode.l10n.t('AI Chat: select some code first.'));
    return;
  }
  const sel = editor.selection;
  const code = editor.document.getText(sel);
  const endLine = sel.end.character === 0 && sel.end.line > sel.start.line ? sel.end.line : sel.end.line + 1;
  const question = await vscode.window.showInputBox({
    title: vscode.l10n.t('AI Chat: Send Selection'),
    prompt: vscode.l10n.t('Optional: a question about the selected code (Enter to send as is, Escape to cancel)'),
    placeHolder: vscode.l10n.t('e.g. What does this do?'),
    ignoreFocusOut: true,
  });
  if (question === undefined) return;
  const text = formatSelectionMessage({
    code,
    languageId: editor.document.languageId,
    fileName: vscode.workspace.asRelativePath(editor.document.uri, false),
    startLine: sel.start.line + 1,
    endLine,
    question,
  });
  await chat.show(true);
  await chat.sendText(text);
}


async function testFramework(uri: vscode.Uri): Promise<TestFramework | undefined> {
  const folder = vscode.workspace.getWorkspaceFolder(uri);
  if (!folder) return undefined;
  try {
    const bytes = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder.uri, 'package.json'));
    return detectTestFramework(new TextDecoder().decode(bytes.subarray(0, 1_000_000)));
  } catch {
    return undefined;
  }
}

async function insertEditorPrompt(chat: ChatBox, kind: EditorPromptKind): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.selection.isEmpty) {
    void vscode.window.showInformationMessage(vscode.l10n.t('AI Chat: select some code first.'));
    return;
  }
  const sel = editor.selection;
  const doc = editor.document;
  const endLine = sel.end.character === 0 && sel.end.line > sel.start.line ? sel.end.line : sel.end.line + 1;
  const problems: SelectionProblem[] =
    kind === 'fix'
      ? vscode.languages.getDiagnostics(doc.uri).map((d) => ({
          severity: severityOf(d.severity),
          startLine: d.range.start.line + 1,
          endLine: d.range.end.line + 1,
          message: d.message,
        }))
      : [];
  const framework = kind === 'tests' ? await testFramework(doc.uri) : undefined;
  const text = buildEditorPrompt({
    kind,
    selection: {
      code: doc.getText(sel),
      languageId: doc.languageId,
      fileName: vscode.workspace.asRelativePath(doc.uri, false),
      startLine: sel.start.line + 1,
      endLine,
    },
    problems,
    ...(framework ? { framework } : {}),
  });
  await chat.insertPrompt(text);
}
