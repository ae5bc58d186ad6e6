// What a screen reader is told about the conversation: each message is one labelled article
// ("You", "Assistant, swift-chat, 2 credits", "Assistant, Reply 2 of 3, deep-think").
import * as l10n from '@vscode/l10n';
import type { MessageView } from '../protocol';
import { branchLabel, variantLabel } from './variants/variantPager';

/** The accessible name of a message's article. */
export function messageLabel(m: Pick<MessageView, 'role' | 'meta' | 'variant' | 'branch'>): string {
  // A question with branches: "You, Question 1 of 2".
  const branch = branchLabel(m);
  if (m.role === 'user') return branch ? l10n.t('You, {0}', branch) : l10n.t('You');
  // A reply with variants: "Assistant, Reply 2 of 3, deep-think".
  const variant = variantLabel(m);
  if (variant) return l10n.t('Assistant, {0}', variant);
  const model = m.meta?.model;
  const credits = m.meta?.credits;
  if (!model) return l10n.t('Assistant');
  if (credits === undefined) return l10n.t('Assistant, {0}', model);
  return credits === 1 ? l10n.t('Assistant, {0}, 1 credit', model) : l10n.t('Assistant, {0}, {1} credits', model, credits);
}
