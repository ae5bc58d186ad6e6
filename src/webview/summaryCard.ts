// The summary card: the summary of earlier turns that requests send in their place, shown below
// the last turn it replaced (above the turns still sent), with what it replaced and what it cost.
// Edit puts its text in a box (Ctrl+Enter or Save keeps it, Escape or Cancel does not); Remove is
// the undo of Summarize. While a summary is being written the card shows it as it comes, with
// Stop. The summary is model output: it is rendered through the replies' markdown pipeline
// (sanitized), and while it streams as plain text.
import * as l10n from '@vscode/l10n';
import type { SummaryView, WebviewMessage } from '../protocol';
import { creditsText, summaryTitle } from '../wording';
import { button, clear, codicon, el } from './dom';
import { renderMarkdownFragment } from './render/index';

export interface SummaryProgress {
  running: boolean;
  turns?: number;
  throughId?: string;
  text?: string;
}

export interface SummaryCard {
  readonly element: HTMLElement;
  /** The conversation's summary (undefined: none). */
  update(summary: SummaryView | undefined): void;
  /** A summary being written, or done. */
  progress(p: SummaryProgress): void;
  /**
   * Puts the card below the article of the last message it replaces when that is rendered, at the
   * top of the rendered page when that message is above it, else nowhere.
   */
  place(messages: HTMLElement, top: HTMLElement, articleOf: (id: string) => HTMLElement | undefined, isAbove: (id: string) => boolean): void;
}

/** "swift-chat · 2 credits · edited": who wrote it, what it cost (or the price shown), whether the user changed it. */
export function summaryMetaText(s: SummaryView): string {
  const parts = [s.model];
  if (s.credits !== undefined) parts.push(creditsText(s.credits));
  else if (s.cost !== null) parts.push(l10n.t('{0} (price shown)', creditsText(s.cost)));
  if (s.edited) parts.push(l10n.t('edited'));
  return parts.filter(Boolean).join(' · ');
}

export function createSummaryCard(post: (message: WebviewMessage) => void): SummaryCard {
  const title = el('h3', { class: 'summary-title', id: 'summary-card-title' });
  const meta = el('span', { class: 'summary-meta' });
  const body = el('div', { class: 'summary-body' });
  const note = el('p', { class: 'summary-note' });
  const actions = el('div', { class: 'summary-actions' });
  const element = el(
    'section',
    { class: 'summary-card', 'aria-labelledby': 'summary-card-title', hidden: true },
    el('div', { class: 'summary-head' }, codicon('note'), title, meta),
    body,
    note,
    actions,
  );
  // Links in the summary are opened by the host (never navigated in the webview).
  body.addEventListener('click', (e) => {
    const a = (e.target as Element | null)?.closest?.('a');
    if (!a) return;
    e.preventDefault();
    const href = a.getAttribute('href');
    if (href) post({ type: 'openLink', href });
  });
  let summary: SummaryView | undefined;
  let running: SummaryProgress | undefined;
  let editing = false;
  let shownText: string | undefined;

  const show = () => {
    element.hidden = !running && !summary;
    element.classList.toggle('running', !!running);
    element.setAttribute('aria-busy', String(!!running));
    if (running) {
      editing = false;
      shownText = undefined;
      title.textContent = running.turns === 1 ? l10n.t('Summarizing 1 turn…') : l10n.t('Summarizing {0} turns…', String(running.turns ?? 0));
      meta.textContent = '';
      // Plain text while it streams; rendered once it is kept.
      body.textContent = running.text ?? '';
      note.textContent = l10n.t('Nothing is kept until it is complete.');
      clear(actions);
      actions.append(button(l10n.t('Stop'), () => post({ type: 'summaryStop' }), { class: 'secondary' }));
      return;
    }
    if (!summary) {
      editing = false;
      shownText = undefined;
      return;
    }
    const s = summary;
    title.textContent = summaryTitle(s.turns);
    meta.textContent = summaryMetaText(s);
    note.textContent =
      l10n.t('Sent in place of the turns above. Remove it to send them again.') +
      (s.unread ? ' ' + (s.unread === 1 ? l10n.t('The oldest turn did not fit in its request and is not in it.') : l10n.t('The oldest {0} turns did not fit in its request and are not in it.', String(s.unread))) : '');
    clear(actions);
    if (editing) {
      const box = el('textarea', { class: 'summary-edit', 'aria-label': l10n.t('Summary text'), rows: 8 });
      box.value = s.text;
      const save = () => {
        const text = box.value.trim();
        if (!text) {
          box.setAttribute('aria-invalid', 'true');
          return;
        }
        editing = false;
        if (text !== s.text) {
          summary = { ...s, text, edited: true };
          post({ type: 'summaryEdit', text });
        }
        show();
        editButton()?.focus();
      };
      const cancel = () => {
        editing = false;
        show();
        editButton()?.focus();
      };
      box.addEventListener('keydown', (e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          e.stopPropagation();
          cancel();
        } else if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
          e.preventDefault();
          save();
        }
      });
      body.replaceChildren(box);
      shownText = undefined;
      actions.append(button(l10n.t('Save'), save, { class: 'primary' }), button(l10n.t('Cancel'), cancel, { class: 'secondary' }));
      box.focus();
      return;
    }
    if (shownText !== s.text) {
      body.replaceChildren(renderMarkdownFragment(s.text));
      shownText = s.text;
    }
    actions.append(
      button(l10n.t('Edit'), () => {
        editing = true;
        show();
      }, { class: 'secondary summary-edit-button', 'aria-label': l10n.t('Edit the summary') }),
      button(l10n.t('Remove'), () => post({ type: 'summaryRemove' }), { class: 'secondary summary-remove-button', 'aria-label': l10n.t('Remove the summary (send the turns it replaced again)') }),
    );
  };
  const editButton = () => actions.querySelector<HTMLButtonElement>('.summary-edit-button');

  return {
    element,
    update(next) {
      // An edit in progress is kept while the same summary comes again.
      if (editing && next && summary && next.throughId === summary.throughId && next.text === summary.text) {
        summary = next;
        return;
      }
      const hadFocus = element.contains(document.activeElement);
      const list = element.closest<HTMLElement>('.messages');
      summary = next;
      editing = editing && !!next;
      show();
      // Removed with the keyboard in it: the focus goes to the conversation, not to nowhere.
      if (hadFocus && !next && !running) list?.focus();
    },
    progress(p) {
      running = p.running ? p : undefined;
      show();
    },
    place(messages, top, articleOf, isAbove) {
      const anchorId = running?.throughId ?? summary?.throughId;
      if (element.hidden || !anchorId) {
        element.remove();
        return;
      }
      const article = articleOf(anchorId);
      if (article && article.parentElement === messages) {
        if (article.nextElementSibling !== element) article.after(element);
      } else if (isAbove(anchorId) && top.parentElement === messages) {
        if (top.nextElementSibling !== element) top.after(element);
      } else {
        element.remove();
      }
    },
  };
}
