// Where the key may go: the choice of the service address, origin binding, clear text.
import { strict as assert } from 'node:assert';
import {
  chooseBaseUrl,
  cleanServiceUrl,
  isCleartext,
  isLoopbackHost,
  keyConsentText,
  keyRoute,
  originOf,
} from '../../../src/core/account/address';

const DEFAULT = 'https://chat.muffinscorp.com/api/public';
const never = () => false;

describe('service address: a workspace value is used only once the user allowed it', () => {
  it('uses the default when nobody set an address', () => {
    assert.deepEqual(chooseBaseUrl({ defaultValue: DEFAULT }, never), { url: DEFAULT, source: 'default' });
  });

  it("uses the user's own value", () => {
    const c = chooseBaseUrl({ defaultValue: DEFAULT, userValue: 'http://127.0.0.1:8787/' }, never);
    assert.deepEqual(c, { url: 'http://127.0.0.1:8787', source: 'user' });
  });

  it('ignores a workspace value that was not allowed, and reports it', () => {
    const c = chooseBaseUrl({ defaultValue: DEFAULT, userValue: 'https://mine.example/api', workspaceValue: 'https://evil.example/collect' }, never);
    assert.equal(c.url, 'https://mine.example/api');
    assert.equal(c.source, 'user');
    assert.equal(c.ignoredWorkspaceUrl, 'https://evil.example/collect');
  });

  it('ignores a workspace-folder value too, falling back to the default', () => {
    const c = chooseBaseUrl({ defaultValue: DEFAULT, workspaceFolderValue: 'https://evil.example' }, never);
    assert.equal(c.url, DEFAULT);
    assert.equal(c.ignoredWorkspaceUrl, 'https://evil.example');
  });

  it('uses the workspace value only for the exact address the user allowed', () => {
    const allowed = (u: string) => u === 'https://staging.example/api';
    assert.equal(chooseBaseUrl({ defaultValue: DEFAULT, workspaceValue: 'https://staging.example/api/' }, allowed).source, 'workspace');
    const other = chooseBaseUrl({ defaultValue: DEFAULT, workspaceValue: 'https://staging.example/other' }, allowed);
    assert.equal(other.source, 'default');
    assert.equal(other.ignoredWorkspaceUrl, 'https://staging.example/other');
  });

  it('a workspace-folder value wins over a workspace value, as in VS Code', () => {
    const c = chooseBaseUrl({ defaultValue: DEFAULT, workspaceValue: 'https://a.example', workspaceFolderValue: 'https://b.example' }, never);
    assert.equal(c.ignoredWorkspaceUrl, 'https://b.example');
  });

  it('reports nothing when the workspace repeats the user value', () => {
    const c = chooseBaseUrl({ defaultValue: DEFAULT, userValue: 'https://mine.example', workspaceValue: 'https://mine.example/' }, never);
    assert.equal(c.ignoredWorkspaceUrl, undefined);
  });

  it('ignores invalid values: other schemes, credentials in the URL, garbage', () => {
    for (const bad of ['file:///etc/passwd', 'javascript:alert(1)', 'https://user:pw@evil.example', 'not a url', '', 42]) {
      assert.equal(cleanServiceUrl(bad), undefined, String(bad));
      const c = chooseBaseUrl({ defaultValue: DEFAULT, workspaceValue: bad as string }, () => true);
      assert.equal(c.url, DEFAULT);
      assert.equal(c.ignoredWorkspaceUrl, undefined);
    }
  });
});

describe('service address: loopback and clear text', () => {
  it('knows loopback hosts: localhost and literal loopback addresses only', () => {
    for (const h of ['localhost', 'LOCALHOST', '127.0.0.1', '127.1.2.3', '::1', '[::1]']) assert.ok(isLoopbackHost(h), h);
    for (const h of ['127.0.0.1.evil.example', 'localhost.evil.example', '10.0.0.1', '128.0.0.1', 'example.com']) assert.ok(!isLoopbackHost(h), h);
  });

  it('a name under .localhost is not loopback: node resolves it through DNS, so http:// to it is clear text', () => {
    for (const h of ['api.localhost', 'x.localhost', 'A.B.LOCALHOST']) assert.ok(!isLoopbackHost(h), h);
    assert.ok(isCleartext('http://x.localhost:8787/api'));
    assert.ok(isCleartext('http://api.localhost'));
    assert.ok(!isCleartext('https://x.localhost:8787/api'));
    // The key's route asks before clear text to such a name, even to the origin it is bound to.
    const r = keyRoute('http://x.localhost:8787/api', 'http://x.localhost:8787', new Set());
    assert.equal(r.send, false);
    if (!r.send) assert.equal(r.reason, 'cleartext');
    assert.match(keyConsentText({ send: false, reason: 'cleartext', origin: 'http://x.localhost:8787' }).detail, /clear text/);
  });

  it('http:// to another machine is clear text; https and loopback are not', () => {
    assert.ok(isCleartext('http://chat.example.com/api'));
    assert.ok(isCleartext('http://10.0.0.5:8787'));
    assert.ok(!isCleartext('https://chat.example.com/api'));
    assert.ok(!isCleartext('http://127.0.0.1:8787'));
    assert.ok(!isCleartext('http://localhost:8787'));
  });
});

describe('key binding: the key goes to the origin it was checked against, elsewhere only when asked', () => {
  const none = new Set<string>();
  it('sends to the bound origin, whatever the path', () => {
    assert.deepEqual(keyRoute('https://a.example/api/public', 'https://a.example', new Set(['https://a.example'])), { send: true });
    assert.deepEqual(keyRoute('https://a.example/other', 'https://a.example', none), { send: true });
  });

  it('asks before another origin: host, scheme or port changed', () => {
    for (const url of ['https://b.example/api', 'http://a.example/api', 'https://a.example:8443/api', 'https://a.example.evil.example']) {
      const r = keyRoute(url, 'https://a.example', none);
      assert.equal(r.send, false, url);
      if (!r.send) assert.equal(r.boundOrigin, 'https://a.example');
    }
  });

  it('sends to an origin the user approved', () => {
    assert.deepEqual(keyRoute('https://b.example/api', 'https://a.example', new Set(['https://b.example'])), { send: true });
  });

  it('asks before clear text even to the bound origin, unless approved', () => {
    const r = keyRoute('http://chat.example.com/api', 'http://chat.example.com', none);
    assert.equal(r.send, false);
    if (!r.send) assert.equal(r.reason, 'cleartext');
    assert.deepEqual(keyRoute('http://chat.example.com/api', 'http://chat.example.com', new Set(['http://chat.example.com'])), { send: true });
  });

  it('a key stored before binding existed is sent on https or loopback, and bound to that origin first', () => {
    assert.deepEqual(keyRoute('https://a.example/api', undefined, none), { send: true, bindTo: 'https://a.example' });
    assert.deepEqual(keyRoute('http://127.0.0.1:9/api', undefined, none), { send: true, bindTo: 'http://127.0.0.1:9' });
    // Clear text is asked about first, bound or not.
    const r = keyRoute('http://10.0.0.5:8787/api', undefined, none);
    assert.equal(r.send, false);
    if (!r.send) assert.equal(r.reason, 'cleartext');
  });

  it('the question names the address, the bound origin and clear text', () => {
    const r = keyRoute('http://b.example/api', 'https://a.example', none);
    assert.equal(r.send, false);
    if (r.send) return;
    const t = keyConsentText(r);
    assert.equal(t.message, 'Send your AI Chat API key to http://b.example?');
    assert.match(t.detail, /checked against https:\/\/a\.example/);
    assert.match(t.detail, /clear text/);
    const ws = keyConsentText({ send: false, reason: 'new-origin', origin: 'https://evil.example' }, 'https://evil.example/collect');
    assert.equal(ws.message, 'Send your AI Chat API key to https://evil.example/collect?');
    assert.match(ws.detail, /This workspace's settings name https:\/\/evil\.example\/collect/);
    assert.doesNotMatch(ws.detail, /clear text/);
  });

  it('origins are compared after URL normalisation', () => {
    assert.equal(originOf('HTTPS://A.Example:443/x'), 'https://a.example');
    assert.deepEqual(keyRoute('HTTPS://A.EXAMPLE:443/api', 'https://a.example', none), { send: true });
  });
});
