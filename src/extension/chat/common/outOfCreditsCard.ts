// The chat's out-of-credits card: open once a message could not be paid, shown while the balance
// cannot pay the selected model, and closed by itself once it can. VS Code-free.
import { outOfCreditsCard, type ModelLike, type OutOfCreditsCard } from '../../../core';

export class OutOfCreditsCardState {
  open = false;

  /** `changed`: the card opened or closed (the settings snapshot, which carries it, goes again). */
  constructor(private readonly changed: () => void = () => undefined) {}

  /** A message the balance could not pay (refused here or by the service): the card in the chat. */
  show(): void {
    this.open = true;
    this.changed();
  }

  /** The user closed it. */
  dismiss(): void {
    this.open = false;
    this.changed();
  }

  /** The card to show now, if any (`total`: the balance when known). */
  view(total: number | undefined, model: string, models: { models: readonly ModelLike[] | undefined; costOf(id: string): number | null }): OutOfCreditsCard | undefined {
    if (!this.open || total === undefined) return undefined;
    const card = outOfCreditsCard(total, model, model ? models.costOf(model) : null, models.models ?? []);
    if (!card) this.open = false;
    return card;
  }
}
