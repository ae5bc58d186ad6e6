// What a reply cost: the service's own figure when it gives one, else the change of the balance
// between a request made when the turn started and one made after the reply, else the model's price
// marked approximate (the change is not this turn's alone), else unknown.

export interface TurnChargeInput {
  /** creditsUsed of a non-streaming reply (a streamed reply says nothing about credits). */
  reported?: number;
  /** Total balance when the turn started. */
  before?: number;
  /**
   * `before` was fetched when the turn started and answered before the reply's request went out;
   * false when it is the balance last shown (possibly minutes old) because that fetch did not finish.
   */
  beforeExact?: boolean;
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
  /** The figure is not measured from this turn alone (see `TurnChargeInput.beforeExact`, `overlapped`). */
  approximate?: true;
  /** The balance does not show the charge yet: fetch it again a little later. */
  pending: boolean;
}

const round2 = (n: number) => Math.round(n * 100) / 100;
const usable = (n: number | undefined): n is number => n !== undefined && Number.isFinite(n) && n >= 0;

export function turnCharge(t: TurnChargeInput): TurnCharge {
  if (usable(t.reported)) return { charged: round2(t.reported), pending: false };
  const expected = usable(t.expected) && t.expected > 0 ? t.expected : undefined;
  // Another turn of this window was in flight: the change is not this one's; its price is the best figure.
  if (t.overlapped) return expected !== undefined ? { charged: expected, approximate: true, pending: false } : { pending: false };
  if (t.before === undefined || t.after === undefined) return { pending: false };
  const diff = round2(t.before - t.after);
  // Nothing taken yet: the service may book the charge a moment after the reply.
  if (diff <= 0) return { pending: expected !== undefined };
  if (expected !== undefined && diff > expected) {
    // More than the price went: something else spent from the same balance during the turn
    // (another window or machine). That is not this reply's.
    return { charged: expected, approximate: true, pending: false };
  }
  return t.beforeExact === false ? { charged: diff, approximate: true, pending: false } : { charged: diff, pending: false };
}

/** A line for the log when the charge differs from the expected cost; undefined when they agree or one is unknown. */
export function chargeDifference(expected: number | undefined, charged: number | undefined): { expected: number; charged: number; difference: number } | undefined {
  if (expected === undefined || charged === undefined) return undefined;
  const difference = round2(charged - expected);
  return difference === 0 ? undefined : { expected, charged, difference };
}

/** A reply's price taken off the balance shown until the service's figure shows the charge. */
export interface PendingCharge {
  amount: number;
  /** The balance when the turn started: a service figure below it shows the charge was booked. */
  before?: number;
}

/**
 * How much of the pending charges the service's total does not show yet: a charge counts while the
 * service's figure is not below the balance its turn started with.
 */
export function pendingDeduction(serviceTotal: number, pending: Iterable<PendingCharge>): number {
  let sum = 0;
  for (const p of pending) if (p.before === undefined || serviceTotal >= p.before - 0.005) sum += p.amount;
  return round2(sum);
}

export interface ChargeTrackerDeps {
  /** Starts a new balance request now and resolves with its total (undefined when it failed). */
  fetchTotal: () => Promise<number | undefined>;
  /** The total shown now, if any. */
  currentTotal: () => number | undefined;
  log: (msg: string, data: Record<string, unknown>) => void;
  sleep: (ms: number) => Promise<void>;
  /** Told when the set of charges waiting for the service's figure changed. */
  pendingChanged?: (pending: readonly PendingCharge[]) => void;
  /** Waits before each new fetch while the charge has not shown. Default 1 s, 1 s, 1 s, 2 s, 4 s. */
  recheckMs?: readonly number[];
  /** Longest wait, before a reply's request goes out, for the balance fetched at turn start. Default 0.5 s. */
  startWaitMs?: number;
}

export interface TurnEnd {
  reported?: number;
  expected?: number;
}

interface TrackedTurn {
  /** The balance shown when the turn started (used when the fetch made then does not finish in time). */
  shown: number | undefined;
  /** Answer of the fetch made at turn start, when it came before the request went out. */
  fetched: number | undefined;
  /** The request went out: an answer of the start fetch after this may hold the charge, and is not used. */
  sent: boolean;
  start: Promise<void>;
  overlapped: boolean;
}

export const DEFAULT_RECHECK_MS: readonly number[] = [1000, 1000, 1000, 2000, 4000];

/**
 * Follows the turns in flight and settles each one's charge. When a turn starts, the balance is
 * fetched (the reply's request waits for that answer, at most `startWaitMs`; see `beforeSend`);
 * after its reply the balance is fetched by a request started then (never an earlier answer), and
 * again a few times while the charge has not shown. Meanwhile the reply's price is pending: taken
 * off the balance shown until the service's figure shows the charge (`pendingChanged`).
 */
export class ChargeTracker {
  private readonly turns = new Map<string, TrackedTurn>();
  private readonly pending = new Map<string, PendingCharge>();

  constructor(private readonly deps: ChargeTrackerDeps) {}

  begin(key: string): void {
    const overlapped = this.turns.size > 0;
    for (const t of this.turns.values()) t.overlapped = true;
    const turn: TrackedTurn = { shown: this.deps.currentTotal(), fetched: undefined, sent: false, start: Promise.resolve(), overlapped };
    turn.start = this.deps.fetchTotal().then(
      (total) => {
        if (!turn.sent) turn.fetched = total;
      },
      () => undefined,
    );
    this.turns.set(key, turn);
  }

  /**
   * Before a reply's request goes out: waits for the balance requests of the turns that started
   * (at most `startWaitMs`); a turn whose answer did not come by then is measured from the balance
   * it showed, as approximate.
   */
  async beforeSend(key?: string): Promise<void> {
    const waiting = [...this.turns.entries()].filter(([k, t]) => !t.sent && (key === undefined || k === key)).map(([, t]) => t);
    if (waiting.length === 0) return;
    const limit = this.deps.startWaitMs ?? 500;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.all(waiting.map((t) => t.start)),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, limit))),
    ]);
    if (timer !== undefined) clearTimeout(timer);
    for (const t of waiting) t.sent = true;
  }

  /** A turn that sent nothing the service answered (refused, failed before any reply): nothing to settle. */
  abandon(key: string): void {
    const turn = this.turns.get(key);
    if (turn) turn.sent = true;
    this.turns.delete(key);
  }

  /** The charges taken off the balance shown, until the service's figure shows them. */
  get pendingCharges(): PendingCharge[] {
    return [...this.pending.values()];
  }

  async end(key: string, info: TurnEnd): Promise<TurnCharge> {
    const turn = this.turns.get(key);
    this.turns.delete(key);
    const overlapped = !turn || turn.overlapped || this.turns.size > 0;
    // An answer of the fetch made at turn start that comes only now is not used.
    if (turn) turn.sent = true;
    const before = turn?.fetched ?? turn?.shown;
    const input: TurnChargeInput = {
      ...info,
      overlapped,
      ...(before !== undefined ? { before, beforeExact: turn?.fetched !== undefined } : {}),
    };
    let result: TurnCharge;
    if (usable(info.reported)) {
      result = turnCharge(input);
    } else {
      const price = info.expected;
      if (price !== undefined && Number.isFinite(price) && price > 0) {
        this.pending.set(key, { amount: price, ...(before !== undefined ? { before } : {}) });
        this.deps.pendingChanged?.(this.pendingCharges);
      }
      try {
        input.after = await this.deps.fetchTotal();
        result = turnCharge(input);
        for (const ms of this.deps.recheckMs ?? DEFAULT_RECHECK_MS) {
          if (!result.pending) break;
          await this.deps.sleep(ms);
          input.after = await this.deps.fetchTotal();
          result = turnCharge(input);
        }
      } finally {
        if (this.pending.delete(key)) this.deps.pendingChanged?.(this.pendingCharges);
      }
      // Still not shown after the last look: unknown.
      if (result.pending) result = { pending: false };
    }
    const diff = chargeDifference(info.expected, result.charged);
    if (diff) this.deps.log('The charge of a reply differs from the expected cost', diff);
    if (result.approximate) this.deps.log('The charge of a reply is approximate', { charged: result.charged, overlapped, beforeExact: input.beforeExact ?? false, before: input.before, after: input.after });
    return result;
  }
}
