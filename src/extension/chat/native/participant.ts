// @aichat in VS Code's Chat view: an extra surface beside the panel, answering through the
// same client (same key and address rules, same model, credits brought up to date after the
// reply, the panel's error wording). Registered only where the host offers the Chat API.
import * as vscode from 'vscode';
import { answerNative, budgetForModel, messageTooLongError, nativeContext, turnsWithout, type NativeTurn } from '../../../core';
import type { ErrorAction } from '../../../protocol';
import type { TurnAccounting } from '../../account/turnAccounting';
import type { ClientProvider } from '../../platform/clientProvider';
import type { ConfigService } from '../../platform/config';
import type { InstructionsService } from '../../editor/instructions';
import type { ApiKeyStore } from '../../account/keyStore';
import type { Logger } from '../../platform/log';
import type { ModelService } from '../../account/modelService';

export const PARTICIPANT_ID = 'aiChat.participant';

export interface ParticipantDeps {
  extensionUri: vscode.Uri;
  clients: ClientProvider;
  keys: ApiKeyStore;
  config: ConfigService;
  models: ModelService;
  turns: TurnAccounting;
  instructions: InstructionsService;
  logger: Logger;
}

/** The part of `vscode.chat` used here; absent on hosts without the Chat API. */
interface ChatApi {
  createChatParticipant(id: string, handler: vscode.ChatRequestHandler): vscode.ChatParticipant;
}

/** Registers @aichat, or returns undefined (and logs why) when the host has no Chat API. */
export function registerParticipant(deps: ParticipantDeps): vscode.Disposable | undefined {
  const chat = (vscode as unknown as { chat?: Partial<ChatApi> }).chat;
  if (typeof chat?.createChatParticipant !== 'function') {
    deps.logger.info('@aichat is not registered: this host offers no Chat API (vscode.chat)');
    return undefined;
  }
  try {
    const participant = chat.createChatParticipant(PARTICIPANT_ID, (request, context, stream, token) => answerRequest(deps, request, context, stream, token));
    participant.iconPath = vscode.Uri.joinPath(deps.extensionUri, 'media', 'chat-icon.svg');
    deps.logger.info('@aichat registered in the Chat view');
    return participant;
  } catch (err) {
    deps.logger.warn('@aichat could not be registered', { message: String(err) });
    return undefined;
  }
}

/** The Chat view's earlier turns with @aichat, as text. */
function turnsOf(context: vscode.ChatContext): NativeTurn[] {
  const turns: NativeTurn[] = [];
  for (const turn of context.history) {
    if (turn.participant !== PARTICIPANT_ID) continue;
    if (turn instanceof vscode.ChatRequestTurn) turns.push({ role: 'user', content: turn.prompt });
    else if (turn instanceof vscode.ChatResponseTurn) {
      const text = turn.response
        .map((part) => (part instanceof vscode.ChatResponseMarkdownPart ? part.value.value : ''))
        .join('');
      turns.push({ role: 'assistant', content: text });
    }
  }
  return turns;
}

const ACTION_COMMANDS: Record<ErrorAction, string | undefined> = {
  setApiKey: 'aiChat.setApiKey',
  showSubscriptions: 'aiChat.showSubscriptions',
  openSettings: 'workbench.action.openSettings',
  retry: undefined,
  fewerMessages: undefined,
};

function actionTitle(action: ErrorAction): string {
  switch (action) {
    case 'setApiKey':
      return vscode.l10n.t('Set API Key');
    case 'showSubscriptions':
      return vscode.l10n.t('Show Subscriptions');
    case 'openSettings':
      return vscode.l10n.t('Open Settings');
    case 'retry':
      return vscode.l10n.t('Retry');
    case 'fewerMessages':
      return vscode.l10n.t('Send with fewer earlier messages');
  }
}

/** Answers one @aichat request (the participant's handler). */
export async function answerRequest(
  deps: ParticipantDeps,
  request: vscode.ChatRequest,
  context: vscode.ChatContext,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<vscode.ChatResult> {
  if (!(await deps.keys.get())) {
    stream.markdown(vscode.l10n.t('No API key is set. Set your API key to chat with @aichat.'));
    stream.button({ command: 'aiChat.setApiKey', title: vscode.l10n.t('Set API Key') });
    return {};
  }
  // The key goes in the request's header only: a prompt that holds it is not sent.
  const holdsKey = (text: string) => deps.keys.holds(text);
  if (holdsKey(request.prompt)) {
    stream.markdown(
      vscode.l10n.t(
        'This message holds your AI Chat API key, so it was not sent. Take the key out and ask again. The Chat view keeps its own history of requests: remove this request from it (or delete this chat) so that the key is not kept there.',
      ),
    );
    return {};
  }
  const settings = deps.config.settings;
  if (!settings.model) {
    stream.markdown(vscode.l10n.t('No model is selected. Pick the model that answers (its cost per message is shown).'));
    stream.button({ command: 'aiChat.selectModel', title: vscode.l10n.t('Select Model') });
    return {};
  }
  // The panel's budget: the model's max_tokens (or aiChat.context.maxTokens), earlier turns newest first.
  const budget = budgetForModel(deps.models.models, settings.model, settings.contextMaxTokens).inputTokens;
  // The instructions are read when first needed: the first request waits for that read.
  await deps.instructions.ready;
  const systemPrompt = deps.instructions.systemPrompt(settings.systemPrompt);
  if (holdsKey(systemPrompt)) {
    stream.markdown(
      vscode.l10n.t(
        'The instructions sent with @aichat (the aiChat.systemPrompt setting or the project instructions file) hold your AI Chat API key, so nothing was sent. Take the key out of them and ask again.',
      ),
    );
    stream.button(
      holdsKey(settings.systemPrompt)
        ? { command: 'workbench.action.openSettings', arguments: ['aiChat.systemPrompt'], title: vscode.l10n.t('Open Settings') }
        : { command: 'aiChat.openInstructions', title: vscode.l10n.t('Open Project Instructions') },
    );
    return {};
  }
  const selection = nativeContext(turnsWithout(turnsOf(context), holdsKey), request.prompt, systemPrompt, budget);
  if (!selection.ok) {
    stream.markdown(messageTooLongError(selection).message);
    return {};
  }
  const messages = selection.messages;
  const controller = new AbortController();
  const cancel = token.onCancellationRequested(() => controller.abort());
  // Charged and recorded like the panel's replies, with the model the request names.
  const turn = deps.turns.nativeTurn('aichat', settings.model, deps.models.costOf(settings.model));
  try {
    const result = await answerNative(
      turn.backend(deps.clients.get()),
      settings,
      messages,
      { text: (chunk) => stream.markdown(chunk), progress: (message) => stream.progress(message) },
      controller.signal,
    );
    if (result.ok || result.aborted) return {};
    for (const action of result.error.actions) {
      const command = ACTION_COMMANDS[action];
      if (command) stream.button({ command, title: actionTitle(action) });
    }
    return { errorDetails: { message: result.error.message } };
  } finally {
    cancel.dispose();
    void turn.end();
  }
}
