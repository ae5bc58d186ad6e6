// A key with no stored origin binding (set under 0.1.0, or a binding secret that holds no binding)
// is bound to the first origin it is sent to, once; any other origin afterwards is asked about. A
// binding secret whose read fails is another case: keyBindingReadFail.test.ts.
// The gate is the one ServiceAddress.keyFor uses; the secrets are kept here as SecretStorage would.
import { strict as assert } from 'node:assert';
import {
  KeyGate,
  approveKeyOrigin,
  bindKey,
  parseKeyBinding,
  type KeyBinding,
  type KeyQuestion,
} from '../../../src/core/account/address';

const KEY = 'sk-live-abcdef123456';
const OWN = 'https://chat.muffinscorp.com/api/public';
const OTHER = 'https://collector.attacker.example/api';

/** SecretStorage with the key and (optionally) a binding secret; the user answers `answer`. */
function setup(binding: string | undefined, answer = false) {
  const secrets = new Map<string, string>([['aiChat.apiKey', KEY]]);
  if (binding !== undefined) secrets.set('aiChat.apiKeyOrigins', binding);
  const questions: KeyQuestion[] = [];
  const read = (): KeyBinding => parseKeyBinding(secrets.get('aiChat.apiKeyOrigins'));
  const write = (b: KeyBinding): KeyBinding => {
    secrets.set('aiChat.apiKeyOrigins', JSON.stringify(b));
    return b;
  };
  let closed = false;
  const gate = new KeyGate({
    key: async () => secrets.get('aiChat.apiKey'),
    binding: async () => read(),
    bind: async (origin) => write(bindKey(read(), origin)),
    approve: async (origin) => void write(approveKeyOrigin(read(), origin)),
    ask: async (q) => {
      questions.push(q);
      await new Promise((r) => setTimeout(r, 5));
      return answer;
    },
    closed: () => closed,
  });
  return {
    gate,
    questions,
    stored: () => JSON.parse(secrets.get('aiChat.apiKeyOrigins') ?? 'null') as unknown,
    close: () => (closed = true),
  };
}

describe('key binding: a key with no stored binding is bound to the first origin it goes to, once', () => {
  for (const [how, binding] of [
    ['a 0.1.0 key (no binding secret)', undefined],
    ['a binding secret cut short (not JSON)', '{"bound": "https://chat.muffinscorp.com", "appro'],
    ['a binding that is not an object', '"https://chat.muffinscorp.com"'],
  ] as const) {
    it(`${how}: own address -> sent; another origin -> asked, and refused when the question is declined`, async () => {
      const t = setup(binding);
      assert.deepEqual(await t.gate.keyFor(OWN), { status: 'send', key: KEY });
      assert.equal(t.questions.length, 0, 'no question for the first origin');
      assert.deepEqual(t.stored(), { bound: 'https://chat.muffinscorp.com', approved: ['https://chat.muffinscorp.com'] });

      assert.deepEqual(await t.gate.keyFor(OTHER), { status: 'refused', origin: 'https://collector.attacker.example' });
      assert.equal(t.questions.length, 1, 'the other origin was asked about');
      assert.deepEqual(t.questions[0], {
        send: false,
        reason: 'new-origin',
        origin: 'https://collector.attacker.example',
        boundOrigin: 'https://chat.muffinscorp.com',
      });
      assert.deepEqual(t.stored(), { bound: 'https://chat.muffinscorp.com', approved: ['https://chat.muffinscorp.com'] }, 'the refusal approved nothing');

      // Refused in this window: not asked again, still not sent; the own address keeps working.
      assert.deepEqual(await t.gate.keyFor(OTHER), { status: 'refused', origin: 'https://collector.attacker.example' });
      assert.equal(t.questions.length, 1);
      assert.deepEqual(await t.gate.keyFor(`${OWN}/user/balance`), { status: 'send', key: KEY });
      t.gate.forgetRefusals();
      assert.deepEqual(await t.gate.keyFor(OTHER), { status: 'refused', origin: 'https://collector.attacker.example' });
      assert.equal(t.questions.length, 2, 'asked again after Review Service Address');
    });
  }

  it('binding happens once: an origin the user agreed to is approved, and a third origin is still asked about', async () => {
    const t = setup(undefined, true);
    assert.deepEqual(await t.gate.keyFor(OWN), { status: 'send', key: KEY });
    assert.deepEqual(await t.gate.keyFor(OTHER), { status: 'send', key: KEY });
    assert.equal(t.questions.length, 1);
    assert.deepEqual(t.stored(), {
      bound: 'https://chat.muffinscorp.com',
      approved: ['https://chat.muffinscorp.com', 'https://collector.attacker.example'],
    });
    assert.deepEqual(await t.gate.keyFor(OTHER), { status: 'send', key: KEY });
    assert.equal(t.questions.length, 1, 'an approved origin is not asked about again');
    await t.gate.keyFor('https://third.example/api');
    assert.equal(t.questions.length, 2, 'a third origin is asked about');
  });

  it('origins approved silently by earlier versions (no bound origin) are dropped when the key is bound', async () => {
    const leaked = JSON.stringify({ approved: ['https://chat.muffinscorp.com', 'https://collector.attacker.example'] });
    const t = setup(leaked);
    assert.deepEqual(await t.gate.keyFor(OWN), { status: 'send', key: KEY });
    assert.deepEqual(t.stored(), { bound: 'https://chat.muffinscorp.com', approved: ['https://chat.muffinscorp.com'] });
    assert.deepEqual(await t.gate.keyFor(OTHER), { status: 'refused', origin: 'https://collector.attacker.example' });
    assert.equal(t.questions.length, 1);
  });

  it('two requests to two origins at once: the first binds the key, the other is asked about', async () => {
    const t = setup(undefined);
    const [own, other] = await Promise.all([t.gate.keyFor(OWN), t.gate.keyFor(OTHER)]);
    assert.deepEqual(own, { status: 'send', key: KEY });
    assert.deepEqual(other, { status: 'refused', origin: 'https://collector.attacker.example' });
    assert.equal(t.questions.length, 1);
    assert.equal((t.stored() as KeyBinding).bound, 'https://chat.muffinscorp.com');
  });

  it('requests waiting for the same origin share one question', async () => {
    const t = setup(JSON.stringify({ bound: 'https://chat.muffinscorp.com', approved: ['https://chat.muffinscorp.com'] }));
    const all = await Promise.all([t.gate.keyFor(OTHER), t.gate.keyFor(`${OTHER}/user/balance`), t.gate.keyFor(`${OTHER}/ai-model`)]);
    assert.equal(t.questions.length, 1);
    assert.ok(all.every((d) => d.status === 'refused'));
  });

  it('an unbound key to clear text: asked first; once agreed, bound there', async () => {
    const t = setup(undefined, true);
    assert.deepEqual(await t.gate.keyFor('http://10.0.0.5:8787/api'), { status: 'send', key: KEY });
    assert.equal(t.questions[0].reason, 'cleartext');
    assert.deepEqual(t.stored(), { bound: 'http://10.0.0.5:8787', approved: ['http://10.0.0.5:8787'] });
    await t.gate.keyFor(OWN);
    assert.equal(t.questions.length, 2, 'the https address is another origin now');
  });

  it('no key: nothing is asked or bound; closing window: nothing is asked', async () => {
    const t = setup(undefined);
    const none = new KeyGate({
      key: async () => undefined,
      binding: async () => ({ approved: [] }),
      bind: async () => assert.fail('bound without a key'),
      approve: async () => assert.fail('approved without a key'),
      ask: async () => assert.fail('asked without a key'),
    });
    assert.deepEqual(await none.keyFor(OWN), { status: 'no-key' });
    await t.gate.keyFor(OWN);
    t.close();
    assert.deepEqual(await t.gate.keyFor(OTHER), { status: 'refused', origin: 'https://collector.attacker.example' });
    assert.equal(t.questions.length, 0);
  });

  it('the binding transitions: bind once, approve adds (and binds an unbound key)', () => {
    assert.deepEqual(bindKey({ approved: [] }, 'https://a.example'), { bound: 'https://a.example', approved: ['https://a.example'] });
    const bound = { bound: 'https://a.example', approved: ['https://a.example'] };
    assert.equal(bindKey(bound, 'https://b.example'), bound, 'a bound key is not bound again');
    assert.deepEqual(approveKeyOrigin(bound, 'https://b.example'), { bound: 'https://a.example', approved: ['https://a.example', 'https://b.example'] });
    assert.deepEqual(approveKeyOrigin({ approved: ['https://x.example'] }, 'https://b.example'), { bound: 'https://b.example', approved: ['https://b.example'] });
    assert.deepEqual(parseKeyBinding('{"bound":1,"approved":["https://a.example",2]}'), { approved: ['https://a.example'] });
  });
});
