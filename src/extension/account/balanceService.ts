// The credit balance: refreshed on an interval, after replies and on command.
import * as vscode from 'vscode';
import { pendingDeduction, totalCredits, type BalanceLike, type PendingCharge } from '../../core';
import type { ClientProvider } from '../platform/clientProvider';
import type { ConfigService } from '../platform/config';
import type { ApiKeyStore } from './keyStore';
import type { Logger } from '../platform/log';

export interface BalanceState {
  loading: boolean;
  balance?: BalanceLike;
  error?: string;
  lastUpdated?: Date;
  /** Prices of finished replies taken off the balance shown until the service's figure shows them. */
  pendingCharge?: number;
}

export class BalanceService implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private current: BalanceState = { loading: false };
  private inFlight: Promise<void> | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  private generation = 0;
  private readonly disposables: vscode.Disposable[] = [];
  private pending: readonly PendingCharge[] = [];

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
  }

  /** Fetches the balance with a request started now (an answer to an earlier one is dropped); resolves with the total. */
  async fetchTotal(): Promise<number | undefined> {
    this.generation++;
    this.inFlight = undefined;
    let run = this.refresh();
    await run;
    // Superseded by a request started later still (also fresh enough): its answer.
    while (this.inFlight && this.inFlight !== run) {
      run = this.inFlight;
      await run;
    }
    return this.current.balance && !this.current.error ? totalCredits(this.current.balance) : undefined;
  }

  /** The total the service reported last (no pending charge taken off), if any. */
  get serviceTotal(): number | undefined {
    return this.current.balance ? totalCredits(this.current.balance) : undefined;
  }

  /** The prices of finished replies not yet shown by the service's figure (shown at once, marked pending). */
  setPendingCharges(pending: readonly PendingCharge[]): void {
    this.pending = pending;
    this.changed.fire();
  }

  get state(): BalanceState {
    const b = this.current.balance;
    const deduction = b && this.pending.length > 0 ? pendingDeduction(totalCredits(b), this.pending) : 0;
    return deduction > 0 ? { ...this.current, pendingCharge: deduction } : this.current;
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
