// Which models can be used for chat, and the items of the model quick pick.
import { creditsText, formatNumber } from './cost';
import * as l10n from '@vscode/l10n';

/** The fields of a Model (GET /ai-model) that the extension uses. */
export interface ModelLike {
  valueId: string;
  name: string;
  type: string;
  costInCreditPerUse: number;
  isActive: boolean;
  max_tokens?: number | null;
  /** Set by the client: the service sent no usable price for it (see hasUsablePrice). */
  priceUnusable?: boolean;
}

/** The chat request's model rule. */
export const MODEL_ID_PATTERN = /^[a-z-]+$/;

export type Usability = { usable: true } | { usable: false; reason: string };

/**
 * Whether the model's price is a usable number of credits: not marked unusable by the client, and
 * finite and >= 0 (also for a model that did not come through the client).
 */
export function hasUsablePrice(m: Pick<ModelLike, 'costInCreditPerUse' | 'priceUnusable'>): boolean {
  return m.priceUnusable !== true && Number.isFinite(m.costInCreditPerUse) && m.costInCreditPerUse >= 0;
}

/**
 * Why a message may not be sent with the model `valueId`, for the user (what to do included); undefined
 * when it may. Refused: a model of the list whose price is unusable (what it costs is unknown, and a
 * charge could not be shown). A model missing from the list, or a list not loaded, is the service's
 * to judge.
 */
export function modelSendRefusal(models: readonly ModelLike[] | undefined, valueId: string): string | undefined {
  const m = models?.find((x) => x.valueId === valueId);
  if (!m || hasUsablePrice(m)) return undefined;
  return l10n.t('The model "{0}" cannot be used: the service sent no usable price for it. Pick another model (AI Chat: Select Model) and send again.', m.name || m.valueId);
}

export function modelUsability(m: ModelLike): Usability {
  if (!hasUsablePrice(m)) return { usable: false, reason: l10n.t('No usable price: the service sent a price that is not a number of credits') };
  if (!m.isActive) return { usable: false, reason: l10n.t('Inactive: the service does not offer it now') };
  if (m.type !== 'text') return { usable: false, reason: (/^[aeiou]/i.test(m.type) ? l10n.t('An {0} model: chat needs a text model', m.type) : l10n.t('A {0} model: chat needs a text model', m.type)) };
  if (!MODEL_ID_PATTERN.test(m.valueId)) {
    return { usable: false, reason: l10n.t('Its id "{0}" is not accepted by the chat request (lowercase letters and "-" only)', m.valueId) };
  }
  return { usable: true };
}

export function modelDescription(m: ModelLike): string {
  const price = hasUsablePrice(m) ? l10n.t('{0} per message', creditsText(m.costInCreditPerUse)) : l10n.t('price unknown');
  const parts = [m.valueId, price, m.type];
  if (typeof m.max_tokens === 'number') parts.push(l10n.t('max {0} tokens', formatNumber(m.max_tokens)));
  return parts.join(' · ');
}

export type ModelPickItem =
  | { kind: 'model'; label: string; description: string; detail?: string; valueId: string; current: boolean }
  | { kind: 'unavailable'; label: string; description: string; detail: string; valueId: string; current: boolean }
  | { kind: 'separator'; label: string }
  | { kind: 'info'; label: string; detail?: string }
  | { kind: 'retry'; label: string };

export interface ModelPickInput {
  models?: readonly ModelLike[];
  current: string;
  loading?: boolean;
  error?: string;
}

/**
 * Items of the model quick pick: usable models first (the current one marked), then the
 * others under a separator, each with the reason it cannot be chosen. While loading, or after
 * an error, an explanatory item (and a retry item after an error).
 */
export function buildModelPickItems(input: ModelPickInput): ModelPickItem[] {
  const items: ModelPickItem[] = [];
  if (input.error !== undefined) {
    items.push({ kind: 'info', label: l10n.t('$(error) Could not load the models'), detail: input.error });
    items.push({ kind: 'retry', label: l10n.t('$(refresh) Try again') });
    return items;
  }
  if (!input.models) {
    items.push({ kind: 'info', label: input.loading ? l10n.t('$(sync~spin) Loading models…') : l10n.t('No models loaded') });
    return items;
  }
  const usable: ModelLike[] = [];
  const other: Array<{ m: ModelLike; reason: string }> = [];
  for (const m of input.models) {
    const u = modelUsability(m);
    if (u.usable) usable.push(m);
    else other.push({ m, reason: u.reason });
  }
  if (usable.length === 0) items.push({ kind: 'info', label: l10n.t('No model can be used for chat') });
  for (const m of usable) {
    const current = m.valueId === input.current;
    items.push({
      kind: 'model',
      label: `${current ? '$(check) ' : ''}${m.name}`,
      description: modelDescription(m),
      ...(current ? { detail: l10n.t('Current model') } : {}),
      valueId: m.valueId,
      current,
    });
  }
  if (input.current && !input.models.some((m) => m.valueId === input.current)) {
    items.push({
      kind: 'info',
      label: l10n.t('$(warning) Current setting "{0}" is not offered by the service', input.current),
      detail: l10n.t('Choose one of the models above'),
    });
  }
  if (other.length) {
    items.push({ kind: 'separator', label: l10n.t('Not available for chat') });
    for (const { m, reason } of other) {
      const current = m.valueId === input.current;
      items.push({
        kind: 'unavailable',
        label: `$(circle-slash) ${m.name}`,
        description: modelDescription(m),
        detail: reason,
        valueId: m.valueId,
        current,
      });
    }
  }
  return items;
}

/** The cost per message of the model `valueId`; null when unknown (not listed, or no usable price). */
export function modelCost(models: readonly ModelLike[] | undefined, valueId: string): number | null {
  const m = models?.find((x) => x.valueId === valueId);
  return m && hasUsablePrice(m) ? m.costInCreditPerUse : null;
}
