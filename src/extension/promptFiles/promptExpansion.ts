// A slash command expanded: its inputs asked for, the selection and file of the last editor filled
// in, what was left out and its model said to the user. One function (preparePrompt) for every
// surface: the chat's `/` menu puts the text in the message box (expandChosenPrompt), @aichat sends it.
import * as vscode from 'vscode';
import { modelPriceText, type ModelLike } from '../../core';
import { expandPrompt, promptInputs, promptModel, type PromptEntry, type PromptModel } from '../../core/promptFiles/promptFiles';

/** What expanding a prompt reads and asks. */
export interface PrepareDeps {
  /** The prompt files found (promptFileWatcher.ts's PromptFiles). */
  prompts: { find(name: string): PromptEntry | undefined };
  /** The editor the user worked in last (the chat has the focus now). */
  editor(): vscode.TextEditor | undefined;
  models(): readonly ModelLike[] | undefined;
  selectedModel(): string;
  /** Asks for a value (vscode.window.showInputBox); undefined: the user cancelled. */
  ask(options: vscode.InputBoxOptions): Thenable<string | undefined>;
}

export interface ExpandDeps extends PrepareDeps {
  /** Puts the text in the message box; `model`: the prompt's model for that send, with its price. */
  insert(text: string, model?: { id: string; label: string }): Promise<void>;
  newChat(): Promise<void> | void;
  /** /summarize: summarizes the earlier turns (its price shown first); absent: not offered here. */
  summarize?(): Promise<unknown> | void;
  info(message: string): Thenable<unknown>;
  warn(message: string): Thenable<unknown>;
}

export type PreparedPrompt =
  /** Cannot be used (gone, malformed, no text): `message` says why. */
  | { kind: 'refused'; message: string }
  /** The user cancelled a question. */
  | { kind: 'cancelled' }
  /** A built-in that does something (/new, /summarize) instead of giving text. */
  | { kind: 'action'; entry: PromptEntry }
  /** The text to send; `notes`: what the user should be told (each once); `model`: which model answers. */
  | { kind: 'text'; entry: PromptEntry; text: string; notes: string[]; model: PromptModel };

/** Prompts whose unsupported fields were already named (once per prompt and window). */
const told = new Set<string>();

/**
 * The command `name` expanded: asked for its inputs (`args`, what followed the name, answers
 * `$ARGUMENTS`, else follows the prompt's text), filled with the last editor's selection and file, and its model resolved.
 */
export async function preparePrompt(deps: PrepareDeps, name: string, args?: string): Promise<PreparedPrompt> {
  const entry = deps.prompts.find(name);
  if (!entry) return { kind: 'refused', message: vscode.l10n.t('There is no prompt /{0}.', name) };
  if (entry.error) return { kind: 'refused', message: vscode.l10n.t('/{0} cannot be used: {1}', entry.name, entry.error) };
  if (entry.action) return { kind: 'action', entry };
  const inputs: Record<string, string> = {};
  const asked = promptInputs(entry);
  for (const input of asked) {
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
    if (value === undefined) return { kind: 'cancelled' };
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
  // Words after the name that no `$ARGUMENTS` takes are the user's own: they follow the prompt.
  const extra = args?.trim() && !asked.some((i) => i.name === 'arguments') ? args.trim() : '';
  const text = [expanded.text.trim(), extra].filter((t) => t).join('\n\n');
  if (!text) return { kind: 'refused', message: vscode.l10n.t('/{0} gave no text to send.', entry.name) };

  // Nothing is switched or dropped silently.
  const notes: string[] = [];
  if (expanded.missing.includes('selection')) notes.push(vscode.l10n.t('No text was selected in an editor: the selection was left out.'));
  if (expanded.missing.includes('file')) notes.push(vscode.l10n.t('No file was open in an editor: the file name was left out.'));
  const key = `${entry.source}:${entry.folder ?? ''}:${entry.path ?? entry.name}`;
  if (entry.unsupported.length && !told.has(key)) {
    told.add(key);
    notes.push(vscode.l10n.t('Not supported, left out: {0}.', entry.unsupported.join(', ')));
  }
  const model = promptModel(entry.model, deps.models(), deps.selectedModel());
  if (model.kind === 'unusable') {
    notes.push(
      model.reason
        ? vscode.l10n.t('It names the model {0}, which cannot be used ({1}): the selected model answers.', model.named, model.reason)
        : vscode.l10n.t('It names the model {0}, which is not among the models available now: the selected model answers.', model.named),
    );
  }
  return { kind: 'text', entry, text, notes, model };
}

/**
 * The command `name` chosen in the chat's `/` menu, put in the message box (never sent); its model,
 * when usable, goes with the text (the box shows that model's price, and that send uses it).
 * Resolves to the text put in the box (undefined: nothing was).
 */
export async function expandChosenPrompt(deps: ExpandDeps, name: string, args?: string): Promise<string | undefined> {
  const prepared = await preparePrompt(deps, name, args);
  switch (prepared.kind) {
    case 'cancelled':
      return undefined;
    case 'refused':
      void deps.warn(prepared.message);
      return undefined;
    case 'action':
      if (prepared.entry.action === 'newChat') await deps.newChat();
      else if (deps.summarize) await deps.summarize();
      return undefined;
    case 'text':
      break;
  }
  const { entry, text, notes, model } = prepared;
  if (model.kind === 'use') {
    const label = modelPriceText(model.model.name || model.model.valueId, model.model.costInCreditPerUse);
    await deps.insert(text, { id: model.model.valueId, label });
    notes.push(vscode.l10n.t('This message goes to {0}, the model it names.', label));
  } else await deps.insert(text);
  if (notes.length) void deps.info(`/${entry.name}: ${notes.join(' ')}`);
  return text;
}
