// The context meter near the message box and the boundary line in the transcript: what the next
// request holds against the model's budget (estimated tokens), and which earlier turns are no
// longer sent, with a button that summarizes them at the selected model's price. Both are hidden
// while everything fits. Text only (textContent), nothing from the model is rendered here.
import * as l10n from '@vscode/l10n';
import { formatNumber, summarizeText } from '../../wording';
import type { ContextMeter } from '../../protocol';
import { el } from '../dom';

/** Whether the meter and the line are shown: only when something is left out or the message is too long. */
export function meterShown(meter: ContextMeter | undefined): meter is ContextMeter {
  return !!meter && (meter.omittedTurns > 0 || meter.tooLong || !!meter.summary);
}

/** "Earlier messages are not sent to the model: 42 turns". */
export function boundaryText(omittedTurns: number): string {
  return omittedTurns === 1
    ? l10n.t('Earlier messages are not sent to the model: 1 turn')
    : l10n.t('Earlier messages are not sent to the model: {0} turns', formatNumber(omittedTurns));
}

/** The meter's own text: "≈ 2,900 / 3,072 tokens". */
export function meterText(meter: ContextMeter): string {
  return l10n.t('≈ {0} / {1} tokens', formatNumber(meter.total), formatNumber(meter.budget));
}

/** The tooltip: the breakdown of the estimate, and where a fresh start is. */
export function meterTooltip(meter: ContextMeter): string {
  const source =
    meter.source === 'model'
      ? l10n.t('The budget is the model’s max_tokens less room for the reply.')
      : l10n.t('The model states no max_tokens: the budget is the aiChat.context.maxTokens setting less room for the reply.');
  return [
    l10n.t('Next request: about {0} of {1} tokens (estimated at four characters a token).', formatNumber(meter.total), formatNumber(meter.budget)),
    l10n.t('Instructions: {0}', formatNumber(meter.instructions)),
    l10n.t('Attachments: {0}', formatNumber(meter.attachments)),
    l10n.t('History: {0} ({1} earlier turns sent, {2} not sent)', formatNumber(meter.history), formatNumber(meter.sentTurns), formatNumber(meter.omittedTurns)),
    meter.summary ? l10n.t('Summary: {0} (in place of {1} earlier turns)', formatNumber(meter.summary), formatNumber(meter.summarizedTurns ?? 0)) : '',
    l10n.t('Message: {0}', formatNumber(meter.message)),
    source,
    !meter.tooLong
      ? ''
      : meter.instructions >= meter.budget
        ? l10n.t('The instructions alone are over the budget: no message can be sent to this model. Shorten them or turn the project instructions off.')
        : l10n.t('The message alone is over the budget: it will not be sent. Shorten it or remove an attachment.'),
    l10n.t('For a fresh start, Fork a message: it starts a new conversation from there.'),
  ]
    .filter(Boolean)
    .join('\n');
}

export interface ContextMeterView {
  /** The meter, to be placed near the message box. */
  readonly element: HTMLElement;
  /** The boundary line, placed in the transcript by `place`. */
  readonly line: HTMLElement;
  update(meter: ContextMeter | undefined): void;
  /** The selected model's price (the Summarize button says it); `busy`: a summary is being written. */
  setPrice(cost: number | null | undefined): void;
  setSummarizing(busy: boolean): void;
  /**
   * Puts the line above the article of the oldest message still sent (`articleOf` finds it when it
   * is rendered), or below the last message when no earlier turn is sent.
   */
  place(messages: HTMLElement, articleOf: (id: string) => HTMLElement | undefined): void;
}

/** `onSummarize`: the boundary line's button (none: no button). */
export function createContextMeter(onSummarize?: () => void): ContextMeterView {
  const fill = el('span', { class: 'context-meter-fill' });
  const label = el('span', { class: 'context-meter-text' });
  const element = el(
    'span',
    { class: 'context-meter', role: 'meter', tabindex: 0, hidden: true, 'aria-label': l10n.t('Context of the next request (estimated tokens)'), 'aria-valuemin': 0 },
    el('span', { class: 'context-meter-bar', 'aria-hidden': 'true' }, fill),
    label,
  );
  const lineText = el('span', { class: 'context-boundary-text', role: 'separator' });
  const summarize = el('button', { type: 'button', class: 'context-summarize', hidden: true });
  if (onSummarize) summarize.addEventListener('click', () => onSummarize());
  const line = el('div', { class: 'context-boundary', hidden: true }, lineText, summarize);
  let current: ContextMeter | undefined;
  let price: number | null | undefined;
  let summarizing = false;
  const relabel = () => {
    const turns = current?.omittedTurns ?? 0;
    summarize.hidden = !onSummarize || turns === 0;
    summarize.textContent = summarizeText(turns, price);
    summarize.disabled = summarizing;
    summarize.title = l10n.t('One request at the selected model’s price. The turns stay in the conversation; the summary is sent in their place until you remove it.');
  };
  return {
    element,
    line,
    update(meter) {
      current = meter;
      if (!meterShown(meter)) {
        element.hidden = true;
        line.hidden = true;
        line.remove();
        return;
      }
      element.hidden = false;
      element.classList.toggle('over', meter.tooLong);
      label.textContent = meterText(meter);
      const tip = meterTooltip(meter);
      element.title = tip;
      element.setAttribute('aria-valuemax', String(meter.budget));
      element.setAttribute('aria-valuenow', String(Math.min(meter.total, meter.budget)));
      element.setAttribute('aria-valuetext', label.textContent);
      element.setAttribute('aria-description', tip);
      fill.style.width = `${Math.min(100, Math.round((meter.total / Math.max(1, meter.budget)) * 100))}%`;
      lineText.textContent = boundaryText(meter.omittedTurns);
      lineText.title = l10n.t('Only the turns below this line go with the next message. Summarize the turns above it, or Fork a message to start a new conversation from it.');
      relabel();
    },
    setPrice(cost) {
      price = cost;
      relabel();
    },
    setSummarizing(busy) {
      summarizing = busy;
      relabel();
    },
    place(messages, articleOf) {
      if (!meterShown(current) || current.omittedTurns === 0) {
        line.hidden = true;
        line.remove();
        return;
      }
      const anchor = current.boundaryId ? articleOf(current.boundaryId) : undefined;
      if (current.boundaryId && (!anchor || anchor.parentElement !== messages)) {
        // The oldest message sent is not rendered (older pages appear as they scroll into view).
        line.hidden = true;
        line.remove();
        return;
      }
      line.hidden = false;
      if (anchor) {
        if (anchor.previousSibling !== line) messages.insertBefore(line, anchor);
      } else if (messages.lastElementChild !== line) {
        messages.append(line);
      }
    },
  };
}
