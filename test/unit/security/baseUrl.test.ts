// An aiChat.baseUrl that cannot be used is an error naming the setting: never a silent fall back
// to the production address (where the key would go), and no client is made for it.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ServiceUrlError, assertServiceUrl, checkServiceUrl, chooseBaseUrl, maskUrlCredentials, serviceUrlProblem } from '../../../src/core/account/address';
import { errorToView } from '../../../src/core/chat/errors';

const DEFAULT = 'https://chat.muffinscorp.com/api/public';
const never = () => false;

describe('service address: an invalid aiChat.baseUrl is an error naming the setting, never the default address', () => {
  const cases: Array<[string, RegExp]> = [
    ['localhost:8787', /no http:\/\/ or https:\/\/ at the start \(for example http:\/\/localhost:8787\)/],
    ['chat.example.com/api', /no http:\/\/ or https:\/\/ at the start \(for example https:\/\/chat\.example\.com\/api\)/],
    ['htps://staging.example.com/api', /the scheme htps: is not supported/],
    ['ftp://files.example.com', /the scheme ftp: is not supported/],
    ['http://user:pw@proxy.local/api', /user name or password/],
    ['https://token@chat.example.com/api', /user name or password/],
    ['not a url at all', /not a URL/],
  ];
  for (const [value, why] of cases) {
    it(`"${value}" in the user settings: reported, and not replaced by the default`, () => {
      const c = chooseBaseUrl({ defaultValue: DEFAULT, userValue: value }, never);
      assert.notEqual(c.url, DEFAULT, 'the production address is not used instead');
      assert.equal(c.source, 'user');
      assert.ok(c.invalid, 'the choice reports the value as invalid');
      assert.equal(c.invalid.level, 'user');
      assert.match(c.invalid.why, why);
      // No client is made for it: the error names the setting and says nothing was sent.
      assert.throws(
        () => assertServiceUrl(c.url),
        (err: unknown) => {
          assert.ok(err instanceof ServiceUrlError);
          assert.equal(err.kind, 'validation');
          assert.equal(err.setting, 'aiChat.baseUrl');
          assert.match(err.message, /aiChat\.baseUrl/);
          assert.match(err.message, /Nothing was sent/);
          assert.doesNotMatch(err.message, /pw@|token@/, 'the credentials are not repeated');
          return true;
        },
      );
    });
  }

  it('a workspace value never wins over an invalid user value (nothing is used until the user fixes theirs)', () => {
    const c = chooseBaseUrl({ defaultValue: DEFAULT, userValue: 'localhost:8787', workspaceValue: 'https://staging.example/api' }, () => true);
    assert.equal(c.url, 'localhost:8787');
    assert.equal(c.invalid?.level, 'user');
    assert.throws(() => assertServiceUrl(c.url), ServiceUrlError);
  });

  it('Set API Key is told before the key is typed: the problem names the setting and masks credentials; none for a usable address', () => {
    const problem = serviceUrlProblem('https://token@chat.example.com/api');
    assert.ok(problem, 'an address with credentials is a problem');
    assert.match(problem, /aiChat\.baseUrl/);
    assert.doesNotMatch(problem, /token@/);
    assert.match(serviceUrlProblem('localhost:8787') ?? '', /no http:\/\/ or https:\/\//);
    assert.equal(serviceUrlProblem('http://127.0.0.1:8787'), undefined);
    assert.equal(serviceUrlProblem(DEFAULT), undefined);
  });

  it('the credentials of the value are masked wherever it is shown', () => {
    const c = chooseBaseUrl({ defaultValue: DEFAULT, userValue: 'http://user:hunter2@proxy.local/api' }, never);
    assert.equal(c.invalid?.shown, 'http://***@proxy.local/api');
    assert.equal(c.url, 'http://***@proxy.local/api', 'the address shown and logged does not carry the password');
    assert.throws(() => assertServiceUrl(c.url), ServiceUrlError);
    assert.equal(maskUrlCredentials('https://a:b@c.example/x@y'), 'https://***@c.example/x@y');
    assert.equal(maskUrlCredentials('https://c.example/x@y'), 'https://c.example/x@y');
  });

  it('an invalid workspace value is reported too, and ignored (the own address is used)', () => {
    const c = chooseBaseUrl({ defaultValue: DEFAULT, userValue: 'https://mine.example/api', workspaceValue: 'localhost:9999' }, () => true);
    assert.equal(c.url, 'https://mine.example/api');
    assert.equal(c.invalid?.level, 'workspace');
    assert.equal(c.ignoredWorkspaceUrl, undefined);
  });

  it('an empty user value means "not set": the default address, no error', () => {
    for (const v of ['', '   ', undefined]) {
      const c = chooseBaseUrl({ defaultValue: DEFAULT, userValue: v }, never);
      assert.deepEqual(c, { url: DEFAULT, source: 'default' });
    }
  });

  it('valid addresses pass unchanged (trailing slashes dropped)', () => {
    for (const [v, want] of [
      ['https://staging.example.com/api/', 'https://staging.example.com/api'],
      [' http://127.0.0.1:8787 ', 'http://127.0.0.1:8787'],
      ['http://localhost:8787/api', 'http://localhost:8787/api'],
    ]) {
      assert.deepEqual(checkServiceUrl(v), { ok: true, url: want });
      assert.equal(assertServiceUrl(v), want);
      assert.equal(chooseBaseUrl({ defaultValue: DEFAULT, userValue: v }, never).invalid, undefined);
    }
  });

  it('the chat shows the error with Open Settings (kind validation), naming the setting', () => {
    let err: unknown;
    try {
      assertServiceUrl('localhost:8787');
    } catch (e) {
      err = e;
    }
    const view = errorToView(err, 'localhost:8787');
    assert.equal(view.kind, 'validation');
    assert.deepEqual(view.actions, ['openSettings']);
    assert.match(view.message, /aiChat\.baseUrl \("localhost:8787"\) cannot be used/);
  });

  it('the Settings editor flags the same values (manifest pattern)', () => {
    const pkg = JSON.parse(readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
      contributes: { configuration: { properties: Record<string, { pattern?: string }> } };
    };
    const pattern = new RegExp(pkg.contributes.configuration.properties['aiChat.baseUrl'].pattern ?? '', 'u');
    for (const [value] of cases) assert.ok(!pattern.test(value), `the pattern accepts ${value}`);
    for (const ok of [DEFAULT, 'http://127.0.0.1:8787', 'https://a.example/x@y', 'https://a.example:8443']) assert.ok(pattern.test(ok), `the pattern refuses ${ok}`);
  });
});
