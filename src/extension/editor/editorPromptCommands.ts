// Editor context submenu "AI Chat": Explain, Fix and Write Tests put an editable prompt with
// the selection into the chat's message box and focus it; nothing is sent until the user sends.
import * as vscode from 'vscode';
import { buildEditorPrompt, detectTestFramework, type EditorPromptKind, type ProblemSeverity, type SelectionProblem, type TestFramework } from '../../core';
import type { ChatPanelController } from '../chat/chatPanel';

const COMMANDS: Record<string, EditorPromptKind> = {
  'aiChat.explainSelection': 'explain',
  'aiChat.fixSelection': 'fix',
  'aiChat.writeTests': 'tests',
};

/** `chat`: the chat, built on its first use. */
export function registerEditorPromptCommands(chat: () => ChatPanelController): vscode.Disposable[] {
  return Object.entries(COMMANDS).map(([id, kind]) =>
    vscode.commands.registerCommand(id, async () => {
      try {
        await insertEditorPrompt(chat(), kind);
      } catch (err) {
        void vscode.window.showErrorMessage(vscode.l10n.t('AI Chat: {0}', err instanceof Error ? err.message : String(err)));
      }
    }),
  );
}

function severityOf(s: vscode.DiagnosticSeverity): ProblemSeverity {
  switch (s) {
    case vscode.DiagnosticSeverity.Error:
      return 'error';
    case vscode.DiagnosticSeverity.Warning:
      return 'warning';
    case vscode.DiagnosticSeverity.Information:
      return 'information';
    default:
      return 'hint';
  }
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

async function insertEditorPrompt(chat: ChatPanelController, kind: EditorPromptKind): Promise<void> {
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
