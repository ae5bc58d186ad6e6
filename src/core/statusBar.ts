// The status bar item's state, computed from what the extension knows about the balance.
import { creditsText, formatNumber, isLowBalance } from './cost';

/** The balance object of GET /user/balance; the interface does not say which fields are required. */
export interface BalanceLike {
  regularBalance?: number;
  dailyBalance?: number;
  totalBalance?: number;
  hasDailyCredit?: boolean;
  credits?: ReadonlyArray<{
    amount?: number;
    usedAmount?: number | null;
    expiresAt?: string | null;
    extendedExpiresAt?: string | null;
    type?: string | null;
  }>;
  dailyCredit?: { grantedAmount?: number; amount?: number; used?: boolean; grantedDate?: string } | null;
}

export interface StatusBarInput {
  hasKey: boolean;
  loading: boolean;
  balance?: BalanceLike;
  /** Reason the last refresh failed. */
  error?: string;
  selectedModel?: string;
  selectedModelCost?: number | null;
  lastUpdated?: Date;
  now?: Date;
  /** Formats the "last updated" time (default: the local time of day). */
  formatTime?: (d: Date) => string;
  /** The service address in use. */
  serviceUrl?: string;
  /** A workspace address that is not used (the user has not allowed it). */
  ignoredWorkspaceUrl?: string;
}

export interface StatusBarState {
  text: string;
  /** Markdown (untrusted: no command links). */
  tooltip: string;
  background: 'warning' | 'error' | undefined;
  accessibilityLabel: string;
}

/** Total credits: totalBalance, else regular + daily. */
export function totalCredits(b: BalanceLike): number {
  if (typeof b.totalBalance === 'number' && Number.isFinite(b.totalBalance)) return b.totalBalance;
  return (b.regularBalance ?? 0) + (b.dailyBalance ?? 0);
}

/** Escapes text for a Markdown tooltip. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, (c) => '\\' + c);
}

function dayDiff(from: Date, to: Date): number {
  return Math.ceil((to.getTime() - from.getTime()) / 86_400_000);
}

function expiryText(iso: string | null | undefined, now: Date): string {
  if (!iso) return 'no expiry given';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return 'no expiry given';
  const days = dayDiff(now, d);
  const date = d.toISOString().slice(0, 10);
  if (days < 0) return `expired ${date}`;
  if (days === 0) return `expires today (${date})`;
  return `expires ${date} (in ${days} ${days === 1 ? 'day' : 'days'})`;
}

/** The tooltip's breakdown of a balance. */
export function balanceBreakdown(b: BalanceLike, now: Date): string[] {
  const lines: string[] = [];
  lines.push(`**Total:** ${escapeMarkdown(creditsText(totalCredits(b)))}`);
  const parts: string[] = [];
  if (b.regularBalance !== undefined) parts.push(`Regular ${formatNumber(b.regularBalance)}`);
  if (b.dailyBalance !== undefined) parts.push(`Daily ${formatNumber(b.dailyBalance)}`);
  if (parts.length) lines.push(escapeMarkdown(parts.join(' · ')));
  if (b.hasDailyCredit !== undefined || b.dailyCredit) {
    const used = b.dailyCredit?.used;
    const daily = b.hasDailyCredit === false
      ? 'No daily credit'
      : used === true
        ? 'Daily credit used'
        : used === false
          ? 'Daily credit not used yet'
          : 'Daily credit available';
    const granted = b.dailyCredit?.grantedAmount !== undefined ? ` (granted ${formatNumber(b.dailyCredit.grantedAmount)})` : '';
    lines.push(escapeMarkdown(daily + granted));
  }
  const grants = (b.credits ?? []).filter((c) => typeof c.amount === 'number');
  if (grants.length) {
    const grantLines = ['Credit grants:'];
    const sorted = [...grants].sort((x, y) => (x.extendedExpiresAt ?? x.expiresAt ?? '').localeCompare(y.extendedExpiresAt ?? y.expiresAt ?? ''));
    for (const c of sorted) {
      const left = (c.amount ?? 0) - (c.usedAmount ?? 0);
      const used = c.usedAmount ? ` of ${formatNumber(c.amount ?? 0)}` : '';
      grantLines.push(`- ${escapeMarkdown(`${formatNumber(left)}${used} ${expiryText(c.extendedExpiresAt ?? c.expiresAt, now)}`)}`);
    }
    lines.push(grantLines.join('\n'));
  }
  return lines;
}

export function computeStatusBarState(input: StatusBarInput): StatusBarState {
  const now = input.now ?? new Date();
  const formatTime = input.formatTime ?? ((d: Date) => d.toLocaleTimeString());
  const footer: string[] = [];
  if (input.selectedModel) {
    const cost = typeof input.selectedModelCost === 'number' ? ` (${creditsText(input.selectedModelCost)} per message)` : '';
    footer.push(escapeMarkdown(`Model: ${input.selectedModel}${cost}`));
  }
  if (input.lastUpdated) footer.push(escapeMarkdown(`Last updated ${formatTime(input.lastUpdated)}`));
  if (input.serviceUrl) footer.push(escapeMarkdown(`Service: ${input.serviceUrl}`));
  if (input.ignoredWorkspaceUrl) {
    footer.push(
      '$(shield) ' +
        escapeMarkdown(
          `This workspace names ${input.ignoredWorkspaceUrl} as the service address; it is not used until you allow it (AI Chat: Review Service Address), because your API key would be sent there.`,
        ),
    );
  }
  footer.push('Click for balance actions');
  const tooltipOf = (head: string[]) => ['**AI Chat credits**', ...head, ...footer].join('\n\n');

  if (!input.hasKey) {
    return {
      text: '$(key) Set API Key',
      tooltip: ['**AI Chat**', 'No API key set. Click to set your API key.', ...footer.slice(0, -1)].join('\n\n'),
      background: undefined,
      accessibilityLabel: 'AI Chat: no API key set. Set API Key',
    };
  }
  if (input.error !== undefined && !input.loading) {
    return {
      text: '$(warning) Credits',
      tooltip: tooltipOf([escapeMarkdown(`Could not get the balance: ${input.error}`)]),
      background: 'warning',
      accessibilityLabel: `AI Chat credits unavailable: ${input.error}`,
    };
  }
  if (!input.balance) {
    return {
      text: '$(sync~spin) Credits',
      tooltip: tooltipOf(['Loading the balance…']),
      background: undefined,
      accessibilityLabel: 'AI Chat credits: loading',
    };
  }
  const total = totalCredits(input.balance);
  const low = isLowBalance(total, input.selectedModelCost);
  const head = balanceBreakdown(input.balance, now);
  if (low) head.unshift('$(warning) ' + escapeMarkdown('Low balance: not enough for the next message of the selected model.'));
  if (input.loading) head.push('Refreshing…');
  return {
    text: `$(credit-card) ${creditsText(total)}`,
    tooltip: tooltipOf(head),
    background: low ? 'warning' : undefined,
    accessibilityLabel: `AI Chat credits: ${formatNumber(total)}${low ? ' (low)' : ''}`,
  };
}
