// What a reply cost: the service's own figure when it gives one, else the change of the balance
// around the turn (only when no other turn was in flight), else unknown.

export interface TurnChargeInput {
  /** creditsUsed of a non-streaming reply (a streamed reply says nothing about credits). */
  reported?: number;
  /** Total balance when the turn started. */
  before?: number;
  /** Total balance fetched after the reply finished. */
  after?: number;
  /** Another turn was in flight at some point during this one: the balance change is not this turn's alone. */
  overlapped: boolean;
  /** The model's price for one reply, when known. */
  expected?: number;
}

export interface TurnCharge {
  /** The charge, once known. */
  charged?: number;
  /** The balance does not show the charge yet: fetch it again a little later. */
  pending: boolean;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

export function turnCharge(t: TurnChargeInput): TurnCharge {
  if (t.reported !== undefined && Number.isFinite(t.reported) && t.reported >= 0) return { charged: round2(t.reported), pending: false };
  if (t.overlapped || t.before === undefined || t.after === undefined) return { pending: false };
  const diff = round2(t.before - t.after);
  if (diff > 0) return { charged: diff, pending: false };
  // Nothing taken yet: the service may book the charge a moment after the reply.
  return { pending: t.expected !== undefined && t.expected > 0 };
}

/** A line for the log when the charge differs from the expected cost; undefined when they agree or one is unknown. */
export function chargeDifference(expected: number | undefined, charged: number | undefined): { expected: number; charged: number; difference: number } | undefined {
  if (expected === undefined || charged === undefined) return undefined;
  const difference = round2(charged - expected);
  return difference === 0 ? undefined : { expected, charged, difference };
}

export interface ChargeTrackerDeps {
  /** Starts a new balance request now and resolves with its total (undefined when it failed). */
  fetchTotal: () => Promise<number | undefined>;
  /** The total shown now, if any. */
  currentTotal: () => number | undefined;
  log: (msg: string, data: Record<string, unknown>) => void;
  sleep: (ms: number) => Promise<void>;
  /** Wait before fetching again when the charge has not shown yet. Default 3 s. */
  recheckMs?: number;
  /** Fetches again at most this many times. Default 2. */
  maxRechecks?: number;
}

export interface TurnEnd {
  reported?: number;
  expected?: number;
}

/**
 * Follows the turns in flight and settles each one's charge after its reply finished: the balance
 * is fetched by a request started after the reply finished (never an earlier answer), again a few
 * seconds later while the charge has not shown, and the difference from the expected cost is logged.
 */
export class ChargeTracker {
  private readonly turns = new Map<string, { before: number | undefined; overlapped: boolean }>();

  constructor(private readonly deps: ChargeTrackerDeps) {}

  begin(key: string): void {
    const overlapped = this.turns.size > 0;
    for (const t of this.turns.values()) t.overlapped = true;
    this.turns.set(key, { before: this.deps.currentTotal(), overlapped });
  }

  async end(key: string, info: TurnEnd): Promise<TurnCharge> {
    const turn = this.turns.get(key) ?? { before: undefined, overlapped: true };
    this.turns.delete(key);
    if (this.turns.size > 0) turn.overlapped = true;
    const input: TurnChargeInput = { ...info, before: turn.before, overlapped: turn.overlapped };
    let result = turnCharge(input);
    if (result.charged === undefined) {
      input.after = await this.deps.fetchTotal();
      result = turnCharge(input);
      const rechecks = this.deps.maxRechecks ?? 2;
      for (let i = 0; i < rechecks && result.pending; i++) {
        await this.deps.sleep(this.deps.recheckMs ?? 3000);
        input.after = await this.deps.fetchTotal();
        result = turnCharge(input);
      }
    }
    const diff = chargeDifference(info.expected, result.charged);
    if (diff) this.deps.log('The charge of a reply differs from the expected cost', diff);
    return result;
  }
}
