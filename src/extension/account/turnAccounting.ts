// Every turn of every surface (the chat panel, @aichat, the language model provider) goes through
// here: the balance is fetched when the turn starts, the reply's price is taken off the balance
// shown when it ends (pending until the service's figure shows the charge), the charge is settled
// from the service's figures, and the reply is recorded for Show Usage with the model that
// answered. A send that failed before any reply is no reply: only the balance is brought up to date.
import type * as vscode from 'vscode';
import {
  ChargeTracker, turnKey, usageRecordOf,
  type ChatBackend, type ReplyFinished, type TurnCharge, type TurnOutcome, type TurnSurface, type UsageRecord,
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

/** One turn of @aichat or the language model provider (their replies always stream). */
export interface NativeTurn {
  /** The backend to answer through: its request waits for the balance fetched at turn start, and tells when the service answered. */
  backend(inner: ChatBackend): ChatBackend;
  /** The turn is over (answered or not): settles and records it. Never rejects. */
  end(): Promise<TurnCharge>;
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

  /** A turn starts (before its request is built): the balance its charge is measured from is fetched now. */
  begin(key: string): void {
    this.charges.begin(key);
  }

  /** A backend whose requests wait (briefly) for the balance fetched when their turn started. */
  gate(inner: ChatBackend, key?: string, answered?: () => void): ChatBackend {
    return {
      chat: async (req, opts) => {
        await this.charges.beforeSend(key);
        const res = await inner.chat(req, opts);
        answered?.();
        return res;
      },
      chatStream: async (req, opts) => {
        await this.charges.beforeSend(key);
        const stream = await inner.chatStream(req, opts);
        answered?.();
        return stream;
      },
    };
  }

  /** The turn ended: settles its charge and records it (when it was a reply). Never rejects. */
  async end(key: string, outcome: TurnOutcome): Promise<TurnCharge> {
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

  /** The panel's turn ended (see ChatSession): its key is that of `replyStarted`. */
  replyFinished(info: ReplyFinished): Promise<TurnCharge> {
    return this.end(panelTurnKey(info), {
      answered: info.answered ?? info.errorKind === undefined,
      model: info.model ?? '',
      ...(info.creditsUsed !== undefined ? { reported: info.creditsUsed } : {}),
      ...(info.creditsRemaining !== undefined ? { remaining: info.creditsRemaining } : {}),
      ...(info.expectedCost !== undefined ? { expected: info.expectedCost } : {}),
    });
  }

  /** A turn of @aichat or the language model provider, answered by `model`. */
  nativeTurn(surface: Exclude<TurnSurface, 'panel'>, model: string, expected: number | null | undefined): NativeTurn {
    const key = turnKey(surface, String(++this.seq));
    let answered = false;
    let ended: Promise<TurnCharge> | undefined;
    this.begin(key);
    return {
      backend: (inner) => this.gate(inner, key, () => (answered = true)),
      end: () =>
        (ended ??= this.end(key, {
          answered,
          model,
          ...(typeof expected === 'number' ? { expected } : {}),
        })),
    };
  }

  dispose(): void {
    this.disposed = true;
  }
}

/** The key of a panel turn, from its conversation and reply ids. */
export function panelTurnKey(info: { conversationId?: string; messageId?: string }): string {
  return turnKey('panel', `${info.conversationId}/${info.messageId}`);
}
