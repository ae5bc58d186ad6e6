import { strict as assert } from 'node:assert';
import { buildModelPickItems, hasUsablePrice, modelCost, modelDescription, modelSendRefusal, modelUsability, type ModelLike } from '../../../../src/core';
import { toModelSummaries } from '../../../../src/extension/chat/common/presenter';

const models: ModelLike[] = [
  { valueId: 'swift-chat', name: 'Swift Chat', type: 'text', costInCreditPerUse: 1, isActive: true, max_tokens: 4096 },
  { valueId: 'deep-think', name: 'Deep Think', type: 'text', costInCreditPerUse: 5, isActive: true, max_tokens: 32768 },
  { valueId: 'legacy-chat', name: 'Legacy Chat', type: 'text', costInCreditPerUse: 1, isActive: false, max_tokens: 4096 },
  { valueId: 'code-pro', name: 'Code Pro', type: 'text', costInCreditPerUse: 3, isActive: true },
  { valueId: 'pixel-art', name: 'Pixel Art', type: 'image', costInCreditPerUse: 10, isActive: true },
  { valueId: 'turbo-v2', name: 'Turbo V2', type: 'text', costInCreditPerUse: 2, isActive: true, max_tokens: 8192 },
];

describe('model usability', () => {
  it('accepts active text models with a valid id', () => {
    assert.deepEqual(modelUsability(models[0]), { usable: true });
  });
  it('gives a reason for the others', () => {
    const reason = (m: ModelLike) => {
      const u = modelUsability(m);
      return u.usable ? '' : u.reason;
    };
    assert.match(reason(models[2]), /Inactive/);
    assert.match(reason(models[4]), /^An image model/);
    assert.match(reason(models[5]), /turbo-v2/);
  });
});

describe('a model whose price is unusable', () => {
  const base = { valueId: 'odd-chat', name: 'Odd Chat', type: 'text', isActive: true } as const;
  const bad: ModelLike[] = [
    { ...base, costInCreditPerUse: 0, priceUnusable: true },
    { ...base, costInCreditPerUse: -1 },
    { ...base, costInCreditPerUse: Number.NaN },
    { ...base, costInCreditPerUse: Infinity },
  ];
  it('is told apart from a usable (also free) one', () => {
    for (const m of bad) assert.equal(hasUsablePrice(m), false, String(m.costInCreditPerUse));
    assert.equal(hasUsablePrice({ ...base, costInCreditPerUse: 0 }), true, 'a free model is usable');
    assert.equal(hasUsablePrice({ ...base, costInCreditPerUse: 2.5 }), true);
  });
  it('is not usable, has no cost, and is shown with "price unknown" and a cost of 0 to the webview', () => {
    for (const m of bad) {
      const u = modelUsability(m);
      assert.ok(!u.usable && /No usable price/.test(u.reason));
      assert.equal(modelCost([m], 'odd-chat'), null);
      assert.match(modelDescription(m), /price unknown/);
      assert.deepEqual(toModelSummaries([m]).map((x) => [x.cost, x.usable]), [[0, false]]);
    }
  });
  it('refuses a send with what to do; a usable, unknown or unlisted model is left to the service', () => {
    assert.match(modelSendRefusal(bad, 'odd-chat') ?? '', /"Odd Chat" cannot be used.*Pick another model/);
    assert.equal(modelSendRefusal([{ ...base, costInCreditPerUse: 1 }], 'odd-chat'), undefined);
    assert.equal(modelSendRefusal(bad, 'other-chat'), undefined);
    assert.equal(modelSendRefusal(undefined, 'odd-chat'), undefined);
  });
});

describe('model quick pick items', () => {
  it('lists usable models first, the current one marked, the others after a separator', () => {
    const items = buildModelPickItems({ models, current: 'deep-think' });
    const kinds = items.map((i) => i.kind);
    assert.deepEqual(kinds, ['model', 'model', 'model', 'separator', 'unavailable', 'unavailable', 'unavailable']);
    const usable = items.filter((i) => i.kind === 'model');
    assert.deepEqual(usable.map((i) => ('valueId' in i ? i.valueId : '')), ['swift-chat', 'deep-think', 'code-pro']);
    const current = items.find((i) => i.kind === 'model' && i.current);
    assert.ok(current && current.label.startsWith('$(check) ') && current.label.includes('Deep Think'));
    assert.equal(items.filter((i) => (i.kind === 'model' || i.kind === 'unavailable') && i.current).length, 1);
  });
  it('shows cost, type and max tokens', () => {
    const items = buildModelPickItems({ models, current: '' });
    const swift = items.find((i) => 'valueId' in i && i.valueId === 'swift-chat');
    assert.ok(swift && 'description' in swift);
    assert.equal(swift.description, 'swift-chat · 1 credit per message · text · max 4,096 tokens');
    const code = items.find((i) => 'valueId' in i && i.valueId === 'code-pro');
    assert.ok(code && 'description' in code && !code.description.includes('max'));
  });
  it('gives each unavailable model its reason', () => {
    const items = buildModelPickItems({ models, current: '' });
    const pixel = items.find((i) => i.kind === 'unavailable' && i.valueId === 'pixel-art');
    assert.ok(pixel && pixel.kind === 'unavailable' && /text model/.test(pixel.detail));
  });
  it('shows loading and errors in the pick', () => {
    assert.deepEqual(buildModelPickItems({ current: '', loading: true }).map((i) => i.kind), ['info']);
    const err = buildModelPickItems({ current: '', error: 'AUTH_FAILED' });
    assert.deepEqual(err.map((i) => i.kind), ['info', 'retry']);
    assert.ok(err[0].kind === 'info' && err[0].detail === 'AUTH_FAILED');
  });
  it('says when the configured model is not offered', () => {
    const items = buildModelPickItems({ models, current: 'gone-model' });
    assert.ok(items.some((i) => i.kind === 'info' && i.label.includes('gone-model')));
  });
});

describe('model summaries and cost', () => {
  it('summarises models for the panel', () => {
    const s = toModelSummaries(models);
    assert.equal(s.length, 6);
    assert.deepEqual(s[0], { valueId: 'swift-chat', name: 'Swift Chat', cost: 1, usable: true });
    assert.equal(s[5].usable, false);
    assert.ok(s[5].reason);
  });
  it('finds a model cost', () => {
    assert.equal(modelCost(models, 'deep-think'), 5);
    assert.equal(modelCost(models, 'nope'), null);
    assert.equal(modelCost(undefined, 'swift-chat'), null);
  });
});
