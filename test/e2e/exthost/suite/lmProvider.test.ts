// The AI Chat models as a language model provider, used the way another extension would: through
// vscode.lm.selectChatModels and sendRequest, against the reference server. The runner sets the
// API key through the UI (Set API Key) and allows this test extension to use the models when the
// workbench asks; until then the provider lists nothing.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DEMO_KEY } from '../../../server/fixtures';

const VENDOR = 'aichat';

interface LmApi {
  selectChatModels(selector: { vendor: string }): Thenable<vscode.LanguageModelChat[]>;
}

function lm(): Partial<LmApi> & { registerLanguageModelChatProvider?: unknown } {
  return (vscode as unknown as { lm?: Partial<LmApi> & { registerLanguageModelChatProvider?: unknown } }).lm ?? {};
}

/** The reference server's control endpoints (loopback only), at the configured service address. */
async function control(path: string, body?: unknown): Promise<unknown> {
  const base = vscode.workspace.getConfiguration('aiChat').get<string>('baseUrl') ?? '';
  const res = await fetch(new URL(`/__control/${path}`, base), body === undefined ? {} : { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  return res.json();
}

async function chatRequests(): Promise<Array<{ path: string; method: string; body?: { model?: string; messages?: Array<{ role: string; content: string }> } }>> {
  const all = (await control('requests')) as Array<{ path: string; method: string; body?: { model?: string; messages?: Array<{ role: string; content: string }> } }>;
  return all.filter((r) => r.method === 'POST' && r.path === '/chat');
}

async function models(): Promise<vscode.LanguageModelChat[]> {
  const end = Date.now() + 90_000;
  for (;;) {
    // Until the key is set, the one entry listed says to set it: wait for the service's models.
    const found = (await lm().selectChatModels!({ vendor: VENDOR })).filter((m) => m.id !== 'aichat-set-api-key');
    if (found.length) return found;
    if (Date.now() > end) throw new Error('the provider listed no models within 90 s (was the key set?)');
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** "AI Chat: Show Usage", read back: its total credits and replies. */
async function usage(): Promise<{ credits: number; replies: number }> {
  const seen = new Set(vscode.workspace.textDocuments.filter((d) => d.uri.scheme === 'ai-chat-usage').map((d) => d.uri.toString()));
  await vscode.commands.executeCommand('aiChat.showUsage');
  const end = Date.now() + 15_000;
  for (;;) {
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'ai-chat-usage' && !seen.has(d.uri.toString()));
    const m = doc && /([\d,.]+) credits for (\d+) replies/.exec(doc.getText());
    if (m) return { credits: Number(m[1].replace(/,/g, '')), replies: Number(m[2]) };
    if (Date.now() > end) throw new Error('Show Usage opened no report within 15 s');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits until Show Usage reports what `done` accepts, and returns it. */
async function usageUntil(done: (u: { credits: number; replies: number }) => boolean): Promise<{ credits: number; replies: number }> {
  const end = Date.now() + 20_000;
  for (;;) {
    const u = await usage();
    if (done(u) || Date.now() > end) return u;
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function readAll(response: vscode.LanguageModelChatResponse): Promise<string> {
  let text = '';
  for await (const chunk of response.text) text += chunk;
  return text;
}

describe('The AI Chat models as a language model provider', function () {
  this.timeout(180_000);
  afterEach(async () => {
    await control('reset', {});
  });

  it('this host offers the provider API, and the models are listed with their cost per message', async () => {
    assert.equal(typeof lm().registerLanguageModelChatProvider, 'function', 'code-server 4.139 offers vscode.lm.registerLanguageModelChatProvider');
    const list = await models();
    const byId = new Map(list.map((m) => [m.id, m]));
    assert.deepEqual([...byId.keys()].sort(), ['code-pro', 'deep-think', 'swift-chat'], 'only the usable chat models');
    const swift = byId.get('swift-chat');
    assert.equal(swift?.name, 'Swift Chat');
    assert.equal(swift?.vendor, VENDOR);
    // The model's own budget: max_tokens less room for the reply (swift-chat 4096 -> 3072, deep-think
    // 32768 -> 28672); code-pro states none: the aiChat.context.maxTokens default (32768) split the same way.
    assert.deepEqual(['swift-chat', 'deep-think', 'code-pro'].map((id) => byId.get(id)?.maxInputTokens), [3072, 28672, 28672]);
    assert.equal(await swift?.countTokens('abcdefgh'), 2);
  });

  it('a request streams the reply from the service with the model asked for, through the same key', async () => {
    const swift = (await models()).find((m) => m.id === 'deep-think');
    assert.ok(swift);
    const before = (await chatRequests()).length;
    const response = await swift.sendRequest([vscode.LanguageModelChatMessage.User('Say something e2e-lm-check len:400')], {});
    const text = await readAll(response);
    assert.match(text, /e2e-lm-check/);
    const reqs = await chatRequests();
    assert.equal(reqs.length, before + 1);
    assert.equal(reqs.at(-1)?.body?.model, 'deep-think');
    assert.equal(reqs.at(-1)?.body?.messages?.at(-1)?.content, 'Say something e2e-lm-check len:400');
  });

  it('a request that holds the API key is refused and sends nothing; an earlier prompt that held it is left out', async () => {
    const swift = (await models()).find((m) => m.id === 'swift-chat');
    assert.ok(swift);
    const before = (await chatRequests()).length;
    await assert.rejects(
      async () => readAll(await swift.sendRequest([vscode.LanguageModelChatMessage.User(`Is this my key? ${DEMO_KEY}`)], {})),
      (err: Error) => /holds your AI Chat API key.*nothing was sent/.test(err.message) && !/\.ts:\d+/.test(err.message),
    );
    assert.equal((await chatRequests()).length, before, 'no request reached the service');
    // The chat hands the refused prompt back with the next request: it is not sent then either.
    // A failed request comes back with an empty answer.
    const history = [
      vscode.LanguageModelChatMessage.User(`Is this my key? ${DEMO_KEY}`),
      vscode.LanguageModelChatMessage.Assistant(''),
      vscode.LanguageModelChatMessage.User('Then say e2e-lm-after-key'),
    ];
    assert.match(await readAll(await swift.sendRequest(history, {})), /e2e-lm-after-key/);
    const sent = (await chatRequests()).slice(before);
    assert.equal(sent.length, 1);
    assert.ok(!JSON.stringify(sent[0].body).includes(DEMO_KEY), 'the key is in no message sent');
  });

  it('a long request is sent within the model budget: the newest whole turns, the prompt last', async () => {
    const swift = (await models()).find((m) => m.id === 'swift-chat');
    assert.ok(swift);
    const turns = Array.from({ length: 30 }, (_, i) => [
      vscode.LanguageModelChatMessage.User(`Earlier question e2e-lm-turn-${i}`),
      vscode.LanguageModelChatMessage.Assistant('An earlier answer. '.repeat(40)),
    ]).flat();
    const before = (await chatRequests()).length;
    await readAll(await swift.sendRequest([...turns, vscode.LanguageModelChatMessage.User('The newest question e2e-lm-budget len:50')], {}));
    const sent = (await chatRequests()).slice(before)[0]?.body?.messages ?? [];
    const tokens = sent.reduce((n, m) => n + Math.ceil(m.content.length / 4) + 12, 0);
    assert.ok(sent.length > 3 && sent.length < 61, `${sent.length} messages sent of 61`);
    assert.ok(tokens <= swift.maxInputTokens, `about ${tokens} tokens sent, budget ${swift.maxInputTokens}`);
    assert.equal(sent.at(-1)?.content, 'The newest question e2e-lm-budget len:50');
    assert.match(sent[0].content, /^Earlier question e2e-lm-turn-\d+$/, 'starts with a whole turn');
    assert.equal(sent.at(-3)?.content, 'Earlier question e2e-lm-turn-29');
  });

  it('cancelling stops the reply mid-stream, and a 402 comes back as an error that says what to do', async () => {
    const swift = (await models()).find((m) => m.id === 'swift-chat');
    assert.ok(swift);
    await control('config', { chunkDelayMs: 50 });
    const source = new vscode.CancellationTokenSource();
    const response = await swift.sendRequest([vscode.LanguageModelChatMessage.User('A long one e2e-lm-cancel len:8000')], {}, source.token);
    let text = '';
    const reading = (async () => {
      for await (const chunk of response.text) {
        text += chunk;
        if (text.length > 100) source.cancel();
      }
    })();
    await reading.catch(() => undefined);
    assert.ok(text.length > 100 && text.length < 8000, `the reply stopped early (${text.length} characters)`);

    await control('config', { chunkDelayMs: 0 });
    await control('balance', { key: DEMO_KEY, regular: 0, daily: 0 });
    await assert.rejects(
      async () => readAll(await swift.sendRequest([vscode.LanguageModelChatMessage.User('No credits e2e-lm-402')], {})),
      (err: Error) => /credit/i.test(err.message),
    );
  });

  it('each reply is in Show Usage with the model that answered and its charge; a request refused before any reply is not', async () => {
    const deep = (await models()).find((m) => m.id === 'deep-think');
    assert.ok(deep);
    const before = await usage();
    await readAll(await deep.sendRequest([vscode.LanguageModelChatMessage.User('Count me e2e-lm-usage')], {}));
    const after = await usageUntil((u) => u.replies > before.replies);
    assert.deepEqual(after, { credits: before.credits + 5, replies: before.replies + 1 }, 'one reply of deep-think, 5 credits');

    await control('balance', { key: DEMO_KEY, regular: 0, daily: 0 });
    await assert.rejects(async () => readAll(await deep.sendRequest([vscode.LanguageModelChatMessage.User('Refused e2e-lm-usage-402')], {})));
    // The refusal settles like a reply would (the balance is fetched): give it that time, then read again.
    await new Promise((r) => setTimeout(r, 1500));
    assert.deepEqual(await usage(), after, 'the refused request is not counted as a reply');
  });
});
