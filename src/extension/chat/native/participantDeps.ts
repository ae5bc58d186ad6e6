// What @aichat needs from the rest of the extension (extension.ts passes it): the turn pipeline,
// the chat's slash commands and models, and a way to open a reply in AI Chat's own chat.
import type * as vscode from 'vscode';
import type { ModelLike } from '../../../core';
import type { PromptEntry } from '../../../core/promptFiles/promptFiles';
import type { PrepareDeps } from '../../promptFiles/promptExpansion';
import type { Logger } from '../../platform/log';
import type { TurnService } from '../../pipeline/turnService';

export interface ParticipantDeps {
  extensionUri: vscode.Uri;
  /** The one turn pipeline (gate, turn, accounting). */
  turns: TurnService;
  logger: Logger;
  /** Opens a question and its whole answer in AI Chat's own chat (a conversation of its own). */
  openInChat: (question: string, answer: string, model: string) => Promise<void>;
  /** The chat's slash commands (built-ins, the user's own, prompt files); none: no slash commands. */
  prompts?: () => Promise<PrepareDeps['prompts'] & { readonly entries: readonly PromptEntry[]; recheck(): Promise<void> }>;
  /** The service's models and the selected one (a prompt's `model` is matched against them). */
  models?: () => readonly ModelLike[] | undefined;
  /** Loads the service's models when they are not yet (a prompt that names a model is matched against them). */
  loadModels?: () => Promise<unknown>;
  selectedModel?: () => string;
  /** The `aiChat.contextMaxTokens` setting (a model the service gives no size for is counted with it). */
  contextMaxTokens?: () => number;
  /** Asks for a prompt's `${input:…}` (default: VS Code's input box). */
  ask?: PrepareDeps['ask'];
}
