// The wording of credits, prices and a reply's figures, shared by the extension host (src/core,
// src/extension) and the chat panel (src/webview): a leaf that imports no other folder of src,
// so that each side may import it.
import * as l10n from '@vscode/l10n';

/** Made on first use: the first Intl formatter of a process starts ICU (14-20 ms in Node 20),
 *  which would otherwise be paid by every start of the extension, at activation. */
let numberFormat: Intl.NumberFormat | undefined;

/** en-US grouping: 1000 -> "1,000". */
export function formatNumber(n: number): string {
  numberFormat ??= new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
  return numberFormat.format(n);
}

/** "1 credit", "5 credits", "1,000 credits". */
export function creditsText(n: number): string {
  return `${formatNumber(n)} ${n === 1 ? 'credit' : 'credits'}`;
}

/** A price per message, or that it is unknown: "2 credits", "price unknown". */
export function priceText(cost: number | null | undefined): string {
  return cost === null || cost === undefined || !Number.isFinite(cost) ? l10n.t('price unknown') : creditsText(cost);
}

/** "Chat Small · 2 credits": a model and its price per message. */
export function modelPriceText(name: string, cost: number | null | undefined): string {
  return l10n.t('{0} · {1}', name, priceText(cost));
}

/** The line near Send: "Next message: 1 credit". */
export function nextMessageText(cost: number | null | undefined): string {
  if (cost === null || cost === undefined || !Number.isFinite(cost)) return l10n.t('Next message: cost unknown');
  return l10n.t('Next message: {0}', creditsText(cost));
}

/** What a reply's footer line is made of: its model, its charge and its token counts. */
export interface ReplyFigures {
  model: string;
  credits?: number;
  promptTokens?: number;
  completionTokens?: number;
}

/** "swift-chat · 1 credit · 12 prompt + 340 completion tokens". */
export function replyMetaText(meta: ReplyFigures): string {
  const parts = [meta.model];
  if (meta.credits !== undefined) parts.push(creditsText(meta.credits));
  if (meta.promptTokens !== undefined || meta.completionTokens !== undefined) {
    parts.push(l10n.t('{0} prompt + {1} completion tokens', formatNumber(meta.promptTokens ?? 0), formatNumber(meta.completionTokens ?? 0)));
  }
  return parts.join(' · ');
}

/** The note under a reply that ended early: cut at the model's length limit, or filtered. */
export function replyEndingText(ending: 'length' | 'content-filter' | undefined): string | undefined {
  if (ending === 'length') return l10n.t('The reply was cut off at the model’s length limit.');
  if (ending === 'content-filter') return l10n.t('The reply was stopped by the service’s content filter.');
  return undefined;
}

/** A reasoning model's thinking as a quoted Markdown section, put before the reply in Export and Copy. */
export function thinkingSection(reasoning: string): string {
  return `> **${l10n.t('Thinking')}**\n>\n${reasoning.split('\n').map((l) => `> ${l}`).join('\n')}`;
}

/** The price of a summary before it is asked for: "Summarize the 42 turns above the line: 2 credits". */
export function summarizeText(turns: number, cost: number | null | undefined): string {
  const price = priceText(cost);
  return turns === 1
    ? l10n.t('Summarize the turn above the line: {0}', price)
    : l10n.t('Summarize the {0} turns above the line: {1}', formatNumber(turns), price);
}

/** What a summary replaced: "Summary of 42 turns". */
export function summaryTitle(turns: number): string {
  return turns === 1 ? l10n.t('Summary of 1 turn') : l10n.t('Summary of {0} turns', formatNumber(turns));
}
