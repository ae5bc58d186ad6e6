// The status bar item's state, computed from what the extension knows about the balance.
import { creditsText, formatNumber, isLowBalance } from './cost';
import { DEFAULT_LOW_CREDIT_MESSAGES, messagesLeft } from './creditWarning';
import * as l10n from '@vscode/l10n';
import { escapeMarkdown } from '../text/markdown';

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
  /** Below this many messages of the selected model the balance is shown as low (0: never). */
  lowCreditMessages?: number;
  /**
   * Prices of finished replies that `balance` does not show yet (see `pendingDeduction`): taken off
   * the figure shown, marked as pending until the service's figure shows the charge.
   */
  pendingCharge?: number;
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

function dayDiff(from: Date, to: Date): number {
  return Math.ceil((to.getTime() - from.getTime()) / 86_400_000);
}

function expiryText(iso: string | null | undefined, now: Date): string {
  if (!iso) return l10n.t('no expiry given');
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return l10n.t('no expiry given');
  const days = dayDiff(now, d);
  const date = d.toISOString().slice(0, 10);
  if (days < 0) return l10n.t('expired {0}', date);
  if (days === 0) return l10n.t('expires today ({0})', date);
  return l10n.t('expires {0} (in {1} {2})', date, days, days === 1 ? 'day' : 'days');
}

/** The tooltip's breakdown of a balance. */
export function balanceBreakdown(b: BalanceLike, now: Date): string[] {
  const lines: string[] = [];
  lines.push(`**Total:** ${escapeMarkdown(creditsText(totalCredits(b)))}`);
  const parts: string[] = [];
  if (b.regularBalance !== undefined) parts.push(l10n.t('Regular {0}', formatNumber(b.regularBalance)));
  if (b.dailyBalance !== undefined) parts.push(l10n.t('Daily {0}', formatNumber(b.dailyBalance)));
  if (parts.length) lines.push(escapeMarkdown(parts.join(' · ')));
  if (b.hasDailyCredit !== undefined || b.dailyCredit) {
    const used = b.dailyCredit?.used;
    const daily = b.hasDailyCredit === false
      ? l10n.t('No daily credit')
      : used === true
        ? l10n.t('Daily credit used')
        : used === false
          ? l10n.t('Daily credit not used yet')
          : l10n.t('Daily credit available');
    const granted = b.dailyCredit?.grantedAmount !== undefined ? l10n.t(' (granted {0})', formatNumber(b.dailyCredit.grantedAmount)) : '';
    lines.push(escapeMarkdown(daily + granted));
  }
  const grants = (b.credits ?? []).filter((c) => typeof c.amount === 'number');
  if (grants.length) {
    const grantLines = [l10n.t('Credit grants:')];
    const sorted = [...grants].sort((x, y) => (x.extendedExpiresAt ?? x.expiresAt ?? '').localeCompare(y.extendedExpiresAt ?? y.expiresAt ?? ''));
    for (const c of sorted) {
      const left = (c.amount ?? 0) - (c.usedAmount ?? 0);
      const used = c.usedAmount ? l10n.t(' of {0}', formatNumber(c.amount ?? 0)) : '';
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
    const cost = typeof input.selectedModelCost === 'number' ? l10n.t(' ({0} per message)', creditsText(input.selectedModelCost)) : '';
    footer.push(escapeMarkdown(`Model: ${input.selectedModel}${cost}`));
  }
  if (input.lastUpdated) footer.push(escapeMarkdown(l10n.t('Last updated {0}', formatTime(input.lastUpdated))));
  if (input.serviceUrl) footer.push(escapeMarkdown(`Service: ${input.serviceUrl}`));
  if (input.ignoredWorkspaceUrl) {
    footer.push(
      '$(shield) ' +
        escapeMarkdown(
          l10n.t('This workspace names {0} as the service address; it is not used until you allow it (AI Chat: Review Service Address), because your API key would be sent there.', input.ignoredWorkspaceUrl),
        ),
    );
  }
  footer.push(l10n.t('Click for balance actions'));
  const tooltipOf = (head: string[]) => [l10n.t('**AI Chat credits**'), ...head, ...footer].join('\n\n');

  if (!input.hasKey) {
    return {
      text: l10n.t('$(key) Set API Key'),
      tooltip: [l10n.t('**AI Chat**'), l10n.t('No API key set. Click to set your API key.'), ...footer.slice(0, -1)].join('\n\n'),
      background: undefined,
      accessibilityLabel: l10n.t('AI Chat: no API key set. Set API Key'),
    };
  }
  if (input.error !== undefined && !input.loading) {
    return {
      text: '$(warning) Credits',
      tooltip: tooltipOf([escapeMarkdown(l10n.t('Could not get the balance: {0}', input.error))]),
      background: 'warning',
      accessibilityLabel: l10n.t('AI Chat credits unavailable: {0}', input.error),
    };
  }
  if (!input.balance) {
    return {
      text: '$(sync~spin) Credits',
      tooltip: tooltipOf([l10n.t('Loading the balance…')]),
      background: undefined,
      accessibilityLabel: l10n.t('AI Chat credits: loading'),
    };
  }
  const pending = typeof input.pendingCharge === 'number' && Number.isFinite(input.pendingCharge) && input.pendingCharge > 0 ? input.pendingCharge : 0;
  const total = Math.max(0, Math.round((totalCredits(input.balance) - pending) * 100) / 100);
  const low = isLowBalance(total, input.selectedModelCost);
  // Pays the next message, but fewer than N of them: a sign, not yet the warning colour.
  const left = messagesLeft(total, input.selectedModelCost);
  const threshold = input.lowCreditMessages ?? DEFAULT_LOW_CREDIT_MESSAGES;
  const fewLeft = !low && left !== undefined && threshold > 0 && left < threshold;
  const head = balanceBreakdown(input.balance, now);
  if (pending) {
    head[0] = `**Total:** ${escapeMarkdown(creditsText(total))}\\*`;
    head.push(
      '\\* ' +
        escapeMarkdown(l10n.t('{0} for the last reply taken off; the service has not confirmed the new balance yet.', creditsText(pending))),
    );
  }
  if (low) head.unshift('$(warning) ' + escapeMarkdown(l10n.t('Low balance: not enough for the next message of the selected model.')));
  if (fewLeft) head.unshift('$(warning) ' + escapeMarkdown(l10n.t('Low balance: {0} more messages of the selected model (the warning starts below {1}).', String(left), String(threshold))));
  if (input.loading) head.push(l10n.t('Refreshing…'));
  const suffix =
    (low ? l10n.t(' (low)') : fewLeft ? l10n.t(' (low: {0} messages left)', String(left)) : '') +
    (pending ? l10n.t(' (last reply\'s charge not yet confirmed)') : '');
  return {
    text: `${low || fewLeft ? '$(warning)' : '$(credit-card)'} ${creditsText(total)}${pending ? '*' : ''}`,
    tooltip: tooltipOf(head),
    background: low ? 'warning' : undefined,
    accessibilityLabel: l10n.t('AI Chat credits: {0}{1}', formatNumber(total), suffix),
  };
}
