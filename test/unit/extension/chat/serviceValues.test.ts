import { strict as assert } from 'node:assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ChatServiceClient, MAX_REPLY_CHARS, type Model } from '../../../../src/client';
import { ChatSession, ConversationStore, modelCost, replayLog, directTurns } from '../../../../src/core';
import { ChatController } from '../../../../src/extension/chat/common/controller';
import { parseHostMessage, type HostMessage } from '../../../../src/protocol';
import { MemoryConversationStorage } from '../../../support/memoryStorage';
import { makeTurns } from '../../../support/turns';

// Out-of-range values from the service (a price below 0, token counts that overflow when the steps
// are summed) taken the way a user meets them: the real client against a loopback service, the
// session, the controller, and what reaches the webview, checked with the webview's own schema.

interface Service {
  url: string;
  chats: number;
  close(): Promise<void>;
}

/** `models` and `usage` are JSON text, sent as is (`1e400` stays `1e400` on the wire). */
async function startService(models: string, usage: string): Promise<Service> {
  const svc = { url: '', chats: 0, close: async () => {} };
  const server: Server = createServer((req, res) => {
    if (req.url?.endsWith('/ai-model')) {
      res.setHeader('content-type', 'application/json');
      res.end(models);
      return;
    }
    svc.chats++;
    res.setHeader('content-type', 'text/event-stream');
    const lines = [
      '{"event":"f","messageId":"m1"}',
      '{"event":"0","data":"Hello, this reply was paid for."}',
      `{"event":"e","finishReason":"stop","usage":${usage},"isContinued":true}`,
      `{"event":"e","finishReason":"stop","usage":${usage},"isContinued":false}`,
      '{"event":"d","finishReason":"stop"}',
    ];
    res.end(lines.map((l) => `data: ${l}\n\n`).join('') + 'data: [DONE]\n\n');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  svc.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  svc.close = () => new Promise<void>((r) => server.close(() => r()));
  return svc;
}

async function setup(svc: Service) {
  const client = new ChatServiceClient({ baseUrl: svc.url, apiKey: () => 'sk-test-123456' });
  const models: Model[] = await client.models();
  const storage = new MemoryConversationStorage();
  const store = new ConversationStore(storage);
  const posted: HostMessage[] = [];
  let picks = 0;
  let controller: ChatController | undefined;
  const settings = { model: 'cheap-chat', search: false, temperature: 1, fontSize: 0, baseUrl: svc.url };
  const session = new ChatSession({
    store,
    turns: directTurns(() => client),
    settings: () => ({ ...settings, stream: true, systemPrompt: '' }),
    modelCost: (id) => modelCost(models, id),
    onEvent: (e) => controller?.onSessionEvent(e),
    flushIntervalMs: 0,
  });
  controller = new ChatController({
    session,
    settings: () => settings,
    models: () => ({ models, loading: false, error: undefined, costOf: (id) => modelCost(models, id) }),
    hasKey: () => true,
    turns: makeTurns({ key: () => 'sk-test-123456', model: () => settings.model, models: () => models, costOf: (id) => modelCost(models, id) }).turns,
    pickModel: async () => {
      picks++;
      return false;
    },
    notifyBusy: () => {},
    post: (m) => posted.push(JSON.parse(JSON.stringify(m)) as HostMessage),
  });
  return { client, models, storage, store, session, controller, posted, picks: () => picks };
}

describe('values and sizes from the service the chat cannot take: refused, cut or clamped, never a stuck panel or a lost reply', () => {
  const services: Service[] = [];
  afterEach(async () => {
    await Promise.all(services.splice(0).map((s) => s.close()));
  });

  it('two `e` usages of 1e308 tokens: the reply completes, the webview accepts turnEnded, a reload keeps the paid reply', async () => {
    const svc = await startService(
      '[{"valueId":"cheap-chat","name":"Cheap","type":"text","costInCreditPerUse":1,"isActive":true}]',
      '{"promptTokens":1e308,"completionTokens":5}',
    );
    services.push(svc);
    const t = await setup(svc);
    try {
      await t.controller.send('hi');
      await t.store.flush();
      const reply = t.session.conversation.messages[1];
      assert.equal(reply.status, 'complete');
      assert.equal(reply.content, 'Hello, this reply was paid for.');
      assert.equal(reply.meta?.promptTokens, undefined, 'a sum past a safe integer is not shown');
      assert.equal(reply.meta?.completionTokens, 10, 'the counts that are fine are summed');
      assert.equal(reply.meta?.credits, 1);
      const ended = t.posted.find((m) => m.type === 'turnEnded');
      assert.ok(ended, 'turnEnded was posted');
      const parsed = parseHostMessage(ended);
      assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
      const onDisk = replayLog(t.storage.data.get(t.session.conversation.id) ?? '', []);
      assert.deepEqual(onDisk?.conv.messages.map((m) => m.content), ['hi', 'Hello, this reply was paid for.']);
      const reopened = await new ConversationStore(t.storage).open(t.session.conversation.id);
      assert.deepEqual(reopened?.messages.map((m) => m.content), ['hi', 'Hello, this reply was paid for.']);
    } finally {
      await t.client.close();
    }
  });

  it('token counts beyond a safe integer, or not finite (1e400 parses as Infinity), are not shown', async () => {
    const svc = await startService(
      '[{"valueId":"cheap-chat","name":"Cheap","type":"text","costInCreditPerUse":1,"isActive":true}]',
      '{"promptTokens":1e400,"completionTokens":9007199254740993}',
    );
    services.push(svc);
    const t = await setup(svc);
    try {
      await t.controller.send('hi');
      const reply = t.session.conversation.messages[1];
      assert.equal(reply.status, 'complete');
      assert.deepEqual([reply.meta?.promptTokens, reply.meta?.completionTokens], [undefined, undefined]);
      const parsed = parseHostMessage(t.posted.find((m) => m.type === 'turnEnded'));
      assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
    } finally {
      await t.client.close();
    }
  });

  for (const [name, cost] of [
    ['below 0', '-1'],
    ['absurdly large', '1e308'],
    ['not finite (1e400)', '1e400'],
  ] as const) {
    it(`a model whose price is ${name} is marked unusable, and a send to it is refused with what to do: nothing is sent`, async () => {
      const svc = await startService(
        `[{"valueId":"cheap-chat","name":"Cheap","type":"text","costInCreditPerUse":${cost},"isActive":true}]`,
        '{"promptTokens":3,"completionTokens":5}',
      );
      services.push(svc);
      const t = await setup(svc);
      try {
        const m = t.models[0];
        assert.equal(m.priceUnusable, true);
        assert.ok(Number.isFinite(m.costInCreditPerUse) && m.costInCreditPerUse >= 0, `cost handed out: ${m.costInCreditPerUse}`);
        assert.equal(modelCost(t.models, 'cheap-chat'), null, 'its cost is unknown, never a number that could be charged');
        const settingsMsg = parseHostMessage(JSON.parse(JSON.stringify(t.controller.settingsMessage())));
        assert.ok(settingsMsg.ok && settingsMsg.message.type === 'settings');
        assert.deepEqual(
          settingsMsg.message.settings.models.map((x) => [x.valueId, x.usable]),
          [['cheap-chat', false]],
        );
        assert.equal(settingsMsg.message.settings.selectedModelCost, null);

        await t.controller.send('hi');
        assert.equal(svc.chats, 0, 'no request reached the service');
        assert.equal(t.session.conversation.messages.length, 0);
        assert.match(t.session.sendError?.message ?? '', /"Cheap" cannot be used: the service sent no usable price.*Pick another model/);
        const back = t.posted.find((x) => x.type === 'restoreInput');
        assert.deepEqual(back, { type: 'restoreInput', text: 'hi' }, 'the text goes back to the box');
        for (const p of t.posted) {
          const r = parseHostMessage(p);
          assert.ok(r.ok, r.ok ? '' : r.error);
        }

        // Retry of that refused send asks for another model instead of sending.
        await t.controller.retry();
        assert.equal(t.picks(), 1, 'the model picker was opened');
        assert.equal(svc.chats, 0);
      } finally {
        await t.client.close();
      }
    });
  }

  it('a streamed reply past the cap (4 M characters) ends as an error that says so; the text up to it is shown, kept on disk and charged', async () => {
    // The service streams 41 M characters (the audit's case) as fast as the socket goes.
    let closedEarly = false;
    const server: Server = createServer((req, res) => {
      if (req.url?.endsWith('/ai-model')) {
        res.setHeader('content-type', 'application/json');
        res.end('[{"valueId":"cheap-chat","name":"Cheap","type":"text","costInCreditPerUse":1,"isActive":true}]');
        return;
      }
      res.setHeader('content-type', 'application/x-ndjson');
      res.on('close', () => (closedEarly = !res.writableFinished));
      res.write('{"event":"f","messageId":"m"}\n');
      const line = JSON.stringify({ event: '0', data: 'y'.repeat(512 * 1024) }) + '\n';
      let n = 0;
      const pump = () => {
        while (n < 80) {
          n++;
          if (!res.write(line)) return void res.once('drain', pump);
        }
        res.end('{"event":"e","finishReason":"stop"}\n{"event":"d","finishReason":"stop"}\n');
      };
      pump();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    services.push({ url, chats: 0, close: () => new Promise<void>((r) => server.close(() => r())) });
    const t = await setup({ url, chats: 0, close: async () => {} });
    try {
      await t.controller.send('go');
      await t.store.flush();
      const [user, reply] = t.session.conversation.messages;
      assert.equal(user.content, 'go');
      assert.equal(reply.status, 'error');
      assert.equal(reply.content.length, MAX_REPLY_CHARS, 'the text up to the cap is kept');
      assert.equal(reply.error?.kind, 'too-large');
      assert.match(reply.error?.message ?? '', /longer than 4,000,000 characters.*The text so far is kept.*costs credits again/);
      assert.equal(reply.meta?.credits, 1, 'the reply was paid for');
      for (let i = 0; i < 200 && !closedEarly; i++) await new Promise((r) => setTimeout(r, 10));
      assert.ok(closedEarly, 'the connection was closed before the service had sent the rest');
      // What the panel was told: the text in chunks it accepts, then the error.
      let shown = 0;
      for (const m of t.posted) {
        const r = parseHostMessage(m);
        assert.ok(r.ok, r.ok ? '' : r.error);
        if (m.type === 'streamChunk') shown += m.text.length;
      }
      assert.equal(shown, MAX_REPLY_CHARS);
      const ended = t.posted.find((m) => m.type === 'turnEnded');
      assert.ok(ended?.type === 'turnEnded' && ended.message.error?.kind === 'too-large');
      const reopened = await new ConversationStore(t.storage).open(t.session.conversation.id);
      assert.deepEqual(reopened?.messages.map((m) => [m.status, m.content.length]), [['complete', 2], ['error', MAX_REPLY_CHARS]]);
    } finally {
      await t.client.close();
    }
  });
});
