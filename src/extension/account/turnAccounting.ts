// Every turn of every surface (the chat panel, @aichat, the language model provider, ...) goes through
// here: the balance is fetched when the turn starts, the reply's price is taken off the balance
// shown when it ends (pending until the service's figure shows the charge), the charge is settled
// from the service's figures, and the reply is recorded for Show Usage with the model that
// answered. A send that failed before any reply is no reply: only the balance is brought up to date.
import type * as vscode from 'vscode';
import {
  ChargeTracker, turnKey, turnOutcomeOf, usageRecordOf,
  type ChatBackend, type TurnCharge, type TurnOutcome, type TurnResult, type TurnSurface, type UsageRecord,
} from '../../core';
import type { BalanceService } from './balanceService';
import type { Logger } from '../platform/log';

export interface TurnAccountingDeps {
  balance: BalanceService;
  /** Keeps a reply's record for Show Usage. */
  record: (rec: UsageRecord) => Promise<void>;
  logger: Logger;
  now?: () => number;
  /** Tests: shorter waits. */
  recheckMs?: readonly number[];
  startWaitMs?: number;
}

/** One turn of any surface, from its start to its settlement. */
export interface AccountedTurn {
  /** The backend to answer through: its request waits (briefly) for the balance fetched when this turn started. */
  backend(inner: ChatBackend): ChatBackend;
  /** The turn is over (answered or not): settles and records it, once. Never rejects. */
  settle(result: TurnResult): Promise<TurnCharge>;
}

export class TurnAccounting implements vscode.Disposable {
  private readonly charges: ChargeTracker;
  private seq = 0;
  private disposed = false;

  constructor(private readonly deps: TurnAccountingDeps) {
    this.charges = new ChargeTracker({
      fetchTotal: () => deps.balance.fetchTotal(),
      currentTotal: () => deps.balance.serviceTotal,
      log: (msg, data) => deps.logger.info(msg, data),
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      pendingChanged: (pending) => {
        if (!this.disposed) deps.balance.setPendingCharges(pending);
      },
      ...(deps.recheckMs ? { recheckMs: deps.recheckMs } : {}),
      ...(deps.startWaitMs !== undefined ? { startWaitMs: deps.startWaitMs } : {}),
    });
  }

  private begin(key: string): void {
    this.charges.begin(key);
  }

  /** A backend whose requests wait (briefly) for the balance fetched when their turn started. */
  private gate(inner: ChatBackend, key: string): ChatBackend {
    return {
      chat: async (req, opts) => {
        await this.charges.beforeSend(key);
        return inner.chat(req, opts);
      },
      chatStream: async (req, opts) => {
        await this.charges.beforeSend(key);
        return inner.chatStream(req, opts);
      },
    };
  }

  /** The turn ended: settles its charge and records it (when it was a reply). Never rejects. */
  private async end(key: string, outcome: TurnOutcome): Promise<TurnCharge> {
    let charge: TurnCharge = { pending: false };
    try {
      if (outcome.remaining !== undefined) this.deps.balance.setRemaining(outcome.remaining);
      if (!outcome.answered) {
        // Nothing was charged: the balance is brought up to date (e.g. for the out-of-credits card).
        this.charges.abandon(key);
        if (outcome.remaining === undefined) await this.deps.balance.fetchTotal();
        return charge;
      }
      charge = await this.charges.end(key, {
        ...(outcome.reported !== undefined ? { reported: outcome.reported } : {}),
        ...(outcome.expected !== undefined ? { expected: outcome.expected } : {}),
      });
      const rec = usageRecordOf(outcome, charge, (this.deps.now ?? Date.now)());
      if (rec) await this.deps.record(rec);
    } catch (err) {
      this.deps.logger.warn('Could not settle or record the charge of a reply', { message: String(err) });
    }
    return charge;
  }

  /**
   * A turn of `surface` starts (before its request is built), to be answered by `model` at the
   * price `expected`: the balance its charge is measured from is fetched now.
   */
  start(surface: TurnSurface, model: string, expected: number | null | undefined, id = String(++this.seq)): AccountedTurn {
    const key = turnKey(surface, id);
    let settled: Promise<TurnCharge> | undefined;
    this.begin(key);
    return {
      backend: (inner) => this.gate(inner, key),
      settle: (result) => (settled ??= this.end(key, { ...turnOutcomeOf(result, expected), surface, model: result.meta.model || model })),
    };
  }

  dispose(): void {
    this.disposed = true;
  }
}
