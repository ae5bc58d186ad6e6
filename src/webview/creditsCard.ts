// The out-of-credits card above the message box: what the balance and the message cost, and the
// three ways on (Show Subscriptions, Refresh Balance, Pick a Cheaper Model). The host closes it
// once the balance pays a message again; the user can dismiss it.
import * as l10n from '@vscode/l10n';
import { creditsText } from '../wording';
import type { ChatSettings, WebviewMessage } from '../protocol';
import { button, clear, codicon, el, iconButton } from './dom';

type Card = NonNullable<ChatSettings['outOfCredits']>;

export function renderOutOfCredits(host: HTMLElement, card: Card | undefined, post: (m: WebviewMessage) => void): void {
  const wasShown = !host.hidden;
  clear(host);
  host.hidden = !card;
  if (!card) return;
  const title = el('strong', { id: 'out-of-credits-title', text: l10n.t('Out of credits') });
  const detail = l10n.t('The balance of {0} does not pay a message of {1} ({2}). Your message is still in the box.', creditsText(card.balance), card.model, creditsText(card.cost));
  const cheaper =
    card.affordable > 0
      ? button(l10n.t('Pick a Cheaper Model'), () => post({ type: 'runCommand', command: 'pickCheaperModel' }), {
          class: 'secondary',
          title: l10n.t('{0} models cost no more than your balance', String(card.affordable)),
        })
      : undefined;
  host.append(
    el('div', { class: 'credits-card-head' }, codicon('warning'), title, el('span', { class: 'spacer' }), iconButton('close', l10n.t('Dismiss'), () => post({ type: 'dismissOutOfCredits' }))),
    el('p', { text: detail }),
    el(
      'div',
      { class: 'credits-card-actions' },
      button(l10n.t('Show Subscriptions'), () => post({ type: 'runCommand', command: 'showSubscriptions' }), { class: 'primary' }),
      button(l10n.t('Refresh Balance'), () => post({ type: 'runCommand', command: 'refreshBalance' }), { class: 'secondary' }),
      ...(cheaper ? [cheaper] : [el('span', { class: 'credits-card-none', text: l10n.t('No model costs less than your balance.') })]),
    ),
  );
  // Announced once when it appears (role=alert), not again at every settings snapshot.
  host.setAttribute('role', wasShown ? 'region' : 'alert');
}
