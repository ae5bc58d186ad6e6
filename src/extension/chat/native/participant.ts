// @aichat in VS Code's Chat view: a thin adapter between VS Code's Chat API and the one turn
// pipeline (chat/turnService.ts): the Chat view's turns go in, the reply, its progress and its
// refusals come out. Registered only where the host offers the Chat API.
import * as vscode from 'vscode';
import { actionCommand, actionTitle, type NativeTurn } from '../../../core';
import type { ErrorView } from '../../../protocol';
import type { Logger } from '../../platform/log';
import { signalOf, type TurnService } from '../turnService';

export const PARTICIPANT_ID = 'aiChat.participant';

export interface ParticipantDeps {
  extensionUri: vscode.Uri;
  /** The one turn pipeline (gate, turn, accounting). */
  turns: TurnService;
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

/** An error or refusal in the Chat view: its text, and a button for each action that has a command. */
function showError(stream: vscode.ChatResponseStream, error: ErrorView): void {
  stream.markdown(error.message);
  for (const action of error.actions) {
    const command = actionCommand(action);
    if (command) stream.button({ ...command, title: actionTitle(action) });
  }
}

/** Answers one @aichat request (the participant's handler): the Chat view's turns in, the reply out. */
export async function answerRequest(
  deps: ParticipantDeps,
  request: vscode.ChatRequest,
  context: vscode.ChatContext,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<vscode.ChatResult> {
  const cancel = signalOf(token);
  try {
    const ran = await deps.turns.run(
      { surface: 'aichat', prompt: request.prompt, earlier: turnsOf(context) },
      { text: (chunk) => stream.markdown(chunk), status: (text) => text && stream.progress(text) },
      cancel.signal,
    );
    if (ran.kind === 'refused') {
      showError(stream, ran.error);
      // A request that holds the key stays in the Chat view's own history unless it is removed.
      if (ran.reason === 'holdsKey') {
        stream.markdown(
          '\n\n' +
            vscode.l10n.t('The Chat view keeps its own history of requests: remove this request from it (or delete this chat) so that the key is not kept there.'),
        );
      }
      return {};
    }
    const { result } = ran;
    if (result.ending === 'complete' || result.ending === 'stopped' || !result.error) return {};
    for (const action of result.error.actions) {
      const command = actionCommand(action);
      if (command) stream.button({ ...command, title: actionTitle(action) });
    }
    return { errorDetails: { message: result.error.message } };
  } finally {
    cancel.dispose();
  }
}
