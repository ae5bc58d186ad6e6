/**
 * Values from the service that are well-typed but out of range (negative or fractional credits,
 * costs or token counts; non-finite or absurdly large numbers) are made sensible here, at the
 * client boundary, and logged once per field as a warning, so that nothing downstream has to guess:
 * every number the client hands out is finite and >= 0, token counts are safe integers.
 */
import type { Logger } from './logger';

/** Reports one out-of-range value: `field` names it, `shown` says what is used instead. */
export type RangeWarning = (field: string, value: unknown, shown: string) => void;

/**
 * Largest amount of credits taken as real (a cost, a charge, a balance): 10^12. Above it, cents
 * would no longer be exact, and no account holds that much.
 */
export const MAX_CREDITS = 1e12;

/** A RangeWarning that logs the first problem of each field once, as a warning. */
export function warnOncePerField(logger: Pick<Logger, 'warn'>): RangeWarning {
  const seen = new Set<string>();
  return (field, value, shown) => {
    if (seen.has(field)) return;
    seen.add(field);
    logger.warn('Out-of-range value from the service', { field, value: String(value).slice(0, 40), shown });
  };
}

export const noRangeWarning: RangeWarning = () => {};

/**
 * A token count: a non-negative safe integer. Fractional -> rounded; negative, not finite or above
 * Number.MAX_SAFE_INTEGER -> undefined (not shown).
 */
export function tokenCount(value: number | undefined, field: string, warn: RangeWarning): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isFinite(value) || value < 0 || value > Number.MAX_SAFE_INTEGER) {
    warn(field, value, 'not shown');
    return undefined;
  }
  if (!Number.isInteger(value)) {
    const rounded = Math.round(value);
    warn(field, value, String(rounded));
    return rounded;
  }
  return value;
}

/** The sum of two token counts; undefined when it is not a safe integer any more (an overflow). */
export function addTokenCounts(a: number | undefined, b: number | undefined, field: string, warn: RangeWarning): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  const sum = a + b;
  if (!Number.isSafeInteger(sum)) {
    warn(field, sum, 'not shown');
    return undefined;
  }
  return sum;
}

/**
 * Credits, a cost or a charge: non-negative, at most two decimals, at most MAX_CREDITS. Negative,
 * not finite or larger -> undefined.
 */
export function creditAmount(value: number | undefined, field: string, warn: RangeWarning): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isFinite(value) || value < 0 || value > MAX_CREDITS) {
    warn(field, value, 'not shown');
    return undefined;
  }
  const rounded = Math.round(value * 100) / 100;
  if (rounded !== value) warn(field, value, String(rounded));
  return rounded;
}

/**
 * A balance (or the amount of a grant): like creditAmount, but a negative or non-finite balance is
 * shown as 0 (nothing can be spent), and a finite one above MAX_CREDITS as MAX_CREDITS.
 */
export function balanceAmount(value: number, field: string, warn: RangeWarning): number {
  if (!Number.isFinite(value) || value < 0) {
    warn(field, value, '0');
    return 0;
  }
  if (value > MAX_CREDITS) {
    warn(field, value, String(MAX_CREDITS));
    return MAX_CREDITS;
  }
  return creditAmount(value, field, warn) ?? 0;
}
