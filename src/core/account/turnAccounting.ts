// One accounting for every turn of every surface (the chat panel, @aichat, the language model
// provider): which turns are replies, with which model, and the usage record of each. Pure: the
// extension's turn accounting (src/extension/account/turnAccounting.ts) feeds it.
import type { TurnCharge } from './charge';
import type { UsageRecord } from './usage';

/**
 * Where a turn was asked: the chat panel, @aichat, the language model provider, edit in the editor,
 * a quick fix or explanation, the terminal, Source Control's commit message, a summary of turns.
 */
export type TurnSurface = 'panel' | 'aichat' | 'lm' | 'edit' | 'fix' | 'explain' | 'terminal' | 'commit' | 'summary';

export interface TurnOutcome {
  /** Where the turn was asked (kept with its usage record). */
  surface?: TurnSurface;
  /**
   * The service answered (200): the reply is charged, whatever happened after (stopped, failed
   * mid-stream). False for a send refused or failed before any reply (402, 401, no connection).
   */
  answered: boolean;
  /** The model that answered: the one the request named, or the one a non-streaming reply named. */
  model: string;
  /** creditsUsed of a non-streaming reply. */
  reported?: number;
  /** creditsRemaining of a non-streaming reply. */
  remaining?: number;
  /** The model's price for one reply, when known. */
  expected?: number;
}

/** The record Show Usage keeps for a turn, or undefined when the turn was no reply. */
export function usageRecordOf(outcome: TurnOutcome, charge: TurnCharge, at: number): UsageRecord | undefined {
  if (!outcome.answered || !outcome.model) return undefined;
  return {
    at,
    model: outcome.model,
    ...(outcome.surface && outcome.surface !== 'panel' ? { surface: outcome.surface } : {}),
    ...(charge.charged !== undefined ? { charged: charge.charged } : {}),
    ...(charge.charged !== undefined && charge.approximate ? { approximate: true as const } : {}),
  };
}

/** Keys of turns: unique per surface within a window. */
export function turnKey(surface: TurnSurface, id: string): string {
  return `${surface}/${id}`;
}
