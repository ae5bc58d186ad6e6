// A chosen slash command expanded into the chat's message box: its inputs asked for, the selection
// and file of the last editor filled in, its model named to the user (never switched to on its own).
import * as vscode from 'vscode';
import { modelUsability, type ModelLike } from '../../core';
import { expandPrompt, promptInputs } from '../../core/context/promptFiles';
import type { PromptFiles } from './promptFiles';

export interface ExpandDeps {
  prompts: Pick<PromptFiles, 'find'>;
  /** The editor the user worked in last (the chat has the focus now). */
  editor(): vscode.TextEditor | undefined;
  models(): readonly ModelLike[] | undefined;
  selectedModel(): string;
  selectModel(valueId: string): Promise<boolean>;
  insert(text: string): Promise<void>;
  newChat(): Promise<void> | void;
  /** Asks for a value (vscode.window.showInputBox); undefined: the user cancelled. */
  ask(options: vscode.InputBoxOptions): Thenable<string | undefined>;
  info(message: string, ...buttons: string[]): Thenable<string | undefined>;
  warn(message: string): Thenable<unknown>;
}

/** Names whose unsupported fields were already said (once per prompt and window). */
const told = new Set<string>();

/**
 * The command `name` chosen in the `/` menu: asked for its inputs, expanded with the last editor's
 * selection and file, and put in the message box (never sent). `args`: what followed the name.
 * Resolves to the text put in the box (undefined: nothing was).
 */
export async function expandChosenPrompt(deps: ExpandDeps, name: string, args?: string): Promise<string | undefined> {
  const entry = deps.prompts.find(name);
  if (!entry) {
    void deps.warn(vscode.l10n.t('There is no prompt /{0} any more.', name));
    return undefined;
  }
  if (entry.error) {
    void deps.warn(vscode.l10n.t('/{0} cannot be used: {1}', entry.name, entry.error));
    return undefined;
  }
  if (entry.action === 'newChat') {
    await deps.newChat();
    return undefined;
  }
  const inputs: Record<string, string> = {};
  for (const input of promptInputs(entry)) {
    if (input.name === 'arguments' && args?.trim()) {
      inputs.arguments = args.trim();
      continue;
    }
    const value = await deps.ask({
      title: `/${entry.name}`,
      prompt: input.name === 'arguments' ? vscode.l10n.t('What /{0} works on', entry.name) : vscode.l10n.t('Value of "{0}" for /{1}', input.name, entry.name),
      ...(input.placeholder ? { placeHolder: input.placeholder } : {}),
      ignoreFocusOut: true,
    });
    if (value === undefined) return undefined;
    inputs[input.name] = value;
  }
  const editor = deps.editor();
  const doc = editor?.document;
  const selection = editor && !editor.selection.isEmpty ? doc?.getText(editor.selection) : undefined;
  const folder = doc ? (vscode.workspace.getWorkspaceFolder(doc.uri) ?? vscode.workspace.workspaceFolders?.[0]) : vscode.workspace.workspaceFolders?.[0];
  const file = doc && doc.uri.scheme !== 'untitled' ? (doc.uri.scheme === 'file' ? vscode.workspace.asRelativePath(doc.uri, false) : doc.uri.path) : undefined;
  const expanded = expandPrompt(entry, {
    ...(selection ? { selection } : {}),
    ...(file ? { file } : {}),
    ...(folder ? { workspaceFolder: folder.uri.scheme === 'file' ? folder.uri.fsPath : folder.uri.path } : {}),
    inputs,
  });
  const text = expanded.text.trim();
  if (text) await deps.insert(text);
  else void deps.warn(vscode.l10n.t('/{0} gave no text to put in the message box.', entry.name));

  // What the user should know, said once in one notification: nothing is switched or dropped silently.
  const notes: string[] = [];
  if (expanded.missing.includes('selection')) notes.push(vscode.l10n.t('No text was selected in an editor: the selection was left out.'));
  if (expanded.missing.includes('file')) notes.push(vscode.l10n.t('No file was open in an editor: the file name was left out.'));
  const key = `${entry.source}:${entry.path ?? entry.name}`;
  if (entry.unsupported.length && !told.has(key)) {
    told.add(key);
    notes.push(vscode.l10n.t('Not supported, left out: {0}.', entry.unsupported.join(', ')));
  }
  let useModel: ModelLike | undefined;
  if (entry.model && entry.model !== deps.selectedModel()) {
    const wanted = entry.model.toLowerCase();
    const model = deps.models()?.find((m) => m.valueId.toLowerCase() === wanted || m.name.toLowerCase() === wanted);
    if (model && modelUsability(model).usable) {
      if (model.valueId !== deps.selectedModel()) {
        useModel = model;
        notes.push(vscode.l10n.t('It names the model {0}; the selected model is kept unless you switch.', model.name || model.valueId));
      }
    } else notes.push(vscode.l10n.t('It names the model {0}, which cannot be used now: the selected model will answer.', entry.model));
  }
  if (notes.length) {
    const use = useModel ? vscode.l10n.t('Use {0}', useModel.name || useModel.valueId) : undefined;
    void deps.info(`/${entry.name}: ${notes.join(' ')}`, ...(use ? [use] : [])).then(async (picked) => {
      if (use && picked === use && useModel && !(await deps.selectModel(useModel.valueId))) {
        void deps.warn(vscode.l10n.t('The model "{0}" cannot be used for chat.', useModel.valueId));
      }
    });
  }
  return text || undefined;
}
