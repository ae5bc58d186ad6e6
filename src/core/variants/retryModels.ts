// The models Retry with… offers: the usable models of the service's list with their price per
// message, as the model picker words them (buildModelPickItems), the current one first. VS Code-free.
import { buildModelPickItems, type ModelLike } from '../account/models';

export interface RetryModelItem {
  label: string;
  /** The price per message (and what else the model picker says of it). */
  description: string;
  valueId: string;
  current: boolean;
}

/** The usable models, the current one (`current`: the chat's model) first; none when the list is not loaded. */
export function retryModelItems(models: readonly ModelLike[] | undefined, current: string): RetryModelItem[] {
  if (!models) return [];
  const items: RetryModelItem[] = [];
  for (const i of buildModelPickItems({ models, current })) {
    if (i.kind === 'model') items.push({ label: i.label, description: i.description, valueId: i.valueId, current: i.current });
  }
  return [...items.filter((i) => i.current), ...items.filter((i) => !i.current)];
}
