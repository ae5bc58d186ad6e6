// Credits and cost maths, and the wording used for them.
import type { ReplyMeta } from '../protocol';

const numberFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** en-US grouping: 1000 -> "1,000". */
export function formatNumber(n: number): string {
  return numberFormat.format(n);
}

/** "1 credit", "5 credits", "1,000 credits". */
export function creditsText(n: number): string {
  return `${formatNumber(n)} ${n === 1 ? 'credit' : 'credits'}`;
}

/** The line near Send: "Next message: 1 credit". */
export function nextMessageText(cost: number | null | undefined): string {
  if (cost === null || cost === undefined || !Number.isFinite(cost)) return 'Next message: cost unknown';
  return `Next message: ${creditsText(cost)}`;
}

/** Credits charged for a reply: what the service reported, else the model's cost per use. */
export function creditsCharged(reported: number | undefined, modelCost: number | null | undefined): number | undefined {
  if (typeof reported === 'number' && Number.isFinite(reported)) return reported;
  if (typeof modelCost === 'number' && Number.isFinite(modelCost)) return modelCost;
  return undefined;
}

/** Low balance: less than one message of the selected model (or nothing at all). */
export function isLowBalance(total: number, modelCost: number | null | undefined): boolean {
  if (total <= 0) return true;
  return typeof modelCost === 'number' && total < modelCost;
}

/** Whether the balance can pay for one message at this cost (unknown cost: assume yes). */
export function canAfford(total: number | undefined, modelCost: number | null | undefined): boolean {
  if (total === undefined || modelCost === null || modelCost === undefined) return true;
  return total >= modelCost;
}

/** "swift-chat · 1 credit · 12 prompt + 340 completion tokens". */
export function replyMetaText(meta: ReplyMeta): string {
  const parts = [meta.model];
  if (meta.credits !== undefined) parts.push(creditsText(meta.credits));
  if (meta.promptTokens !== undefined || meta.completionTokens !== undefined) {
    parts.push(`${formatNumber(meta.promptTokens ?? 0)} prompt + ${formatNumber(meta.completionTokens ?? 0)} completion tokens`);
  }
  return parts.join(' · ');
}
