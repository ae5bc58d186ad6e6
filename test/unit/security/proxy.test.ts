// Proxy resolution from every source, and the client really going through the proxy.
import { strict as assert } from 'node:assert';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ChatServiceClient } from '../../../src/client';
import { startConnectProxy, type ConnectProxy } from '../connectProxy';
import { ProxyConfigError, matchesNoProxy, normalizeProxyUrl, resolveProxy } from '../../../src/core/account/proxy';

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
