// The one gate of every turn: whatever surface sends (the chat panel, @aichat, the language model
// provider, edit in the editor, the lightbulb, Source Control), one pure verdict: send, queue, or
// refuse with a reason, worded once, with the actions that fix it. VS Code-free.
import * as l10n from '@vscode/l10n';
import { creditsText } from '../../wording';
import { canAfford } from '../account/cost';
import { modelSendRefusal, type ModelLike } from '../account/models';
import { messageTooLongError, type ContextSelection } from '../context/contextBudget';
import type { ChatError, ChatErrorAction } from './errors';

export type RefusalReason =
  | 'tooLong'
  | 'busy'
  | 'holdsKey'
  | 'systemPromptHoldsKey'
  | 'instructionsHoldKey'
  | 'noKey'
  | 'noModel'
  | 'unusableModel'
  | 'cannotPay'
  | 'overBudget';

/** Every reason, in the order the gate checks them. */
export const REFUSAL_REASONS: readonly RefusalReason[] = [
  'tooLong',
  'holdsKey',
  'systemPromptHoldsKey',
  'instructionsHoldKey',
  'busy',
  'noKey',
  'noModel',
  'unusableModel',
  'cannotPay',
  'overBudget',
];

export interface GateInput {
  /** The message as it would be sent (with its attachments). */
  text: string;
  /** Longest message the surface takes (characters); none: no limit of its own. */
  maxChars?: number;
  /** Whether a text holds the user's API key. */
  holdsKey: (text: string) => boolean;
  /** The user's aiChat.systemPrompt, and the project instructions as they would be sent. */
  systemSetting: string;
  instructions: string;
  hasKey: boolean;
  /** The model that would answer ('' when none is selected). */
  model: string;
  models: readonly ModelLike[] | undefined;
  /** The model's price for one message, when known. */
  cost: number | null;
  /** The credit balance, when known. */
  balance: number | undefined;
  /** A reply is running on this surface: the message can wait in its queue (when the surface has one). */
  busy?: boolean;
  canQueue?: boolean;
  /** The request within the model's input budget (contextBudget.ts), when the surface built it. */
  fit?: ContextSelection;
}

export type GateVerdict = { kind: 'send' } | { kind: 'queue' } | { kind: 'refuse'; reason: RefusalReason; error: ChatError };

/** The verdict for one send. Checked before anything keeps the text (queue, file, service). */
export function sendGate(input: GateInput): GateVerdict {
  const refuse = (reason: RefusalReason): GateVerdict => ({ kind: 'refuse', reason, error: refusalView(reason, input) });
  if (input.maxChars !== undefined && input.text.length > input.maxChars) return refuse('tooLong');
  // The key goes in the request's header only: a text or instructions that hold it are not sent.
  if (input.holdsKey(input.text)) return refuse('holdsKey');
  if (input.systemSetting && input.holdsKey(input.systemSetting)) return refuse('systemPromptHoldsKey');
  if (input.instructions && input.holdsKey(input.instructions)) return refuse('instructionsHoldKey');
  if (input.busy) return input.canQueue ? { kind: 'queue' } : refuse('busy');
  if (!input.hasKey) return refuse('noKey');
  if (!input.model) return refuse('noModel');
  if (modelSendRefusal(input.models, input.model) !== undefined) return refuse('unusableModel');
  if (!canAfford(input.balance, input.cost)) return refuse('cannotPay');
  if (input.fit && !input.fit.ok) return refuse('overBudget');
  return { kind: 'send' };
}

/** The wording of a refusal, with the actions that fix it: one table for every surface. */
export function refusalView(reason: RefusalReason, input: Pick<GateInput, 'text' | 'maxChars' | 'model' | 'models' | 'cost' | 'balance' | 'fit'>): ChatError {
  const view = (message: string, actions: ChatErrorAction[] = [], kind: ChatError['kind'] = 'validation'): ChatError => ({ kind, message, actions });
  switch (reason) {
    case 'tooLong':
      return view(
        l10n.t('The message is too long to send: {0} characters, at most {1}. It was not sent.', input.text.length.toLocaleString('en-US'), (input.maxChars ?? 0).toLocaleString('en-US')),
      );
    case 'busy':
      return view(l10n.t('A reply is still being generated. Stop it or wait, then send again.'));
    case 'holdsKey':
      return view(l10n.t('This message holds your AI Chat API key (in its text or an attached file). Take the key out, then send again: nothing was sent or saved.'));
    case 'systemPromptHoldsKey':
      return view(
        l10n.t('Your system prompt (the aiChat.systemPrompt setting) holds your AI Chat API key, so nothing was sent. Take the key out of it and send again.'),
        ['openSystemPrompt'],
      );
    case 'instructionsHoldKey':
      return view(
        l10n.t('The project instructions file holds your AI Chat API key, so nothing was sent. Take the key out of it (or turn the instructions off) and send again.'),
        ['openInstructions', 'toggleInstructions'],
      );
    case 'noKey':
      return view(l10n.t('No API key is set. Set your API key to chat.'), ['setApiKey'], 'auth');
    case 'noModel':
      return view(l10n.t('No model is selected. Pick the model that answers (its cost per message is shown).'), ['selectModel']);
    case 'unusableModel':
      return view(modelSendRefusal(input.models, input.model) ?? l10n.t('The model {0} cannot be used.', input.model), ['selectModel']);
    case 'cannotPay':
      return view(
        l10n.t(
          'Not enough credits: a message to {0} costs {1}, and your balance is {2}. Nothing was sent.',
          input.model,
          creditsText(input.cost ?? 0),
          creditsText(input.balance ?? 0),
        ),
        ['showSubscriptions', 'selectModel'],
        'credits',
      );
    case 'overBudget':
      return input.fit && !input.fit.ok ? messageTooLongError(input.fit) : view(l10n.t('This message is too long for the model.'));
  }
}

/** What an action runs in VS Code: the command and its arguments. */
export interface ActionCommand {
  command: string;
  arguments?: unknown[];
}

/** Every action of a refusal or error, as a command: one table for the panel, @aichat and the other surfaces. */
export function actionCommand(action: ChatErrorAction): ActionCommand | undefined {
  switch (action) {
    case 'setApiKey':
      return { command: 'aiChat.setApiKey' };
    case 'showSubscriptions':
      return { command: 'aiChat.showSubscriptions' };
    case 'openSettings':
      return { command: 'workbench.action.openSettings', arguments: ['@ext:ai-chat-assistant.ai-chat-assistant'] };
    case 'openSystemPrompt':
      return { command: 'workbench.action.openSettings', arguments: ['aiChat.systemPrompt'] };
    case 'selectModel':
      return { command: 'aiChat.selectModel' };
    case 'openInstructions':
      return { command: 'aiChat.openInstructions' };
    case 'toggleInstructions':
      return { command: 'aiChat.toggleInstructions' };
    case 'showRules':
      return { command: 'aiChat.showRules' };
    // Handled by the chat itself.
    case 'retry':
    case 'fewerMessages':
      return undefined;
  }
}

/** The title of an action's button. */
export function actionTitle(action: ChatErrorAction): string {
  switch (action) {
    case 'setApiKey':
      return l10n.t('Set API Key');
    case 'showSubscriptions':
      return l10n.t('Show Subscriptions');
    case 'openSettings':
      return l10n.t('Open Settings');
    case 'openSystemPrompt':
      return l10n.t('Open the System Prompt Setting');
    case 'selectModel':
      return l10n.t('Select Model');
    case 'openInstructions':
      return l10n.t('Open Project Instructions');
    case 'toggleInstructions':
      return l10n.t('Turn Project Instructions Off');
    case 'showRules':
      return l10n.t('Turn a Rule Off or On');
    case 'retry':
      return l10n.t('Retry');
    case 'fewerMessages':
      return l10n.t('Send with fewer earlier messages');
  }
}
