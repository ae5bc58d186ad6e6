// Wording shown in the panel (kept identical to src/core/cost.ts, which the webview may not import).
import type { ReplyMeta } from '../protocol';

const numberFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

export function formatNumber(n: number): string {
  return numberFormat.format(n);
}

export function creditsText(n: number): string {
  return `${formatNumber(n)} ${n === 1 ? 'credit' : 'credits'}`;
}

export function nextMessageText(cost: number | null | undefined): string {
  if (cost === null || cost === undefined || !Number.isFinite(cost)) return 'Next message: cost unknown';
  return `Next message: ${creditsText(cost)}`;
}

export function replyMetaText(meta: ReplyMeta): string {
  const parts = [meta.model];
  if (meta.credits !== undefined) parts.push(creditsText(meta.credits));
  if (meta.promptTokens !== undefined || meta.completionTokens !== undefined) {
    parts.push(`${formatNumber(meta.promptTokens ?? 0)} prompt + ${formatNumber(meta.completionTokens ?? 0)} completion tokens`);
  }
  return parts.join(' · ');
}
