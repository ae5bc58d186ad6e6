// Retry with…: the quick pick of the models a reply can be asked of again, each with its price per
// message (the model picker's wording), the current one first. The pick does not change the chat's
// model: only this variant is asked of the model picked.
import * as vscode from 'vscode';
import { retryModelItems, type ModelLike } from '../../core';

export interface RetryModels {
  readonly models: ModelLike[] | undefined;
  load(): Promise<ModelLike[] | undefined>;
}

/** The model picked for a new variant, or undefined (cancelled, or no model to offer). `current`: the reply's model, else the chat's. */
export async function pickRetryModel(models: RetryModels, current: string): Promise<string | undefined> {
  const list = models.models ?? (await models.load());
  const items = retryModelItems(list, current).map((i) => ({
    label: i.label,
    description: i.description,
    ...(i.current ? { detail: vscode.l10n.t('The model of this reply') } : {}),
    valueId: i.valueId,
  }));
  if (items.length === 0) {
    void vscode.window.showWarningMessage(vscode.l10n.t('AI Chat: no model to retry with. The model list could not be loaded, or no model can be used for chat.'));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('AI Chat: Retry with…'),
    placeHolder: vscode.l10n.t('Ask another model for a new variant of this reply (price per message shown); the reply stays'),
    matchOnDescription: true,
  });
  return picked?.valueId;
}
