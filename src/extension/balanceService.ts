// The credit balance: refreshed on an interval, after replies and on command.
import * as vscode from 'vscode';
import { ChargeTracker, totalCredits, type BalanceLike, type ReplyFinished, type TurnCharge } from '../core';
import type { ClientProvider } from './clientProvider';
import type { ConfigService } from './config';
import type { ApiKeyStore } from './keyStore';
import type { Logger } from './log';

export interface BalanceState {
  loading: boolean;
  balance?: BalanceLike;
  error?: string;
  lastUpdated?: Date;
}

export class BalanceService implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private current: BalanceState = { loading: false };
  private inFlight: Promise<void> | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  private generation = 0;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly charges: ChargeTracker;

  constructor(
    private readonly clients: ClientProvider,
    private readonly keys: ApiKeyStore,
    private readonly config: ConfigService,
    private readonly logger: Logger,
  ) {
    this.disposables.push(
      config.onDidChange((e) => {
        if (e.affects('balanceRefreshMinutes')) this.schedule();
        if (e.affects('baseUrl')) void this.refresh();
      }),
      keys.onDidChange(() => {
        this.generation++;
        this.inFlight = undefined;
        this.current = { loading: false };
        this.changed.fire();
        void this.refresh();
      }),
    );
    this.schedule();
    this.charges = new ChargeTracker({
      fetchTotal: () => this.fetchFresh(),
      currentTotal: () => (this.current.balance ? totalCredits(this.current.balance) : undefined),
      log: (msg, data) => this.logger.info(msg, data),
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    });
  }

  /** A reply starts (its balance change is attributed to it only if no other turn overlaps). */
  replyStarted(key: string): void {
    this.charges.begin(key);
  }

  /**
   * A reply finished (complete, failed or stopped): the balance is brought up to date by a request
   * started now (an answer to an earlier request is dropped), and the reply's charge is settled:
   * from creditsUsed, else from the balance change. Resolves with the charge once known.
   */
  async replyFinished(key: string, info: ReplyFinished): Promise<TurnCharge> {
    if (info.creditsRemaining !== undefined) this.setRemaining(info.creditsRemaining);
    return this.charges.end(key, {
      ...(info.creditsUsed !== undefined ? { reported: info.creditsUsed } : {}),
      ...(info.expectedCost !== undefined ? { expected: info.expectedCost } : {}),
    });
  }

  /** Fetches the balance with a request started now (an answer to an earlier one is dropped); resolves with the total. */
  private async fetchFresh(): Promise<number | undefined> {
    this.generation++;
    this.inFlight = undefined;
    await this.refresh();
    return this.current.balance && !this.current.error ? totalCredits(this.current.balance) : undefined;
  }

  get state(): BalanceState {
    return this.current;
  }

  private schedule(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    const minutes = this.config.settings.balanceRefreshMinutes;
    if (minutes > 0) this.timer = setInterval(() => void this.refresh(), minutes * 60_000);
  }

  /** Fetches the balance (one request at a time; a key change restarts it). */
  refresh(): Promise<void> {
    if (this.inFlight) return this.inFlight;
    const gen = ++this.generation;
    const run: Promise<void> = (async () => {
      const key = await this.keys.get();
      if (!key) {
        this.current = { loading: false };
        this.changed.fire();
        return;
      }
      this.current = { ...this.current, loading: true };
      this.changed.fire();
      try {
        const res = await this.clients.get().balance();
        if (gen !== this.generation) return;
        this.current = { loading: false, balance: res.balance, lastUpdated: new Date() };
      } catch (err) {
        if (gen !== this.generation) return;
        const message = err instanceof Error ? err.message : String(err);
        this.logger.warn('Balance refresh failed', { kind: (err as { kind?: string }).kind, message });
        this.current = { ...this.current, loading: false, error: message };
      }
      this.changed.fire();
    })().finally(() => {
      if (this.inFlight === run) this.inFlight = undefined;
    });
    this.inFlight = run;
    return run;
  }

  /** A non-streaming reply told us what is left. */
  setRemaining(total: number): void {
    // The breakdown (regular, daily, grants) is no longer known; the total is.
    this.generation++;
    this.inFlight = undefined;
    this.current = { loading: false, balance: { totalBalance: total }, lastUpdated: new Date() };
    this.changed.fire();
    if (this.detailTimer) clearTimeout(this.detailTimer);
    this.detailTimer = setTimeout(() => void this.refresh(), 1500);
  }

  private detailTimer: ReturnType<typeof setTimeout> | undefined;

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.detailTimer) clearTimeout(this.detailTimer);
    this.generation++;
    for (const d of this.disposables) d.dispose();
    this.changed.dispose();
  }
}
