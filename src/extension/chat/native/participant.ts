// @aichat in VS Code's Chat view: a thin adapter between VS Code's Chat API and the one turn
// pipeline (chat/turnService.ts): the Chat view's turns go in, the reply, its progress and its
// refusals come out. Registered only where the host offers the Chat API.
//
// Slash commands: the built-ins are the participant's commands (package.json: /explain, /fix,
// /tests), and every prompt of the chat's `/` list runs as `/prompt name words` (or `/name words`),
// expanded by the chat's own expansion (editor/promptExpansion.ts) and sent through the pipeline.
// A prompt that names another model than the selected one is not sent at that model's price at
// once: the answer says the price and offers a Send button (core/chat/heldSends.ts).
import * as vscode from 'vscode';
import { TextCoalescer, actionCommand, actionTitle, answeredHereMetadata, escapeMarkdown, modelPriceText, growingInterval, nativeTurns, sentTurnMetadata, type ChatViewEntry, type ModelLike, type NativeTurn } from '../../../core';
import { promptSourceLabel, slashRequest, type PromptEntry } from '../../../core/context/promptFiles';
import { heldSendText, HeldSends, sendButtonTitle, type PreparedSend, type SlashAsk } from '../../../core/chat/heldSends';
import type { ErrorView } from '../../../protocol';
import { preparePrompt, type PrepareDeps } from '../../editor/promptExpansion';
import type { Logger } from '../../platform/log';
import { signalOf, type TurnService } from '../turnService';

export const PARTICIPANT_ID = 'aiChat.participant';

export interface ParticipantDeps {
  extensionUri: vscode.Uri;
  /** The one turn pipeline (gate, turn, accounting). */
  turns: TurnService;
  logger: Logger;
  /** Opens a question and its whole answer in AI Chat's own chat (a conversation of its own). */
  openInChat: (question: string, answer: string, model: string) => Promise<void>;
  /** The chat's slash commands (built-ins, the user's own, prompt files); none: no slash commands. */
  prompts?: () => PrepareDeps['prompts'] & { readonly entries: readonly PromptEntry[]; recheck(): Promise<void> };
  /** The service's models and the selected one (a prompt's `model` is matched against them). */
  models?: () => readonly ModelLike[] | undefined;
  /** Loads the service's models when they are not yet (a prompt that names a model is matched against them). */
  loadModels?: () => Promise<unknown>;
  selectedModel?: () => string;
  /** Asks for a prompt's `${input:…}` (default: VS Code's input box). */
  ask?: PrepareDeps['ask'];
}

/** The command of a reply's Open in AI Chat button (its argument: the id of a kept reply). */
export const OPEN_REPLY_COMMAND = 'aiChat.openReplyInChat';
/** The command of a held slash command's Send button (its argument: the id of the held send). */
export const SEND_HELD_COMMAND = 'aiChat.sendHeldPrompt';

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

/** The prompts @aichat can run, as a list in the Chat view (`/prompt` alone). */
function listPrompts(stream: vscode.ChatResponseStream, entries: readonly PromptEntry[]): void {
  const lines = entries
    .filter((e) => !e.action)
    .map((e) => {
      const what = e.error ? vscode.l10n.t('cannot be used: {0}', e.error) : e.description;
      return `- \`/${e.name}\`${what ? ` — ${escapeMarkdown(what)}` : ''} *(${escapeMarkdown(promptSourceLabel(e))})*`;
    });
  stream.markdown(`${vscode.l10n.t('Run one with `@aichat /prompt name` and what it should work on, or `@aichat /name`:')}\n\n${lines.join('\n')}\n`);
}

/**
 * A held slash command's Send button clicked: the Chat view is asked for the same request again, and
 * that request sends the held text with the model it names (HeldSends). False when nothing was asked.
 */
export async function sendHeld(
  held: HeldSends,
  id: unknown,
  ask: (query: string) => Thenable<unknown> = (query) => vscode.commands.executeCommand('workbench.action.chat.open', { query, isPartialQuery: false }),
): Promise<boolean> {
  const query = held.approve(id);
  if (query === undefined) {
    void vscode.window.showInformationMessage(vscode.l10n.t('That prompt was sent already, or is no longer kept. Ask @aichat for it again.'));
    return false;
  }
  try {
    await ask(query);
    return true;
  } catch (err) {
    held.withdraw();
    void vscode.window.showErrorMessage(
      vscode.l10n.t(
        "Nothing was sent: the Chat view could not be asked to send it ({0}). Choose the same prompt from the / list of AI Chat's own chat instead: it is sent with its model when you press Enter.",
        err instanceof Error ? err.message : String(err),
      ),
    );
    return false;
  }
}

/** A request's text prepared to send, with what the Chat view is told about it (a slash command's name and notes). */
interface PreparedRequest extends PreparedSend {
  name?: string;
  notes?: string[];
}

/**
 * What a slash command makes of an @aichat request: the text and model to send, or done (answered
 * here: a list, a refusal, or a prompt that names another model, held for its Send button).
 */
async function slashCommand(
  deps: ParticipantDeps,
  request: vscode.ChatRequest,
  stream: vscode.ChatResponseStream,
  held: HeldSends,
): Promise<{ prompt: string; model?: string } | 'done'> {
  const slash = deps.prompts ? slashRequest(request.command, request.prompt) : undefined;
  let prepared: PreparedRequest | undefined;
  const step = await held.answer(slash, async () => (prepared = await prepareRequest(deps, request, stream, slash)));
  /** The line said before the reply (or the button): the command, the model and its price. */
  const header = (name: string | undefined, model: string | undefined, notes: readonly string[] = []) => {
    if (!name) return;
    const quote = deps.turns.quote(model);
    const price = quote ? modelPriceText(quote.name, quote.cost) : '';
    stream.markdown(`*${escapeMarkdown([`/${name}`, price].filter((p) => p).join(' · '))}*${notes.length ? `\n\n${escapeMarkdown(notes.join(' '))}` : ''}\n\n`);
  };
  switch (step.kind) {
    case 'done':
      return 'done';
    case 'held': {
      // Its price and a button that sends it, as the panel shows the price and waits for Enter.
      header(prepared?.name, step.send.model, prepared?.notes);
      const quote = deps.turns.quote(step.send.model);
      const name = quote?.name ?? step.send.model;
      stream.markdown(escapeMarkdown(heldSendText(`/${prepared?.name ?? slash?.name ?? ''}`, name, deps.turns.quote()?.name)));
      stream.button({ command: SEND_HELD_COMMAND, arguments: [step.id], title: sendButtonTitle(quote ? modelPriceText(quote.name, quote.cost) : name) });
      return 'done';
    }
    case 'send':
      // Sent by its button's click: the text prepared then, with the model it names.
      if (step.approved) header(slash?.name, step.model);
      else header(prepared?.name, undefined, prepared?.notes);
      return { prompt: step.prompt, ...(step.model ? { model: step.model } : {}) };
  }
}

/**
 * The request's text: a slash command expanded (its inputs asked, what is left out and its model
 * named), or the text as typed; undefined when it was answered here (a list, a refusal, a cancelled
 * question). `model`: another model than the selected one, named by the prompt.
 */
async function prepareRequest(
  deps: ParticipantDeps,
  request: vscode.ChatRequest,
  stream: vscode.ChatResponseStream,
  slash: SlashAsk | undefined,
): Promise<PreparedRequest | undefined> {
  if (!slash || !deps.prompts) return { prompt: request.prompt };
  const prompts = deps.prompts();
  await prompts.recheck();
  if (!slash.name) {
    listPrompts(stream, prompts.entries);
    return undefined;
  }
  // A text that starts with `/` but names no command is a question like any other.
  const named = prompts.find(slash.name);
  if (!request.command && !named) return { prompt: request.prompt };
  if (named?.model && deps.models && !deps.models() && deps.loadModels) await deps.loadModels().catch(() => undefined);
  const prepared = await preparePrompt(
    {
      prompts,
      editor: () => vscode.window.activeTextEditor,
      models: deps.models ?? (() => undefined),
      selectedModel: deps.selectedModel ?? (() => ''),
      ask: deps.ask ?? ((o) => vscode.window.showInputBox(o)),
    },
    slash.name,
    slash.args,
  );
  switch (prepared.kind) {
    case 'cancelled':
      stream.markdown(vscode.l10n.t('Nothing was sent: a question of /{0} was cancelled.', slash.name));
      return undefined;
    case 'refused':
      stream.markdown(escapeMarkdown(prepared.message));
      return undefined;
    case 'action':
      stream.markdown(vscode.l10n.t('/{0} works in AI Chat\'s own chat.', prepared.entry.name));
      stream.button({ command: 'aiChat.openChat', title: vscode.l10n.t('Open AI Chat') });
      return undefined;
    case 'text':
      break;
  }
  const { entry, text, notes, model } = prepared;
  return { prompt: text, name: entry.name, notes, ...(model.kind === 'use' ? { model: model.model.valueId } : {}) };
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
  const cancel = signalOf(token);
  // Text reaches the Chat view coalesced (never inside an open fence while it can wait), up to a size.
  const text = new TextCoalescer({ emit: (chunk) => stream.markdown(chunk), intervalMs: growingInterval, maxChars: NATIVE_MAX_CHARS });
  try {
    const ran = await deps.turns.run(
      { surface: 'aichat', prompt: command.prompt, earlier: turnsOf(context), ...(command.model ? { model: command.model } : {}) },
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
    // What was sent and answered, read back by later requests instead of what the view shows.
    const metadata = sentTurnMetadata(command.prompt, result.text);
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
