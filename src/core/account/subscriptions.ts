// Subscription plans (GET /subscription) as readable items.
import { formatNumber } from './cost';
import * as l10n from '@vscode/l10n';

export interface SubscriptionLike {
  id?: string;
  name: string;
  features?: readonly string[];
  price: number;
}

export interface SubscriptionItem {
  label: string;
  description: string;
  detail: string;
}

/** The interface gives no currency or period: the price is shown as a plain number. */
export function priceText(price: number): string {
  return price === 0 ? l10n.t('Free') : l10n.t('Price {0}', formatNumber(price));
}

export function subscriptionItems(subs: readonly SubscriptionLike[]): SubscriptionItem[] {
  return [...subs]
    .sort((a, b) => a.price - b.price)
    .map((s) => ({
      label: s.name,
      description: priceText(s.price),
      detail: s.features?.length ? s.features.join(' · ') : l10n.t('No features listed'),
    }));
}
