// A binding secret that cannot be read (a keyring or D-Bus error) is not the same as none: where
// the key may go is unknown. Every origin is asked about, and the stored binding is never written
// over. An absent binding (a key stored by 0.1.0) still binds to the first origin, once.
// ApiKeyStore runs here as in the extension, wired to the gate as ServiceAddress wires it; of
// `vscode` it needs only EventEmitter, given by a stand-in.
import { strict as assert } from 'node:assert';
import Module from 'node:module';
import { KeyGate, keyConsentText, type KeyQuestion } from '../../../src/core/account/address';

const KEY = 'sk-live-abcdef123456';
const OWN = 'https://chat.muffinscorp.com/api/public';
const OTHER = 'https://collector.attacker.example/api';
const BOUND = JSON.stringify({ bound: 'https://chat.muffinscorp.com', approved: ['https://chat.muffinscorp.com'] });

class Emitter<T> {
  private listeners: Array<(e: T) => void> = [];
  event = (l: (e: T) => void) => {
    this.listeners.push(l);
    return { dispose: () => void (this.listeners = this.listeners.filter((x) => x !== l)) };
  };
  fire(e: T): void {
    for (const l of this.listeners) l(e);
  }
  dispose(): void {
    this.listeners = [];
  }
}

/** SecretStorage whose binding secret can be made to fail on read. */
class Secrets {
  readonly data = new Map<string, string>();
  failBindingReads = false;
  writes: string[] = [];
  private readonly changes = new Emitter<{ key: string }>();
  readonly onDidChange = this.changes.event;
  async get(key: string): Promise<string | undefined> {
    if (key === 'aiChat.apiKeyOrigins' && this.failBindingReads) throw new Error('keyring: DBus error');
    return this.data.get(key);
  }
  async store(key: string, value: string): Promise<void> {
    this.writes.push(key);
    this.data.set(key, value);
  }
  async delete(key: string): Promise<void> {
    this.data.delete(key);
  }
}

type KeyStoreModule = typeof import('../../../src/extension/account/keyStore');
type Loader = (request: string, parent: unknown, isMain: boolean) => unknown;

describe('key binding: a binding secret that cannot be read', () => {
  let mod: KeyStoreModule;
  const loader = Module as unknown as { _load: Loader };
  const realLoad = loader._load;
  before(async () => {
    loader._load = function (this: unknown, request, parent, isMain) {
      return request === 'vscode' ? { EventEmitter: Emitter } : realLoad.call(this, request, parent, isMain);
    };
    mod = await import('../../../src/extension/account/keyStore');
  });
  after(() => {
    loader._load = realLoad;
  });

  /** A window starting with the key bound to OWN in SecretStorage; the user answers `answer`. */
  async function windowWith(binding: string | undefined, answer: boolean) {
    const secrets = new Secrets();
    const first = new mod.ApiKeyStore(secrets);
    await first.set(KEY, 'https://chat.muffinscorp.com');
    first.dispose();
    if (binding === undefined) secrets.data.delete('aiChat.apiKeyOrigins');
    else secrets.data.set('aiChat.apiKeyOrigins', binding);
    secrets.writes = [];
    const keys = new mod.ApiKeyStore(secrets);
    const questions: KeyQuestion[] = [];
    const gate = new KeyGate({
      key: () => keys.get(),
      binding: () => keys.getBinding(),
      bind: (origin) => keys.bind(origin),
      approve: (origin) => keys.approve(origin),
      ask: async (q) => {
        questions.push(q);
        return answer;
      },
    });
    return { secrets, keys, gate, questions, stored: () => secrets.data.get('aiChat.apiKeyOrigins') };
  }

  it('another origin is asked about (not bound silently) and refused when declined; the stored binding stays', async () => {
    const w = await windowWith(BOUND, false);
    w.secrets.failBindingReads = true;
    assert.deepEqual(await w.gate.keyFor(OTHER), { status: 'refused', origin: 'https://collector.attacker.example' });
    assert.equal(w.questions.length, 1, 'asked');
    assert.deepEqual(w.questions[0], { send: false, reason: 'unknown-binding', origin: 'https://collector.attacker.example' });
    assert.equal(w.stored(), BOUND, 'the binding is as it was');
    assert.deepEqual(w.secrets.writes, [], 'nothing was written');
    w.keys.dispose();
  });

  it('agreed: the key goes to that origin in this window, without a second question, and nothing is written over the binding', async () => {
    const w = await windowWith(BOUND, true);
    w.secrets.failBindingReads = true;
    assert.deepEqual(await w.gate.keyFor(OTHER), { status: 'send', key: KEY });
    assert.deepEqual(await w.gate.keyFor(`${OTHER}/user/balance`), { status: 'send', key: KEY });
    assert.equal(w.questions.length, 1);
    assert.equal(w.stored(), BOUND);
    assert.deepEqual(w.secrets.writes, []);
    // The own address is unknown too while the binding cannot be read: asked about as well.
    await w.gate.keyFor(OWN);
    assert.equal(w.questions.length, 2);
    w.keys.dispose();
  });

  it('once the binding can be read again, the stored one applies: the bound origin is sent, another one asked about', async () => {
    const w = await windowWith(BOUND, false);
    w.secrets.failBindingReads = true;
    await w.gate.keyFor(OTHER);
    w.secrets.failBindingReads = false;
    assert.deepEqual(await w.gate.keyFor(OWN), { status: 'send', key: KEY });
    assert.equal(w.questions.length, 1, 'the bound origin needs no question');
    w.gate.forgetRefusals();
    await w.gate.keyFor(OTHER);
    assert.equal(w.questions.length, 2);
    assert.equal(w.questions[1].reason, 'new-origin');
    assert.equal(w.stored(), BOUND);
    w.keys.dispose();
  });

  it('an absent binding secret (a key stored by 0.1.0) still binds to the first origin, once, without a question', async () => {
    const w = await windowWith(undefined, false);
    assert.deepEqual(await w.gate.keyFor(OWN), { status: 'send', key: KEY });
    assert.equal(w.questions.length, 0);
    assert.deepEqual(JSON.parse(w.stored() ?? 'null'), { bound: 'https://chat.muffinscorp.com', approved: ['https://chat.muffinscorp.com'] });
    w.keys.dispose();
  });

  it('the question says the binding could not be read, and names the address', () => {
    const text = keyConsentText({ send: false, reason: 'unknown-binding', origin: 'https://collector.attacker.example' });
    assert.match(text.message, /collector\.attacker\.example/);
    assert.match(text.detail, /could not be read/);
  });
});
