import { strict as assert } from 'node:assert';
import { DEMO_KEY, MODELS, SUBSCRIPTIONS } from '../../server/fixtures';
import { get, ISO_RE, postChat, useServer, userMessage, UUID_RE } from './helpers';

describe('reference server: endpoints', () => {
  const ctx = useServer();

  it('GET /user/balance returns the demo balance with credits and daily credit', async () => {
    const res = await get(ctx.s, '/user/balance');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    const body = (await res.json()) as { success: boolean; timestamp: string; balance: Record<string, unknown> };
    assert.equal(body.success, true);
    assert.match(body.timestamp, ISO_RE);
    const b = body.balance as {
      regularBalance: number; dailyBalance: number; totalBalance: number; hasDailyCredit: boolean;
      credits: Array<Record<string, unknown>>; dailyCredit: Record<string, unknown>;
    };
    assert.deepEqual([b.regularBalance, b.dailyBalance, b.totalBalance, b.hasDailyCredit], [950, 50, 1000, true]);
    assert.equal(b.credits.length, 2);
    for (const c of b.credits) {
      assert.match(String(c.id), UUID_RE);
      assert.match(String(c.userId), UUID_RE);
      assert.match(String(c.expiresAt), ISO_RE);
      assert.match(String(c.extendedExpiresAt), ISO_RE);
      assert.match(String(c.createdAt), ISO_RE);
      assert.equal(typeof c.amount, 'number');
      assert.equal(typeof c.usedAmount, 'number');
      assert.equal(typeof c.type, 'string');
    }
    const weekFromNow = Date.now() + 7 * 24 * 3600 * 1000;
    assert.ok(b.credits.some((c) => Date.parse(String(c.expiresAt)) < weekFromNow), 'one grant expires within 7 days');
    assert.equal(b.dailyCredit.grantedAmount, 50);
    assert.equal(b.dailyCredit.amount, 50);
    assert.equal(b.dailyCredit.used, false);
    assert.match(String(b.dailyCredit.grantedDate), /^\d{4}-\d{2}-\d{2}$/);
  });

  it('GET /ai-model lists the six models with string counters and optional max_tokens', async () => {
    const res = await get(ctx.s, '/ai-model');
    assert.equal(res.status, 200);
    const models = (await res.json()) as Array<Record<string, unknown>>;
    assert.deepEqual(models.map((m) => m.valueId), ['swift-chat', 'deep-think', 'code-pro', 'legacy-chat', 'pixel-art', 'turbo-v2']);
    for (const m of models) {
      const f = MODELS.find((x) => x.valueId === m.valueId)!;
      assert.match(String(m.id), UUID_RE);
      assert.equal(m.name, f.name);
      assert.equal(m.type, f.type);
      assert.equal(m.costInCreditPerUse, f.costInCreditPerUse);
      assert.equal(m.isActive, f.isActive);
      assert.match(String(m.createdAt), ISO_RE);
      assert.equal(typeof m.totalUses, 'string');
      assert.equal(typeof m.totalCreditsSpent, 'string');
      assert.equal('max_tokens' in m, f.max_tokens !== undefined);
      if (f.max_tokens !== undefined) assert.equal(m.max_tokens, f.max_tokens);
    }
    // Stable ids across calls.
    const again = (await (await get(ctx.s, '/ai-model')).json()) as Array<Record<string, unknown>>;
    assert.deepEqual(again.map((m) => m.id), models.map((m) => m.id));
  });

  it('model counters grow with use', async () => {
    const before = (await (await get(ctx.s, '/ai-model')).json()) as Array<Record<string, string>>;
    const res = await postChat(ctx.s, { ...userMessage('hello'), model: 'code-pro' });
    assert.equal(res.status, 200);
    const after = (await (await get(ctx.s, '/ai-model')).json()) as Array<Record<string, string>>;
    const b = before.find((m) => m.valueId === 'code-pro')!;
    const a = after.find((m) => m.valueId === 'code-pro')!;
    assert.equal(Number(a.totalUses), Number(b.totalUses) + 1);
    assert.equal(Number(a.totalCreditsSpent), Number(b.totalCreditsSpent) + 3);
  });

  it('GET /subscription lists three plans', async () => {
    const res = await get(ctx.s, '/subscription');
    assert.equal(res.status, 200);
    const plans = (await res.json()) as Array<{ id: string; name: string; features: string[]; price: number }>;
    assert.deepEqual(plans.map((p) => p.name), ['Free', 'Pro', 'Team']);
    assert.deepEqual(plans, SUBSCRIPTIONS);
    for (const p of plans) {
      assert.equal(typeof p.id, 'string');
      assert.equal(typeof p.price, 'number');
      assert.ok(p.features.length > 0 && p.features.every((f) => typeof f === 'string'));
    }
  });

  it('POST /chat (non-streaming) returns the reply object and charges the model cost', async () => {
    const res = await postChat(ctx.s, { messages: [{ id: 'msg_001', role: 'user', content: 'Explain SSE please' }], model: 'deep-think' });
    assert.equal(res.status, 200);
    const body = (await res.json()) as Record<string, unknown>;
    assert.match(String(body.id), UUID_RE);
    assert.equal(body.role, 'assistant');
    assert.match(String(body.createdAt), ISO_RE);
    assert.equal(body.creditsUsed, 5);
    assert.equal(body.creditsRemaining, 995);
    assert.equal(body.model, 'deep-think');
    assert.match(String(body.content), /Explain SSE please/);
  });

  it('POST /chat defaults to swift-chat', async () => {
    const body = (await (await postChat(ctx.s, userMessage('hi'))).json()) as Record<string, unknown>;
    assert.equal(body.model, 'swift-chat');
    assert.equal(body.creditsUsed, 1);
  });

  for (const [method, path] of [['POST', '/chat'], ['GET', '/user/balance'], ['GET', '/ai-model'], ['GET', '/subscription']] as const) {
    for (const key of [null, 'sk-wrong-key']) {
      it(`${method} ${path} answers 401 AUTH_FAILED with ${key === null ? 'no key' : 'an unknown key'}`, async () => {
        const res =
          method === 'POST' ? await postChat(ctx.s, userMessage('hi'), { key }) : await get(ctx.s, path, key);
        assert.equal(res.status, 401);
        const body = (await res.json()) as Record<string, unknown>;
        assert.equal(body.code, 'AUTH_FAILED');
        assert.equal(body.success, false);
        assert.equal(typeof body.error, 'string');
        assert.equal(typeof body.message, 'string');
        assert.match(String(body.traceId), UUID_RE);
      });
    }
  }

  it('unknown path answers 404 with an error body', async () => {
    const res = await get(ctx.s, '/nope');
    assert.equal(res.status, 404);
    const body = (await res.json()) as Record<string, unknown>;
    assert.equal(body.success, false);
    assert.match(String(body.error), /\/nope/);
  });

  it('wrong method answers 405 with Allow', async () => {
    const res = await fetch(ctx.s.url + '/chat', { headers: { 'x-api-key': DEMO_KEY } });
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('allow'), 'POST');
    const res2 = await fetch(ctx.s.url + '/ai-model', { method: 'POST', headers: { 'x-api-key': DEMO_KEY } });
    assert.equal(res2.status, 405);
    assert.equal(res2.headers.get('allow'), 'GET');
    assert.equal(((await res2.json()) as { success: boolean }).success, false);
  });

  it('url has no trailing slash and port matches', () => {
    assert.equal(ctx.s.url, `http://127.0.0.1:${ctx.s.port}`);
    assert.ok(ctx.s.port > 0);
  });
});
