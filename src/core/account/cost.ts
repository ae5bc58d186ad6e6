// Credits and cost maths (their wording is shared with the panel: src/wording).
export { creditsText, formatNumber, modelPriceText, nextMessageText, replyMetaText } from '../../wording';

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
