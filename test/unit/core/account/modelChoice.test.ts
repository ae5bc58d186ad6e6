// The model a workspace names is used only once the user allowed it (never in Restricted Mode),
// the user's pick wins and does not jump back, and only a model of the service's list is saved.
import { strict as assert } from 'node:assert';
import { checkModelSelection, chooseModel, modelPickEffect, type ModelLevels } from '../../../../src/core/account/modelChoice';
import type { ModelLike } from '../../../../src/core/account/models';

const never = () => false;

/**
 * The setting as ConfigService keeps it: levels, the answers for this workspace, trust. `pick`
 * applies the effect of a pick as ConfigService.pickModel does.
 */
function workspace(levels: ModelLevels, trusted = true) {
  const answers = new Map<string, 'allowed' | 'declined'>();
  const user = { value: levels.userValue };
  const choice = () => chooseModel({ ...levels, userValue: user.value }, (id) => trusted && answers.get(id) === 'allowed');
  return {
    choice,
    answers,
    user,
    pick(id: string) {
      const e = modelPickEffect(choice(), id, trusted);
      if (e.allowWorkspaceModel) answers.set(e.allowWorkspaceModel, 'allowed');
      if (e.declineWorkspaceModel) answers.set(e.declineWorkspaceModel, 'declined');
      if (e.saveUserModel !== undefined) user.value = e.saveUserModel;
    },
  };
}

describe('model choice: a workspace value is used only once the user allowed it', () => {
  it("a cloned repository's model is ignored, and reported; the user's own model is used", () => {
    const c = chooseModel({ defaultValue: '', userValue: 'swift-chat', workspaceValue: 'deep-think' }, never);
    assert.deepEqual(c, { model: 'swift-chat', source: 'user', workspaceModel: 'deep-think', ignoredWorkspaceModel: 'deep-think' });
  });

  it('with no model of the user yet: none is used (the user is asked on the first send), the workspace model is reported', () => {
    const c = chooseModel({ defaultValue: '', workspaceFolderValue: 'deep-think' }, never);
    assert.equal(c.model, '');
    assert.equal(c.source, 'default');
    assert.equal(c.ignoredWorkspaceModel, 'deep-think');
  });

  it('Restricted Mode: never used, even when allowed before', () => {
    const w = workspace({ userValue: 'swift-chat', workspaceValue: 'deep-think' }, false);
    w.answers.set('deep-think', 'allowed');
    assert.equal(w.choice().model, 'swift-chat');
    assert.equal(w.choice().ignoredWorkspaceModel, 'deep-think');
  });

  it('allowed for this workspace: used, and said to come from the workspace', () => {
    const c = chooseModel({ userValue: 'swift-chat', workspaceValue: 'deep-think' }, (id) => id === 'deep-think');
    assert.deepEqual(c, { model: 'deep-think', source: 'workspace', workspaceModel: 'deep-think' });
  });

  it('allowing one model does not allow another one the workspace names later', () => {
    const c = chooseModel({ userValue: 'swift-chat', workspaceValue: 'code-pro' }, (id) => id === 'deep-think');
    assert.equal(c.model, 'swift-chat');
    assert.equal(c.ignoredWorkspaceModel, 'code-pro');
  });

  it('a workspace-folder value wins over a workspace value, as in VS Code; blank values are not values', () => {
    assert.equal(chooseModel({ userValue: 'swift-chat', workspaceValue: 'code-pro', workspaceFolderValue: 'deep-think' }, never).ignoredWorkspaceModel, 'deep-think');
    assert.deepEqual(chooseModel({ userValue: ' swift-chat ', workspaceValue: '  ' }, never), { model: 'swift-chat', source: 'user' });
    assert.deepEqual(chooseModel({ userValue: 'swift-chat', workspaceValue: 42 }, never), { model: 'swift-chat', source: 'user' });
  });

  it('nothing to report when the workspace repeats the user value', () => {
    const c = chooseModel({ userValue: 'swift-chat', workspaceValue: 'swift-chat' }, never);
    assert.equal(c.model, 'swift-chat');
    assert.equal(c.ignoredWorkspaceModel, undefined);
  });
});

describe("model choice: the user's pick wins and does not jump back", () => {
  it('picking another model while the allowed workspace model is in use: the pick is used from then on', () => {
    const w = workspace({ userValue: 'swift-chat', workspaceValue: 'deep-think' });
    w.answers.set('deep-think', 'allowed');
    assert.equal(w.choice().model, 'deep-think');
    w.pick('code-pro');
    assert.equal(w.user.value, 'code-pro', 'saved to the user settings');
    assert.equal(w.answers.get('deep-think'), 'declined', 'the workspace model is declined');
    assert.equal(w.choice().model, 'code-pro', 'the pick is in use (before: the workspace value won and the pick jumped back)');
    assert.equal(w.choice().source, 'user');
  });

  it("picking the workspace's own model in a trusted workspace allows it there, without touching the user settings", () => {
    const w = workspace({ userValue: 'swift-chat', workspaceValue: 'deep-think' });
    w.pick('deep-think');
    assert.equal(w.user.value, 'swift-chat');
    assert.equal(w.answers.get('deep-think'), 'allowed');
    assert.deepEqual(w.choice(), { model: 'deep-think', source: 'workspace', workspaceModel: 'deep-think' });
    w.pick('swift-chat');
    assert.equal(w.choice().model, 'swift-chat');
  });

  it('in Restricted Mode a pick is saved to the user settings (nothing is allowed for the workspace)', () => {
    const w = workspace({ userValue: 'swift-chat', workspaceValue: 'deep-think' }, false);
    w.pick('code-pro');
    assert.equal(w.user.value, 'code-pro');
    assert.equal(w.answers.size, 0);
    assert.equal(w.choice().model, 'code-pro');
  });

  it('without a workspace model, a pick is simply saved', () => {
    assert.deepEqual(modelPickEffect(chooseModel({ userValue: 'swift-chat' }, never), 'code-pro', true), { saveUserModel: 'code-pro' });
  });
});

describe('model selection: only ids of the service list are saved', () => {
  const list: ModelLike[] = [
    { valueId: 'swift-chat', name: 'Swift Chat', type: 'text', costInCreditPerUse: 1, isActive: true },
    { valueId: 'legacy-chat', name: 'Legacy Chat', type: 'text', costInCreditPerUse: 1, isActive: false },
    { valueId: 'pixel-art', name: 'Pixel Art', type: 'image', costInCreditPerUse: 2, isActive: true },
    { valueId: 'turbo_v2', name: 'Turbo V2', type: 'text', costInCreditPerUse: 1, isActive: true },
  ];

  it('a model of the list that chat can use is accepted', () => {
    const c = checkModelSelection(list, 'swift-chat');
    assert.equal(c.ok, true);
    if (c.ok) assert.equal(c.model.name, 'Swift Chat');
  });

  it('an id the webview made up is refused: unknown, even when it matches the id pattern', () => {
    for (const id of ['most-expensive-model', 'gpt-five', '', 'SWIFT-CHAT', ' swift-chat', 'swift-chat\n', '__proto__', 'constructor']) {
      assert.deepEqual(checkModelSelection(list, id), { ok: false, reason: 'unknown' }, JSON.stringify(id));
    }
    for (const id of [undefined, null, 42, { valueId: 'swift-chat' }]) assert.deepEqual(checkModelSelection(list, id), { ok: false, reason: 'unknown' });
  });

  it('a listed model chat cannot use is refused with its reason', () => {
    for (const id of ['legacy-chat', 'pixel-art', 'turbo_v2']) {
      const c = checkModelSelection(list, id);
      assert.equal(c.ok, false, id);
      if (!c.ok) {
        assert.equal(c.reason, 'unusable');
        assert.ok(c.detail);
      }
    }
  });

  it('without the list (not loaded, no key, error) nothing is saved', () => {
    assert.deepEqual(checkModelSelection(undefined, 'swift-chat'), { ok: false, reason: 'not-loaded' });
    assert.deepEqual(checkModelSelection([], 'swift-chat'), { ok: false, reason: 'unknown' });
  });
});
