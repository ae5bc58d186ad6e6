// Under a reply: Retry with… (the host offers the models with their price) and, for a reply with
// variants, the pager "‹ 2 / 3 · model · credits ›"; under a question with branches (Edit of an
// earlier question), the pager "‹ 1 / 2 ›". A pager is a labelled group ("Reply 2 of 3, model",
// "Question 1 of 2") whose buttons work from the keyboard; when the page shows another variant or
// branch, the keyboard stays on the same button of the message now shown (keepPagerFocus).
import * as l10n from '@vscode/l10n';
import type { MessageView, WebviewMessage } from '../../protocol';
import { replyMetaText } from '../../wording';
import { button, el, iconButton } from '../dom';

type Post = (message: WebviewMessage) => void;

/** "Reply 2 of 3, deep-think": what a screen reader hears of a reply with variants. */
export function variantLabel(m: Pick<MessageView, 'meta' | 'variant'>): string | undefined {
  const v = m.variant;
  if (!v) return undefined;
  return m.meta?.model ? l10n.t('Reply {0} of {1}, {2}', v.index, v.count, m.meta.model) : l10n.t('Reply {0} of {1}', v.index, v.count);
}

/** The pager of a reply with variants: previous, "2 / 3 · model · credits", next (disabled at the ends and while a reply runs). */
export function variantPager(m: MessageView, busy: boolean, post: Post): HTMLElement | undefined {
  const v = m.variant;
  if (!v) return undefined;
  const show = (step: -1 | 1) => () => post({ type: 'showVariant', messageId: m.id, step });
  const prev = iconButton('chevron-left', l10n.t('Previous reply'), show(-1), { class: 'variant-prev', 'data-pager': 'prev' });
  const next = iconButton('chevron-right', l10n.t('Next reply'), show(1), { class: 'variant-next', 'data-pager': 'next' });
  prev.disabled = busy || v.index <= 1;
  next.disabled = busy || v.index >= v.count;
  const text = [`${v.index} / ${v.count}`, m.meta ? replyMetaText({ model: m.meta.model, ...(m.meta.credits !== undefined ? { credits: m.meta.credits } : {}) }) : ''].filter(Boolean).join(' · ');
  const label = el('span', { class: 'variant-label', text, 'aria-hidden': 'true' });
  const compare = iconButton('diff', l10n.t('Compare with another variant'), () => post({ type: 'compareVariants', messageId: m.id }), { class: 'variant-compare' });
  compare.disabled = busy;
  return el('span', { class: 'variant-pager', role: 'group', 'aria-label': variantLabel(m) ?? '' }, prev, label, next, compare);
}

/** "Question 1 of 2": what a screen reader hears of a question with branches. */
export function branchLabel(m: Pick<MessageView, 'branch'>): string | undefined {
  return m.branch ? l10n.t('Question {0} of {1}', m.branch.index, m.branch.count) : undefined;
}

/** The pager of a question with branches: previous, "1 / 2", next (disabled at the ends and while a reply runs). */
export function branchPager(m: MessageView, busy: boolean, post: Post): HTMLElement | undefined {
  const b = m.branch;
  if (!b) return undefined;
  const show = (step: -1 | 1) => () => post({ type: 'showBranch', messageId: m.id, step });
  const prev = iconButton('chevron-left', l10n.t('Previous branch'), show(-1), { class: 'variant-prev', 'data-pager': 'prev' });
  const next = iconButton('chevron-right', l10n.t('Next branch'), show(1), { class: 'variant-next', 'data-pager': 'next' });
  prev.disabled = busy || b.index <= 1;
  next.disabled = busy || b.index >= b.count;
  const label = el('span', { class: 'variant-label', text: `${b.index} / ${b.count}`, 'aria-hidden': 'true' });
  return el('span', { class: 'variant-pager branch-pager', role: 'group', 'aria-label': branchLabel(m) ?? '' }, prev, label, next);
}

/** Retry with…: under every finished reply while no reply runs. */
export function retryWithButton(m: MessageView, post: Post): HTMLButtonElement {
  return button(l10n.t('Retry with…'), () => post({ type: 'retryWith', messageId: m.id }), {
    class: 'link retry-with',
    title: l10n.t('Ask a model of your choice (its price is shown) for another reply; this one stays'),
  });
}

/** The pager button that had the keyboard in `article` ('prev' or 'next'), if one had it. */
export function focusedPager(article: HTMLElement): string | undefined {
  const active = document.activeElement;
  return active instanceof HTMLElement && article.contains(active) ? active.dataset.pager : undefined;
}

/** Gives the keyboard to the same pager button of the reply now shown (the other one when it is at an end). */
export function keepPagerFocus(article: HTMLElement, which: string): void {
  const buttons = [...article.querySelectorAll<HTMLButtonElement>('.variant-pager button')];
  const same = buttons.find((b) => b.dataset.pager === which && !b.disabled);
  (same ?? buttons.find((b) => !b.disabled) ?? article).focus();
}
