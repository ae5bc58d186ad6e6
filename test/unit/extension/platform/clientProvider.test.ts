import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConnectionError } from '../../../../src/client';
import type * as Client from '../../../../src/client';
import { errorToView } from '../../../../src/core/chat/errors';
import { ChatSession, ConversationStore, directTurns } from '../../../../src/core';
import { ClientProvider } from '../../../../src/extension/platform/clientProvider';
import { ClientLoadError, ModuleLoader } from '../../../../src/extension/platform/clientModule';
import type { ConfigChange, ConfigService } from '../../../../src/extension/platform/config';
import type { ServiceAddress } from '../../../../src/extension/platform/serviceAddress';
import { readSettings } from '../../../../src/extension/platform/settings';
import { MemoryConversationStorage } from '../../../support/memoryStorage';

// A settings change (request timeout, proxy, address) builds a new client; the old one must let a
// reply that is streaming finish, and be closed once nothing runs on it any more.

const silent = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };

/** A stream of `parts` text events, one every `everyMs`, then e and d. */
async function slowService(parts: number, everyMs: number): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    if (req.url?.endsWith('/ai-model')) {
      res.setHeader('content-type', 'application/json');
      res.end('[{"valueId":"m","name":"M","type":"text","costInCreditPerUse":1,"isActive":true}]');
      return;
    }
    res.setHeader('content-type', 'application/x-ndjson');
    res.write('{"event":"f","messageId":"m"}\n');
    let n = 0;
    const t = setInterval(() => {
      res.write(JSON.stringify({ event: '0', data: `part ${++n} ` }) + '\n');
      if (n === parts) {
        clearInterval(t);
        res.end('{"event":"e","finishReason":"stop"}\n{"event":"d","finishReason":"stop"}\n');
      }
    }, everyMs);
    res.on('close', () => clearInterval(t));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

function fakeConfig(baseUrl: string) {
  const settings = { ...readSettings(() => undefined), baseUrl, model: 'm' };
  const listeners: Array<(e: ConfigChange) => void> = [];
  const config = {
    get settings() {
      return settings;
    },
    onDidChange: (l: (e: ConfigChange) => void) => {
      listeners.push(l);
      return { dispose: () => listeners.splice(listeners.indexOf(l), 1) };
    },
    proxyInputs: () => ({ env: {}, noProxy: [], strictSSL: true }),
  };
  const change = (patch: Partial<typeof settings>) => {
    Object.assign(settings, patch);
    for (const l of [...listeners]) l({ affects: () => true });
  };
  return { settings, config: config as unknown as ConfigService, change };
}

async function isClosed(c: { models(): Promise<unknown> }): Promise<boolean> {
  try {
    await c.models();
    return false;
  } catch (e) {
    return e instanceof ConnectionError && /closed/.test(e.message);
  }
}

describe('a client replaced because a setting changed', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

  it('lets the streaming reply finish (not Stopped), then is closed once it is idle', async function () {
    this.timeout(8000);
    const svc = await slowService(20, 50);
    server = svc.server;
    const { settings, config, change } = fakeConfig(svc.url);
    const address = { keyFor: async () => 'sk-test-123456' } as unknown as ServiceAddress;
    // The old client may be closed 300 ms after the change at the earliest (60 s in the extension).
    const clients = new ClientProvider(config, address, silent, 'test', { retireAfterMs: 300 });
    try {
      const first = clients.get();
      const session = new ChatSession({
        store: new ConversationStore(new MemoryConversationStorage()),
        turns: directTurns(() => clients.get()),
        settings: () => settings,
        modelCost: () => 1,
        onEvent: () => {},
        flushIntervalMs: 0,
      });
      const sending = session.send('a long answer please');
      await new Promise((r) => setTimeout(r, 200));
      change({ requestTimeoutSeconds: 60 }); // the user changes aiChat.requestTimeoutSeconds mid-reply
      assert.notEqual(clients.get(), first, 'new requests get a new client');
      await sending;
      const reply = session.conversation.messages[1];
      assert.equal(reply.status, 'complete', `the reply ended ${reply.status}: ${JSON.stringify(reply.content.slice(-20))}`);
      assert.equal(reply.content, Array.from({ length: 20 }, (_, i) => `part ${i + 1} `).join(''));
      // Idle now: the old client is closed soon after (not 60 s later), the new one is not.
      const until = Date.now() + 2000;
      while (!(await isClosed(first)) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      assert.ok(await isClosed(first), 'the old client was closed once its reply had ended');
    } finally {
      clients.dispose();
    }
  });

  it('at shutdown, a replaced client still in use is closed at once (nothing outlives the extension)', async function () {
    const svc = await slowService(200, 50);
    server = svc.server;
    const { settings, config, change } = fakeConfig(svc.url);
    const address = { keyFor: async () => 'sk-test-123456' } as unknown as ServiceAddress;
    const clients = new ClientProvider(config, address, silent, 'test', { retireAfterMs: 10 });
    const first = clients.get();
    const session = new ChatSession({
      store: new ConversationStore(new MemoryConversationStorage()),
      turns: directTurns(() => clients.get()),
      settings: () => settings,
      modelCost: () => 1,
      onEvent: () => {},
      flushIntervalMs: 0,
    });
    const sending = session.send('a very long answer');
    await new Promise((r) => setTimeout(r, 150));
    change({ baseUrl: svc.url + '/v2' });
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(await isClosed(first), false, 'still in use: kept past retireAfterMs');
    clients.dispose();
    await sending;
    assert.equal(session.conversation.messages[1].status, 'stopped');
    assert.ok(await isClosed(first));
  });
});

/** Loads a file as the extension loads dist/client.js (a CommonJS require). */
const requireFile = (file: string): never => createRequire(__filename)(file) as never;

describe('a client bundle that cannot be loaded (dist/client.js missing or cut short)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'aichat-client-'));
  const cutShort = path.join(dir, 'client.js');
  writeFileSync(cutShort, 'module.exports = { ChatServiceClient: class { constructor(');
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const [how, load] of [
    ['missing', () => requireFile(path.join(dir, 'missing', 'client.js'))],
    ['cut short', () => requireFile(cutShort)],
  ] as const) {
    it(`${how}: loaded once, the error logged once; every request fails with a plain sentence (damaged: reload or reinstall), no require stack`, () => {
      let loads = 0;
      const errors: Array<{ msg: string; data?: Record<string, unknown> }> = [];
      const logger = { ...silent, error: (msg: string, data?: Record<string, unknown>) => void errors.push({ msg, data }) };
      const { config } = fakeConfig('https://chat.muffinscorp.com/api/public');
      const address = { keyFor: async () => 'sk-test-123456' } as unknown as ServiceAddress;
      const loader = new ModuleLoader<typeof Client>(() => {
        loads++;
        return load();
      });
      const clients = new ClientProvider(config, address, logger, 'test', { client: loader });
      try {
        const thrown: unknown[] = [];
        for (let i = 0; i < 3; i++) {
          try {
            clients.get();
          } catch (e) {
            thrown.push(e);
          }
        }
        assert.equal(thrown.length, 3, 'every request fails');
        assert.equal(loads, 1, 'the bundle is loaded once, not again on every request');
        assert.equal(errors.length, 1, 'the load error is logged once');
        // The log keeps the load error (a syntax error; under the unit tests' loader, a transform error).
        assert.match(JSON.stringify(errors[0].data), how === 'missing' ? /Cannot find module/ : /SyntaxError|TransformError/);
        for (const e of thrown) {
          assert.ok(e instanceof ClientLoadError);
          assert.doesNotMatch(e.message, /Require stack|Cannot find module|SyntaxError|Unexpected end/);
        }
        // What the chat shows (the session turns the error into this view).
        const view = errorToView(thrown[0], 'https://chat.muffinscorp.com/api/public');
        assert.match(view.message, /AI Chat is damaged/);
        assert.match(view.message, /[Rr]eload/);
        assert.match(view.message, /reinstall/);
        assert.doesNotMatch(view.message, /Something went wrong|Require stack|client\.js|\n/);
        assert.deepEqual(view.actions, [], 'Retry would fail the same way');
      } finally {
        clients.dispose();
      }
    });
  }

  it('a bundle that loads is loaded once and shared', () => {
    let loads = 0;
    const loader = new ModuleLoader(() => {
      loads++;
      return { ok: true };
    });
    assert.equal(loader.get(), loader.get());
    assert.equal(loads, 1);
  });
});
