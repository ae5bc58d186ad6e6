// @aichat in VS Code's Chat view: a thin adapter between VS Code's Chat API and the one turn
// pipeline (pipeline/turnService.ts): the Chat view's turns go in, the reply, its progress and its
// refusals come out; what the view attached to a request (#file, a selection) goes after the
// question as the panel's chips go. Registered only where the host offers the Chat API.
//
// Slash commands (/explain, /fix, /tests and every prompt of the chat's `/` list) are read in
// slashCommands.ts.
import * as vscode from 'vscode';
import { TextCoalescer, actionCommand, assembleMessage, actionTitle, answeredHereMetadata, growingInterval, nativeTurns, referencesNote, sentTurnMetadata, type ChatViewEntry, type NativeTurn, type SentRule } from '../../../core';
import { HeldSends } from '../../../core/chat/heldSends';
import type { ErrorView } from '../../../protocol';
import { signalOf } from '../../pipeline/turnService';
import { SHOW_RULES_COMMAND } from '../../rules/ruleCommandIds';
import type { ParticipantDeps } from './participantDeps';
import { SEND_HELD_COMMAND, sendHeld, slashCommand } from './slashCommands';

export type { ParticipantDeps } from './participantDeps';

export const PARTICIPANT_ID = 'aiChat.participant';

/** The command of a reply's Open in AI Chat button (its argument: the id of a kept reply). */
export const OPEN_REPLY_COMMAND = 'aiChat.openReplyInChat';

/**
 * The Chat view re-lays out its whole response for each update: text reaches it about ten times a
 * second, less often as the reply grows (growingInterval: 100 ms, 250 ms past 10,000 characters,
 * 1 s past 25,000; measured by bench:native), and a reply past this many characters stops there,
 * its rest in AI Chat's own chat (which renders long replies in a second).
 */
export const NATIVE_MAX_CHARS = 60_000;

/** Replies cut in the Chat view, kept for their Open in AI Chat button (the newest few). */
class CutReplies {
  private readonly kept = new Map<string, { question: string; answer: string; model: string }>();
  private seq = 0;

  keep(question: string, answer: string, model: string): string {
    const id = String(++this.seq);
    this.kept.set(id, { question, answer, model });
    for (const old of this.kept.keys()) {
      if (this.kept.size <= 5) break;
      this.kept.delete(old);
    }
    return id;
  }

  take(id: unknown): { question: string; answer: string; model: string } | undefined {
    return typeof id === 'string' ? this.kept.get(id) : undefined;
  }
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
    const cut = new CutReplies();
    const held = new HeldSends();
    const participant = chat.createChatParticipant(PARTICIPANT_ID, (request, context, stream, token) => answerRequest(deps, request, context, stream, token, cut, held));
    participant.iconPath = vscode.Uri.joinPath(deps.extensionUri, 'media', 'chat-icon.svg');
    const open = vscode.commands.registerCommand(OPEN_REPLY_COMMAND, async (id: unknown) => {
      const reply = cut.take(id);
      if (!reply) {
        void vscode.window.showInformationMessage(vscode.l10n.t('That reply is no longer kept. Ask @aichat again, or ask in AI Chat.'));
        return;
      }
      await deps.openInChat(reply.question, reply.answer, reply.model);
    });
    const send = vscode.commands.registerCommand(SEND_HELD_COMMAND, (id: unknown) => sendHeld(held, id));
    deps.logger.info('@aichat registered in the Chat view');
    return vscode.Disposable.from(participant, open, send);
  } catch (err) {
    deps.logger.warn('@aichat could not be registered', { message: String(err) });
    return undefined;
  }
}

/** The Chat view's earlier turns with @aichat, as text (what was really sent, where the answer kept it). */
function turnsOf(context: vscode.ChatContext): NativeTurn[] {
  const entries: ChatViewEntry[] = [];
  for (const turn of context.history) {
    if (turn.participant !== PARTICIPANT_ID) continue;
    if (turn instanceof vscode.ChatRequestTurn) entries.push({ kind: 'request', text: turn.command ? `/${turn.command} ${turn.prompt}` : turn.prompt });
    else if (turn instanceof vscode.ChatResponseTurn) {
      const shown = turn.response.map((part) => (part instanceof vscode.ChatResponseMarkdownPart ? part.value.value : '')).join('');
      entries.push({ kind: 'response', shown, metadata: turn.result.metadata });
    }
  }
  return nativeTurns(entries);
}

/** An error or refusal in the Chat view: its text, and a button for each action that has a command. */
function showError(stream: vscode.ChatResponseStream, error: ErrorView): void {
  stream.markdown(error.message);
  for (const action of error.actions) {
    const command = actionCommand(action);
    if (command) stream.button({ ...command, title: actionTitle(action) });
  }
}

/** A path or text as a Markdown code span (backticks inside it cannot end it). */
function codeSpan(text: string): string {
  const ticks = '`'.repeat(Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length)) + 1);
  return `${ticks}${ticks.length > 1 ? ' ' : ''}${text}${ticks.length > 1 ? ' ' : ''}${ticks}`;
}

/** "Rules: N" after the reply: each rule that went with the request, its file and why, and where to turn one off. */
function showRules(stream: vscode.ChatResponseStream, rules: readonly SentRule[], openFence: string | undefined): void {
  const lines = rules.map((r) => `- ${codeSpan(r.path)}: ${r.why}`);
  stream.markdown(`${openFence ? `\n${openFence}` : ''}\n\n*${vscode.l10n.t('Rules: {0}', rules.length)}*\n\n${lines.join('\n')}\n`);
  stream.button({ command: SHOW_RULES_COMMAND, title: vscode.l10n.t('Turn a rule off or on…') });
}

/** Answers one @aichat request (the participant's handler): the Chat view's turns in, the reply out. */
export async function answerRequest(
  deps: ParticipantDeps,
  request: vscode.ChatRequest,
  context: vscode.ChatContext,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
  cut: CutReplies = new CutReplies(),
  held: HeldSends = new HeldSends(),
): Promise<vscode.ChatResult> {
  const command = await slashCommand(deps, request, stream, held);
  if (command === 'done') return { metadata: answeredHereMetadata() };
  // What the view attached (#file, a selection, a symbol): sent after the question, each once.
  // (Read on the first request that has any: the chips' code is not loaded at startup.)
  let prompt = command.prompt;
  if (request.references?.length) {
    const { referencedContext } = await import('../../context/chatReferences');
    // A folder's files within three quarters of the model's budget, as the chat's `+` takes them.
    const model = command.model ?? deps.selectedModel?.() ?? '';
    const referenced = await referencedContext(request.references, { models: deps.models?.(), model, contextMaxTokens: deps.contextMaxTokens?.() });
    for (const ref of referenced.used) stream.reference(ref);
    // What was left out, and why, said here, where the user looks, before the answer.
    if (referenced.notes.length) stream.markdown(referencesNote(referenced.notes));
    prompt = assembleMessage(command.prompt, referenced.attachments);
  }
  const cancel = signalOf(token);
  // Text reaches the Chat view coalesced (never inside an open fence while it can wait), up to a size.
  const text = new TextCoalescer({ emit: (chunk) => stream.markdown(chunk), intervalMs: growingInterval, maxChars: NATIVE_MAX_CHARS });
  try {
    const ran = await deps.turns.run(
      { surface: 'aichat', prompt, earlier: turnsOf(context), ...(command.model ? { model: command.model } : {}) },
      {
        text: (chunk) => text.push(chunk),
        // Progress (Thinking…, Searching…, a wait) has its own channel.
        status: (status) => status && stream.progress(status),
      },
      cancel.signal,
    );
    text.end();
    if (ran.kind === 'refused') {
      showError(stream, ran.error);
      // A request that holds the key stays in the Chat view's own history unless it is removed.
      if (ran.reason === 'holdsKey') {
        stream.markdown(
          '\n\n' +
            vscode.l10n.t('The Chat view keeps its own history of requests: remove this request from it (or delete this chat) so that the key is not kept there.'),
        );
      }
      return { metadata: answeredHereMetadata() };
    }
    const { result } = ran;
    if (text.cut) {
      // The rest of a very long reply: in AI Chat's own chat, whole (a code block cut open is closed first).
      if (text.openFence) stream.markdown(`\n${text.openFence}`);
      stream.markdown('\n\n' + vscode.l10n.t('*The reply is {0} characters long; the Chat view shows its beginning. Open it in AI Chat to read all of it.*', result.text.length.toLocaleString('en-US')));
      const id = cut.keep(command.prompt, result.text, result.meta.model);
      stream.button({ command: OPEN_REPLY_COMMAND, arguments: [id], title: vscode.l10n.t('Open in AI Chat') });
    }
    if (ran.rules?.length) showRules(stream, ran.rules, text.cut ? undefined : text.openFence);
    // What was sent and answered, read back by later requests instead of what the view shows.
    const metadata = sentTurnMetadata(prompt, result.text);
    if (result.ending === 'complete' || result.ending === 'stopped' || !result.error) return { metadata };
    for (const action of result.error.actions) {
      const command = actionCommand(action);
      if (command) stream.button({ ...command, title: actionTitle(action) });
    }
    return { metadata, errorDetails: { message: result.error.message } };
  } finally {
    cancel.dispose();
  }
}
