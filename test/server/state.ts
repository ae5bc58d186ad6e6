// Per-user balance state and billing, plus model usage counters.
// Spending order: the daily credit first, then regular grants, soonest-expiring first;
// expired grants count for nothing.
import { randomUUID } from 'node:crypto';
import { MODELS, USERS, stableUuid, type BalanceInput, type ModelFixture, type UserFixture } from './fixtures';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface CreditGrant {
  id: string;
  userId: string;
  amount: number;
  usedAmount: number;
  type: string;
  createdAt: Date;
  expiresAt: Date;
  extendedExpiresAt: Date;
}

export interface DailyCreditState {
  id: string;
  userId: string;
  grantedAmount: number;
  amount: number;
  grantedDate: string;
}

export interface UserState {
  id: string;
  key: string;
  hasDailyCredit: boolean;
  daily: DailyCreditState;
  credits: CreditGrant[];
}

export interface ChargeResult {
  charged: number;
  fromDaily: number;
  fromGrants: Array<{ creditId: string; amount: number }>;
  remaining: number;
}

function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** The later of the two expiry times: an extension can only push expiry out. */
export function effectiveExpiry(c: CreditGrant): Date {
  return c.extendedExpiresAt.getTime() > c.expiresAt.getTime() ? c.extendedExpiresAt : c.expiresAt;
}

export class BalanceStore {
  private users = new Map<string, UserState>();
  private modelUses = new Map<string, { uses: number; credits: number }>();

  constructor(private readonly now: () => Date = () => new Date()) {
    this.reset();
  }

  reset(): void {
    this.users.clear();
    for (const u of USERS) this.users.set(u.key, this.fromFixture(u));
    this.modelUses.clear();
    for (const m of MODELS) this.modelUses.set(m.valueId, { uses: m.initialUses, credits: m.initialUses * m.costInCreditPerUse });
  }

  private fromFixture(u: UserFixture): UserState {
    const now = this.now().getTime();
    const userId = stableUuid('user:' + u.name);
    return {
      id: userId,
      key: u.key,
      hasDailyCredit: u.hasDailyCredit,
      daily: {
        id: stableUuid('daily:' + u.name),
        userId,
        grantedAmount: u.dailyGranted,
        amount: u.dailyRemaining,
        grantedDate: isoDate(new Date(now)),
      },
      credits: u.credits.map((c, i) => {
        const expiresAt = new Date(now + c.expiresInDays * DAY_MS);
        return {
          id: stableUuid(`credit:${u.name}:${i}`),
          userId,
          amount: c.amount,
          usedAmount: c.usedAmount,
          type: c.type,
          createdAt: new Date(now - c.createdDaysAgo * DAY_MS),
          expiresAt,
          extendedExpiresAt: new Date(expiresAt.getTime() + (c.extendedByDays ?? 0) * DAY_MS),
        };
      }),
    };
  }

  /** The user owning `key`, or undefined (unknown key). */
  user(key: string | undefined): UserState | undefined {
    if (!key) return undefined;
    const u = this.users.get(key);
    if (u) this.refreshDaily(u);
    return u;
  }

  /** A new day grants the daily credit again. */
  private refreshDaily(u: UserState): void {
    const today = isoDate(this.now());
    if (u.daily.grantedDate !== today) {
      u.daily.grantedDate = today;
      u.daily.amount = u.hasDailyCredit ? u.daily.grantedAmount : 0;
    }
  }

  private liveGrants(u: UserState): CreditGrant[] {
    const now = this.now().getTime();
    return u.credits
      .filter((c) => effectiveExpiry(c).getTime() > now && c.amount - c.usedAmount > 0)
      .sort((a, b) => effectiveExpiry(a).getTime() - effectiveExpiry(b).getTime());
  }

  regular(u: UserState): number {
    return this.liveGrants(u).reduce((sum, c) => sum + (c.amount - c.usedAmount), 0);
  }

  dailyBalance(u: UserState): number {
    return u.hasDailyCredit ? Math.max(0, u.daily.amount) : 0;
  }

  total(u: UserState): number {
    return this.regular(u) + this.dailyBalance(u);
  }

  /** Spends `cost` credits (caller checked total >= cost). */
  charge(u: UserState, cost: number, model: ModelFixture): ChargeResult {
    let left = cost;
    const fromDaily = Math.min(left, this.dailyBalance(u));
    u.daily.amount -= fromDaily;
    left -= fromDaily;
    const fromGrants: ChargeResult['fromGrants'] = [];
    for (const c of this.liveGrants(u)) {
      if (left <= 0) break;
      const take = Math.min(left, c.amount - c.usedAmount);
      c.usedAmount += take;
      left -= take;
      fromGrants.push({ creditId: c.id, amount: take });
    }
    const charged = cost - left;
    const stats = this.modelUses.get(model.valueId);
    if (stats) {
      stats.uses += 1;
      stats.credits += charged;
    }
    return { charged, fromDaily, fromGrants, remaining: this.total(u) };
  }

  setBalance(input: BalanceInput): void {
    let u = this.users.get(input.key);
    if (!u) {
      const userId = stableUuid('user-key:' + input.key);
      u = {
        id: userId,
        key: input.key,
        hasDailyCredit: false,
        daily: { id: stableUuid('daily-key:' + input.key), userId, grantedAmount: 0, amount: 0, grantedDate: isoDate(this.now()) },
        credits: [],
      };
      this.users.set(input.key, u);
    }
    const now = this.now().getTime();
    if (input.credits) {
      u.credits = input.credits.map((c) => {
        const expiresAt = new Date(now + c.expiresInDays * DAY_MS);
        return {
          id: randomUUID(),
          userId: u.id,
          amount: c.amount,
          usedAmount: c.usedAmount ?? 0,
          type: c.type ?? 'purchase',
          createdAt: new Date(now),
          expiresAt,
          extendedExpiresAt: new Date(expiresAt.getTime() + (c.extendedByDays ?? 0) * DAY_MS),
        };
      });
    } else if (input.regular !== undefined) {
      const expiresAt = new Date(now + 30 * DAY_MS);
      u.credits = [
        { id: randomUUID(), userId: u.id, amount: input.regular, usedAmount: 0, type: 'purchase', createdAt: new Date(now), expiresAt, extendedExpiresAt: expiresAt },
      ];
    }
    if (input.daily !== undefined) {
      u.daily.amount = input.daily;
      u.daily.grantedAmount = Math.max(u.daily.grantedAmount, input.daily);
      u.daily.grantedDate = isoDate(this.now());
      u.hasDailyCredit = input.hasDailyCredit ?? input.daily > 0;
    } else if (input.hasDailyCredit !== undefined) {
      u.hasDailyCredit = input.hasDailyCredit;
    }
  }

  /** Body of GET /user/balance. */
  balanceBody(u: UserState): Record<string, unknown> {
    const regularBalance = this.regular(u);
    const dailyBalance = this.dailyBalance(u);
    return {
      balance: {
        regularBalance,
        dailyBalance,
        totalBalance: regularBalance + dailyBalance,
        hasDailyCredit: u.hasDailyCredit,
        credits: u.credits.map((c) => ({
          id: c.id,
          userId: c.userId,
          amount: c.amount,
          expiresAt: c.expiresAt.toISOString(),
          createdAt: c.createdAt.toISOString(),
          type: c.type,
          extendedExpiresAt: c.extendedExpiresAt.toISOString(),
          usedAmount: c.usedAmount,
        })),
        dailyCredit: {
          id: u.daily.id,
          userId: u.daily.userId,
          grantedAmount: u.daily.grantedAmount,
          amount: this.dailyBalance(u),
          grantedDate: u.daily.grantedDate,
          used: this.dailyBalance(u) <= 0,
        },
      },
      success: true,
      timestamp: this.now().toISOString(),
    };
  }

  /** Body of GET /ai-model. */
  modelsBody(): Array<Record<string, unknown>> {
    return MODELS.map((m) => {
      const stats = this.modelUses.get(m.valueId) ?? { uses: 0, credits: 0 };
      const out: Record<string, unknown> = {
        id: stableUuid('model:' + m.valueId),
        valueId: m.valueId,
        name: m.name,
        type: m.type,
        costInCreditPerUse: m.costInCreditPerUse,
        isActive: m.isActive,
        createdAt: m.createdAt,
        totalUses: String(stats.uses),
        totalCreditsSpent: String(stats.credits),
      };
      if (m.max_tokens !== undefined) out.max_tokens = m.max_tokens;
      return out;
    });
  }
}
