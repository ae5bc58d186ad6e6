// @aichat's slash commands whose prompt names another model than the selected one: never sent at
// that model's price at once. The answer says the price and offers a Send button, as the panel puts
// such a prompt in its box with its price and waits for Enter. The button's click asks the Chat view
// for the same request again, and that request sends the text prepared the first time (its inputs
// are not asked again) with that model, once. Pure: the participant (src/extension/chat/native)
// shows the answer, registers the button's command and asks the Chat view.
import * as l10n from '@vscode/l10n';

/** The participant's name in the Chat view (package.json, chatParticipants). */
export const PARTICIPANT_NAME = 'aichat';

/** What a slash command asked for: the prompt's name and the words after it (slashRequest). */
export interface SlashAsk {
  name: string;
  args: string;
}

/** A slash command's prepared text; `model`: another model than the selected one, named by the prompt. */
export interface PreparedSend {
  prompt: string;
  model?: string;
}

export type SlashStep =
  /** Send now: with the selected model, or (`approved`) with the model whose Send button was clicked. */
  | { kind: 'send'; prompt: string; model?: string; approved: boolean }
  /** Not sent: it names another model. `id` is its Send button's argument. */
  | { kind: 'held'; id: string; send: PreparedSend & { model: string } }
  /** Answered without sending (a list, a refusal, a cancelled question): `prepare` gave nothing. */
  | { kind: 'done' };

/** Held sends kept for their buttons (the newest few; an older button says it is no longer kept). */
const KEPT = 10;

const same = (a: SlashAsk, b: SlashAsk) => a.name === b.name && a.args.trim() === b.args.trim();

/** The slash sends of one @aichat participant that wait for their Send button. */
export class HeldSends {
  private readonly held = new Map<string, SlashAsk & PreparedSend & { model: string }>();
  private approved: (SlashAsk & PreparedSend & { model: string }) | undefined;
  private seq = 0;

  /**
   * One @aichat request. The send its Send button approved when this is the request the click asked
   * for (`prepare` is not called: nothing is asked again); else `prepare`d now and sent at once when
   * the selected model answers, held for its button when the prompt names another model. An approval
   * serves only the next request: any other request drops it. `ask` undefined: not a slash command.
   */
  async answer(ask: SlashAsk | undefined, prepare: () => Promise<PreparedSend | undefined>): Promise<SlashStep> {
    const approved = this.approved;
    this.approved = undefined;
    if (approved && ask && same(approved, ask)) return { kind: 'send', prompt: approved.prompt, model: approved.model, approved: true };
    const prepared = await prepare();
    if (!prepared) return { kind: 'done' };
    if (!prepared.model || !ask) return { kind: 'send', prompt: prepared.prompt, approved: false };
    const id = String(++this.seq);
    const send = { prompt: prepared.prompt, model: prepared.model };
    this.held.set(id, { ...ask, ...send });
    for (const old of this.held.keys()) {
      if (this.held.size <= KEPT) break;
      this.held.delete(old);
    }
    return { kind: 'held', id, send };
  }

  /**
   * The Send button `id` clicked: its send is approved for the next request, and the query that asks
   * the Chat view for that request is returned. Undefined when it is no longer held (sent already by
   * an earlier click, or pushed out by newer ones).
   */
  approve(id: unknown): string | undefined {
    const send = typeof id === 'string' ? this.held.get(id) : undefined;
    if (!send) return undefined;
    this.held.delete(id as string);
    this.approved = send;
    return sendQuery(send);
  }

  /** The click's query did not reach the participant (the Chat view could not be asked): nothing stays approved. */
  withdraw(): void {
    this.approved = undefined;
  }
}

/** The Chat view query that asks @aichat for `ask` again (`/prompt name words`: the participant's own command). */
export function sendQuery(ask: SlashAsk): string {
  return `@${PARTICIPANT_NAME} /prompt ${[ask.name, ask.args.trim()].filter((p) => p).join(' ')}`; // l10n-ignore: a query of the Chat view, the participant's command
}

/** The Send button of a held send: the model and its price (modelPriceText). */
export function sendButtonTitle(modelPrice: string): string {
  return l10n.t('Send with {0}', modelPrice);
}

/** What @aichat answers instead of sending: `command`'s prompt names `model`, not the selected model (`selected`). */
export function heldSendText(command: string, model: string, selected: string | undefined): string {
  return selected
    ? l10n.t('Nothing was sent yet: {0} names the model {1}, not your selected model, {2}. To send it with {1}, click the button below.', command, model, selected)
    : l10n.t('Nothing was sent yet: {0} names the model {1}, not your selected model. To send it with {1}, click the button below.', command, model);
}
