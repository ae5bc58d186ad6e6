// Proxy resolution from every source, and the client really going through the proxy.
import { strict as assert } from 'node:assert';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ChatServiceClient } from '../../../src/client';
import { startConnectProxy, type ConnectProxy } from '../connectProxy';
import { PROXY_SETTINGS, ProxyConfigError, matchesNoProxy, normalizeProxyUrl, proxyInputsFrom, resolveProxy } from '../../../src/core/account/proxy';
import { ClientProvider } from '../../../src/extension/platform/clientProvider';
import type { ConfigService } from '../../../src/extension/platform/config';
import type { ServiceAddress } from '../../../src/extension/platform/serviceAddress';
import { readSettings } from '../../../src/extension/platform/settings';

const env = (o: Record<string, string>) => o;

describe('proxy resolution', () => {
  it('goes direct when nothing names a proxy', () => {
    assert.deepEqual(resolveProxy('https://chat.example/api', { env: {} }), { source: 'none', strictSSL: true });
  });

  it('uses http.proxy first, over the environment', () => {
    const r = resolveProxy('https://chat.example/api', { httpProxy: 'http://corp:3128', env: env({ HTTPS_PROXY: 'http://other:1' }) });
    assert.deepEqual(r, { proxy: 'http://corp:3128', source: 'http.proxy', strictSSL: true });
  });

  it('uses HTTPS_PROXY for https targets and HTTP_PROXY for http ones, upper or lower case', () => {
    assert.equal(resolveProxy('https://chat.example', { env: env({ HTTPS_PROXY: 'http://s:1', HTTP_PROXY: 'http://p:2' }) }).proxy, 'http://s:1');
    assert.equal(resolveProxy('http://chat.example', { env: env({ HTTPS_PROXY: 'http://s:1', HTTP_PROXY: 'http://p:2' }) }).proxy, 'http://p:2');
    assert.equal(resolveProxy('https://chat.example', { env: env({ https_proxy: 'http://lower:1' }) }).proxy, 'http://lower:1');
    const fallback = resolveProxy('https://chat.example', { env: env({ HTTP_PROXY: 'http://p:2' }) });
    assert.deepEqual([fallback.proxy, fallback.source], ['http://p:2', 'HTTP_PROXY']);
  });

  it('http.proxyStrictSSL false turns certificate checks off; default on', () => {
    assert.equal(resolveProxy('https://chat.example', { httpProxy: 'http://c:1', strictSSL: false, env: {} }).strictSSL, false);
    assert.equal(resolveProxy('https://chat.example', { strictSSL: false, env: {} }).strictSSL, false);
    assert.equal(resolveProxy('https://chat.example', { env: {} }).strictSSL, true);
  });

  it('http.noProxy bypasses http.proxy; NO_PROXY bypasses the environment proxy', () => {
    const a = resolveProxy('https://chat.example/api', { httpProxy: 'http://c:1', noProxy: ['chat.example'], env: {} });
    assert.deepEqual(a, { source: 'none', bypassed: 'http.noProxy', strictSSL: true });
    const b = resolveProxy('https://api.chat.example/api', { env: env({ HTTPS_PROXY: 'http://c:1', NO_PROXY: 'localhost, .chat.example' }) });
    assert.deepEqual(b, { source: 'none', bypassed: 'NO_PROXY', strictSSL: true });
    const c = resolveProxy('https://other.example/api', { env: env({ HTTPS_PROXY: 'http://c:1', no_proxy: 'chat.example' }) });
    assert.equal(c.proxy, 'http://c:1');
  });

  it('http.proxySupport "off": no proxy at all, neither http.proxy nor the environment; certificate checks as set', () => {
    const inputs = { httpProxy: 'http://corp:3128', env: env({ HTTPS_PROXY: 'http://s:1', HTTP_PROXY: 'http://p:2' }) };
    assert.deepEqual(resolveProxy('https://chat.example/api', { ...inputs, proxySupport: 'off' }), { source: 'none', off: 'http.proxySupport', strictSSL: true });
    assert.deepEqual(resolveProxy('http://chat.example/api', { env: inputs.env, proxySupport: 'off' }), { source: 'none', off: 'http.proxySupport', strictSSL: true });
    assert.equal(resolveProxy('https://chat.example/api', { ...inputs, proxySupport: 'off', strictSSL: false }).strictSSL, false);
    // An unusable proxy value is not an error while proxy support is off: it is not used.
    assert.equal(resolveProxy('https://chat.example/api', { httpProxy: 'ftp://x', env: {}, proxySupport: 'off' }).proxy, undefined);
  });

  for (const support of ['on', 'fallback', 'override', undefined, 'something new']) {
    it(`http.proxySupport ${JSON.stringify(support)}: the proxy is used`, () => {
      const r = resolveProxy('https://chat.example/api', { httpProxy: 'http://corp:3128', env: {}, ...(support !== undefined ? { proxySupport: support } : {}) });
      assert.deepEqual(r, { proxy: 'http://corp:3128', source: 'http.proxy', strictSSL: true });
      assert.equal(resolveProxy('https://chat.example/api', { env: env({ HTTPS_PROXY: 'http://s:1' }), ...(support !== undefined ? { proxySupport: support } : {}) }).proxy, 'http://s:1');
    });
  }

  it('VS Code\'s http settings are read with http.proxySupport, and a change of it is a proxy change', () => {
    const values: Record<string, unknown> = { proxy: 'http://corp:3128', proxyStrictSSL: false, noProxy: ['a.example', 3], proxySupport: 'off' };
    assert.deepEqual(proxyInputsFrom((k) => values[k], { HTTPS_PROXY: 'http://s:1' }), {
      httpProxy: 'http://corp:3128',
      strictSSL: false,
      noProxy: ['a.example'],
      proxySupport: 'off',
      env: { HTTPS_PROXY: 'http://s:1' },
    });
    assert.deepEqual(proxyInputsFrom(() => undefined, {}), { httpProxy: undefined, strictSSL: true, noProxy: [], proxySupport: undefined, env: {} });
    assert.ok(PROXY_SETTINGS.includes('http.proxySupport'));
  });

  it('a proxy without a scheme works (http:// assumed)', () => {
    assert.equal(resolveProxy('https://chat.example', { httpProxy: 'corp.example:3128', env: {} }).proxy, 'http://corp.example:3128');
    assert.equal(resolveProxy('https://chat.example', { env: env({ HTTPS_PROXY: 'user:pw@corp:8080' }) }).proxy, 'http://user:pw@corp:8080');
  });

  it('an unusable proxy gives a clear error naming the setting or variable', () => {
    assert.throws(() => resolveProxy('https://chat.example', { httpProxy: 'socks5://corp:1080', env: {} }), (e: unknown) => {
      assert.ok(e instanceof ProxyConfigError);
      assert.equal(e.setting, 'http.proxy');
      assert.match(e.message, /http\.proxy/);
      assert.match(e.message, /socks5/);
      return true;
    });
    assert.throws(() => normalizeProxyUrl('http://', 'HTTPS_PROXY'), /HTTPS_PROXY/);
    assert.throws(() => resolveProxy('https://chat.example', { env: env({ HTTPS_PROXY: 'ftp://x' }) }), /HTTPS_PROXY/);
  });

  it('no-proxy entries: *, domains and subdomains, ports, IPs and CIDR blocks', () => {
    assert.ok(matchesNoProxy('anything.example', 443, ['*']));
    assert.ok(matchesNoProxy('chat.example', 443, ['chat.example']));
    assert.ok(matchesNoProxy('a.chat.example', 443, ['*.chat.example']));
    assert.ok(!matchesNoProxy('notchat.example', 443, ['chat.example']));
    assert.ok(matchesNoProxy('chat.example', 8443, ['chat.example:8443']));
    assert.ok(!matchesNoProxy('chat.example', 443, ['chat.example:8443']));
    assert.ok(matchesNoProxy('10.1.2.3', 80, ['10.0.0.0/8']));
    assert.ok(!matchesNoProxy('11.1.2.3', 80, ['10.0.0.0/8']));
    assert.ok(matchesNoProxy('::1', 80, ['[::1]']));
    assert.ok(matchesNoProxy('127.0.0.1', 80, ['127.0.0.1']));
  });
});

describe('the client goes through the proxy it is given', () => {
  let service: http.Server;
  let proxy: ConnectProxy;
  const seenKeys: string[] = [];
  before(async () => {
    service = http.createServer((req, res) => {
      seenKeys.push(String(req.headers['x-api-key']));
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ success: true, timestamp: new Date().toISOString(), balance: { totalBalance: 5, regularBalance: 5, dailyBalance: 0 } }));
    });
    await new Promise<void>((r) => service.listen(0, '127.0.0.1', r));
    proxy = await startConnectProxy();
  });
  after(async () => {
    await new Promise((r) => service.close(r));
    await proxy.close();
  });

  it('a balance request (as in the key check) is tunnelled through a proxy named without a scheme', async () => {
    const servicePort = (service.address() as AddressInfo).port;
    const choice = resolveProxy(`http://127.0.0.1:${servicePort}`, { httpProxy: proxy.url.replace('http://', ''), env: {} });
    const client = new ChatServiceClient({ baseUrl: `http://127.0.0.1:${servicePort}`, apiKey: () => 'sk-proxy-test-key', proxy: choice.proxy, maxRetries: 0 });
    try {
      const res = await client.balance();
      assert.equal(res.balance.totalBalance, 5);
    } finally {
      await client.close();
    }
    assert.deepEqual(proxy.tunnels, [`127.0.0.1:${servicePort}`]);
    assert.deepEqual(seenKeys, ['sk-proxy-test-key']);
  });
});

describe('the clients of the extension follow http.proxySupport', () => {
  let service: http.Server;
  let proxy: ConnectProxy;
  before(async () => {
    service = http.createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ success: true, timestamp: new Date().toISOString(), balance: { totalBalance: 5, regularBalance: 5, dailyBalance: 0 } }));
    });
    await new Promise<void>((r) => service.listen(0, '127.0.0.1', r));
    proxy = await startConnectProxy();
  });
  after(async () => {
    await new Promise((r) => service.close(r));
    await proxy.close();
  });

  it('"off": the request goes direct although http.proxy names a proxy; turned on again, the next client goes through it', async () => {
    const baseUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
    const settings = { ...readSettings(() => undefined), baseUrl };
    const http = { proxy: proxy.url, proxySupport: 'off' as string };
    const listeners: Array<(e: { affects(): boolean }) => void> = [];
    const config = {
      get settings() {
        return settings;
      },
      onDidChange: (l: (e: { affects(): boolean }) => void) => {
        listeners.push(l);
        return { dispose() {} };
      },
      proxyInputs: () => proxyInputsFrom((k) => http[k as keyof typeof http], {}),
    } as unknown as ConfigService;
    const address = { keyFor: async () => 'sk-proxy-test-key' } as unknown as ServiceAddress;
    const silent = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };
    const clients = new ClientProvider(config, address, silent, 'test', { retireAfterMs: 0 });
    try {
      const tunnels = proxy.tunnels.length;
      assert.equal((await clients.get().balance()).balance.totalBalance, 5);
      assert.equal(proxy.tunnels.length, tunnels, 'no tunnel through the proxy');
      http.proxySupport = 'override';
      for (const l of listeners) l({ affects: () => false });
      assert.equal((await clients.get().balance()).balance.totalBalance, 5);
      assert.equal(proxy.tunnels.length, tunnels + 1, 'through the proxy once proxy support is on');
    } finally {
      clients.dispose();
    }
  });
});
