// Find in chat, in what the chat does not show: another variant of a reply, a turn of another
// branch. Below the find bar, "Also in 2 messages not shown", then one button for each (at most
// MAX_LISTED), saying which it is and the words around the match; choosing one asks the host to
// show it (its branch, its variant), and the bar goes to its match once it is on the page.
import * as l10n from '@vscode/l10n';
import { button, clear, el } from './dom';
import { occurrences, type FindOptions } from './findModel';

/** A message not shown, as the host lists it (protocol/variants.ts HiddenMessage). */
export interface HiddenText {
  id: string;
  content: string;
  kind: 'variant' | 'branch';
}

export interface HiddenHits {
  readonly element: HTMLElement;
  /** Finds `query` in the messages not shown (empty: nothing is listed). */
  update(query: string, options: FindOptions): void;
  /** The message chosen, until it is on the page (then taken once). */
  takeShown(onPage: (id: string) => boolean): string | undefined;
}

/** The most messages not shown listed at once. */
export const MAX_LISTED = 5;

/** The words around the first match: "…the wombat ate…". */
function snippet(text: string, at: number, length: number): string {
  const from = Math.max(0, at - 30);
  const to = Math.min(text.length, at + length + 30);
  return `${from > 0 ? '…' : ''}${text.slice(from, to).replace(/\s+/g, ' ').trim()}${to < text.length ? '…' : ''}`;
}

export function createHiddenHits(host: { hidden(): readonly HiddenText[]; show(id: string): void }): HiddenHits {
  const element = el('div', { class: 'find-hidden', hidden: true });
  let chosen: string | undefined;
  return {
    element,
    update(query, options) {
      clear(element);
      const found = query ? host.hidden().flatMap((m) => {
        const at = occurrences(m.content, query, options, 1)[0];
        return at === undefined ? [] : [{ m, at }];
      }) : [];
      element.hidden = found.length === 0;
      if (!found.length) return;
      element.append(el('span', { class: 'find-hidden-count', text: found.length === 1 ? l10n.t('Also in 1 message not shown:') : l10n.t('Also in {0} messages not shown:', found.length) }));
      for (const { m, at } of found.slice(0, MAX_LISTED)) {
        const where = m.kind === 'variant' ? l10n.t('In another variant of a reply') : l10n.t('In another branch');
        const text = snippet(m.content, at, query.length);
        element.append(
          button(`${where}: ${text}`, () => {
            chosen = m.id;
            host.show(m.id);
          }, { class: 'link find-hidden-hit', title: l10n.t('{0}: show it', where), 'data-id': m.id }),
        );
      }
    },
    takeShown(onPage) {
      if (chosen === undefined || !onPage(chosen)) return undefined;
      const id = chosen;
      chosen = undefined;
      return id;
    },
  };
}
