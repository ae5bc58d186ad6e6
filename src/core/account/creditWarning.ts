// When to warn about credits: below the cost of N messages (once per crossing), and before a
// message the balance cannot pay.
import { modelUsability, type ModelLike } from './models';

export const DEFAULT_LOW_CREDIT_MESSAGES = 10;

export interface LowCreditState {
  /** The last balance was below the threshold (a warning was shown for this crossing). */
  below: boolean;
}

export interface LowCreditCheck {
  state: LowCreditState;
  /** Show the warning now (the balance just went below the threshold). */
  warn: boolean;
  /** How many messages of this model the balance still pays. */
  messagesLeft?: number;
}

/** Messages at this cost the balance pays; undefined when the cost is unknown or free. */
export function messagesLeft(total: number, cost: number | null | undefined): number | undefined {
  if (typeof cost !== 'number' || !Number.isFinite(cost) || cost <= 0) return undefined;
  return Math.max(0, Math.floor((total + 1e-9) / cost));
}

/**
 * Checks a new balance against N messages of the current model. The warning comes once when the
 * balance goes below the threshold, and again only after it has been at or above it (a top-up).
 */
export function checkLowCredit(
  prev: LowCreditState,
  total: number | undefined,
  cost: number | null | undefined,
  n: number = DEFAULT_LOW_CREDIT_MESSAGES,
): LowCreditCheck {
  if (total === undefined) return { state: prev, warn: false };
  const left = messagesLeft(total, cost);
  if (left === undefined || !(n > 0)) return { state: { below: false }, warn: false };
  const below = left < n;
  return { state: { below }, warn: below && !prev.below, messagesLeft: left };
}

/** Models the balance pays for one message of, cheapest first (unknown prices left out). */
export function affordableModels<T extends { id: string; cost?: number | null }>(models: readonly T[], total: number): T[] {
  return models
    .filter((m) => typeof m.cost === 'number' && Number.isFinite(m.cost) && m.cost <= total)
    .sort((a, b) => (a.cost as number) - (b.cost as number));
}

/** What the chat's out-of-credits card shows. */
export interface OutOfCreditsCard {
  balance: number;
  /** Cost of one message of the selected model. */
  cost: number;
  model: string;
  /** How many models the balance pays one message of. */
  affordable: number;
}

/**
 * The card, while the balance cannot pay one message of the selected model; undefined once it
 * can (a refresh, a top-up, a cheaper model) or when either figure is unknown.
 */
export function outOfCreditsCard(
  total: number | undefined,
  model: string,
  cost: number | null | undefined,
  models: readonly ModelLike[],
): OutOfCreditsCard | undefined {
  if (total === undefined || typeof cost !== 'number' || !Number.isFinite(cost) || total >= cost) return undefined;
  return { balance: total, cost, model, affordable: affordableChatModels(models, total).length };
}

/** The models a chat can use that the balance pays one message of, cheapest first. */
export function affordableChatModels(models: readonly ModelLike[], total: number): Array<{ id: string; name: string; cost: number }> {
  const usable = models.filter((m) => modelUsability(m).usable).map((m) => ({ id: m.valueId, name: m.name, cost: m.costInCreditPerUse }));
  return affordableModels(usable, total);
}
