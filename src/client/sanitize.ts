/**
 * Values from the service that are well-typed but out of range (negative or fractional credits,
 * costs or token counts; non-finite numbers) are made sensible here, at the client boundary, and
 * logged once per field as a warning, so that nothing downstream has to guess.
 */
import type { Logger } from './logger';

/** Reports one out-of-range value: `field` names it, `shown` says what is used instead. */
export type RangeWarning = (field: string, value: unknown, shown: string) => void;

/** A RangeWarning that logs the first problem of each field once, as a warning. */
export function warnOncePerField(logger: Pick<Logger, 'warn'>): RangeWarning {
  const seen = new Set<string>();
  return (field, value, shown) => {
    if (seen.has(field)) return;
    seen.add(field);
    logger.warn('Out-of-range value from the service', { field, value: String(value).slice(0, 40), shown });
  };
}

/** A token count: a non-negative whole number. Fractional -> rounded; negative or not finite -> undefined. */
export function tokenCount(value: number | undefined, field: string, warn: RangeWarning): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isFinite(value) || value < 0) {
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

/** Credits, a cost or a charge: non-negative, at most two decimals. Negative or not finite -> undefined. */
export function creditAmount(value: number | undefined, field: string, warn: RangeWarning): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isFinite(value) || value < 0) {
    warn(field, value, 'not shown');
    return undefined;
  }
  const rounded = Math.round(value * 100) / 100;
  if (rounded !== value) warn(field, value, String(rounded));
  return rounded;
}

/** A balance: like creditAmount, but a negative balance is shown as 0 (nothing can be spent). */
export function balanceAmount(value: number, field: string, warn: RangeWarning): number {
  if (!Number.isFinite(value) || value < 0) {
    warn(field, value, '0');
    return 0;
  }
  return creditAmount(value, field, warn) ?? 0;
}
