// Which model the chat uses, and which model ids may be saved. Pure: the setting's levels, the
// user's answers and the service's model list are passed in.
//
// Rules:
// - the model is the user's own value (user settings); a workspace or workspace-folder value is
//   used only once the user allowed that exact model for that workspace, and never in Restricted
//   Mode; until then it is reported as ignored (a cloned repository cannot put every message on
//   an expensive model without a word);
// - a model picked by the user wins: picking another model while the workspace's is in use
//   declines the workspace's, so the choice does not jump back;
// - a model id is saved only when the service's list has it and it can be used for chat.
import { modelUsability, type ModelLike } from './models';

/** The values of aiChat.model at each level (as VS Code's inspect() reports them). */
export interface ModelLevels {
  defaultValue?: unknown;
  userValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

export interface ModelChoice {
  /** The model requests use ('' when none is chosen yet: the user is asked on the first send). */
  model: string;
  source: 'default' | 'user' | 'workspace';
  /** The workspace's model, whether it is used or not. */
  workspaceModel?: string;
  /** The workspace's model, not used because the user has not allowed it (or Restricted Mode). */
  ignoredWorkspaceModel?: string;
}

function clean(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  const t = v.trim();
  return t ? t : undefined;
}

/**
 * The model to use. `allowed(id)` says whether the user allowed this workspace's model `id`
 * (and the workspace is trusted). A workspace-folder value wins over a workspace value, as in VS Code.
 */
export function chooseModel(levels: ModelLevels, allowed: (id: string) => boolean): ModelChoice {
  const own = clean(levels.userValue);
  const mine: ModelChoice = own !== undefined ? { model: own, source: 'user' } : { model: clean(levels.defaultValue) ?? '', source: 'default' };
  const ws = clean(levels.workspaceFolderValue) ?? clean(levels.workspaceValue);
  if (ws === undefined) return mine;
  if (ws === mine.model) return { ...mine, workspaceModel: ws };
  if (allowed(ws)) return { model: ws, source: 'workspace', workspaceModel: ws };
  return { ...mine, workspaceModel: ws, ignoredWorkspaceModel: ws };
}

/**
 * What picking `picked` does to the choice: `allow` the workspace's own model for this workspace
 * (picked while it is named by the trusted workspace), or `save` it to the user settings, first
 * declining the workspace's model when that one is in use (so the user's pick wins).
 */
export function modelPickEffect(
  choice: ModelChoice,
  picked: string,
  trusted: boolean,
): { allowWorkspaceModel?: string; declineWorkspaceModel?: string; saveUserModel?: string } {
  const ws = choice.workspaceModel;
  if (ws !== undefined && picked === ws && trusted) return { allowWorkspaceModel: ws };
  return {
    ...(ws !== undefined && choice.source === 'workspace' ? { declineWorkspaceModel: ws } : {}),
    saveUserModel: picked,
  };
}

export type ModelSelectionCheck =
  | { ok: true; model: ModelLike }
  | { ok: false; reason: 'not-loaded' | 'unknown' | 'unusable'; detail?: string };

/**
 * Whether `valueId` (from the panel, a pick, a command) may be saved as the chat model: only a
 * model of the service's list that can be used for chat. Without a list nothing is saved.
 */
export function checkModelSelection(list: readonly ModelLike[] | undefined, valueId: unknown): ModelSelectionCheck {
  if (!list) return { ok: false, reason: 'not-loaded' };
  const model = typeof valueId === 'string' ? list.find((m) => m.valueId === valueId) : undefined;
  if (!model) return { ok: false, reason: 'unknown' };
  const usable = modelUsability(model);
  if (!usable.usable) return { ok: false, reason: 'unusable', detail: usable.reason };
  return { ok: true, model };
}
