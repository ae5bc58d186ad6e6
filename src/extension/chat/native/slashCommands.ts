// Slash commands of @aichat: the built-ins are the participant's commands (package.json: /explain,
// /fix, /tests), and every prompt of the chat's `/` list runs as `/prompt name words` (or
// `/name words`), expanded by the chat's own expansion (promptFiles/promptExpansion.ts) and sent through
// the pipeline. A prompt that names another model than the selected one is not sent at that model's
// price at once: the answer says the price and offers a Send button (core/chat/heldSends.ts).
import * as vscode from 'vscode';
import { escapeMarkdown, modelPriceText } from '../../../core';
import { promptSourceLabel, slashRequest, type PromptEntry } from '../../../core/promptFiles/promptFiles';
import { heldSendText, sendButtonTitle, type HeldSends, type PreparedSend, type SlashAsk } from '../../../core/chat/heldSends';
import { preparePrompt } from '../../promptFiles/promptExpansion';
import type { ParticipantDeps } from './participantDeps';

/** The command of a held slash command's Send button (its argument: the id of the held send). */
export const SEND_HELD_COMMAND = 'aiChat.sendHeldPrompt';

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
export async function slashCommand(
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
  const prompts = await deps.prompts();
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
