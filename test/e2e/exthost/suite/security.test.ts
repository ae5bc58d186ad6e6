// Where the key may go, checked against the real VS Code configuration and SecretStorage API:
// a workspace's service address, the key written before it is kept, no client after dispose.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ClientProvider } from '../../../../src/extension/platform/clientProvider';
import { ConfigService } from '../../../../src/extension/platform/config';
import { ApiKeyStore } from '../../../../src/extension/account/keyStore';
import { memento, silent } from './fakes';
import { ServiceAddress } from '../../../../src/extension/platform/serviceAddress';

/**
 * A SecretStorage kept in memory; `failWrites` makes store() reject like a locked keychain. Its
 * change event comes during the write (`echo: 'during'`) or after the write resolved (`'late'`),
 * as VS Code's may; `external` is a write by another window.
 */
function secrets(echo: 'during' | 'late' = 'during'): vscode.SecretStorage & {
  failWrites: boolean;
  data: Map<string, string>;
  external: (k: string, v: string | undefined) => void;
} {
  const data = new Map<string, string>();
  const changed = new vscode.EventEmitter<vscode.SecretStorageChangeEvent>();
  const notify = (key: string) => (echo === 'during' ? changed.fire({ key }) : void setTimeout(() => changed.fire({ key }), 5));
  const s = {
    failWrites: false,
    data,
    get: async (k: string) => data.get(k),
    store: async (k: string, v: string) => {
      if (s.failWrites) throw new Error('keychain locked');
      data.set(k, v);
      notify(k);
    },
    delete: async (k: string) => {
      data.delete(k);
      notify(k);
    },
    keys: async () => [...data.keys()],
    onDidChange: changed.event,
    external: (k: string, v: string | undefined) => {
      if (v === undefined) data.delete(k);
      else data.set(k, v);
      changed.fire({ key: k });
    },
  };
  return s;
}

const settle = () => new Promise((r) => setTimeout(r, 30));

describe('Where the API key may go (real VS Code configuration)', () => {
  const cfg = () => vscode.workspace.getConfiguration('aiChat');
  afterEach(async () => {
    await cfg().update('baseUrl', undefined, vscode.ConfigurationTarget.Workspace);
  });

  it('a workspace service address is not used until the user allows it, then only for that address', async () => {
    assert.ok(vscode.workspace.workspaceFolders?.length, 'the suite runs with a folder open');
    const own = new ConfigService(memento());
    const mine = own.settings.baseUrl;
    own.dispose();
    await cfg().update('baseUrl', 'https://collector.example/api', vscode.ConfigurationTarget.Workspace);
    const state = memento();
    const config = new ConfigService(state);
    try {
      assert.equal(cfg().get('baseUrl'), 'https://collector.example/api', 'VS Code itself would use the workspace value');
      assert.equal(config.settings.baseUrl, mine, 'the extension keeps the user address');
      assert.equal(config.baseUrlChoice.ignoredWorkspaceUrl, 'https://collector.example/api');
      await config.decide('https://collector.example/api', 'declined');
      assert.equal(config.settings.baseUrl, mine);
      await config.decide('https://collector.example/api', 'allowed');
      assert.equal(config.settings.baseUrl, 'https://collector.example/api');
      assert.equal(config.baseUrlChoice.source, 'workspace');
      // Another address in the same workspace is a new question.
      await cfg().update('baseUrl', 'https://other.example/api', vscode.ConfigurationTarget.Workspace);
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(config.settings.baseUrl, mine);
      assert.equal(config.baseUrlChoice.ignoredWorkspaceUrl, 'https://other.example/api');
    } finally {
      config.dispose();
    }
  });

  it('a workspace model is not used until the user allows it; a pick of another model wins and stays', async () => {
    const before = cfg().inspect<string>('model')?.globalValue;
    await cfg().update('model', 'swift-chat', vscode.ConfigurationTarget.Global);
    await cfg().update('model', 'deep-think', vscode.ConfigurationTarget.Workspace);
    const config = new ConfigService(memento());
    try {
      assert.equal(cfg().get('model'), 'deep-think', 'VS Code itself would use the workspace value');
      assert.equal(config.settings.model, 'swift-chat', "the extension keeps the user's model");
      assert.equal(config.modelChoice.ignoredWorkspaceModel, 'deep-think');
      await config.decideModel('deep-think', 'allowed');
      assert.equal(config.settings.model, 'deep-think');
      assert.equal(config.modelChoice.source, 'workspace');
      // The user picks another model: saved to the user settings, and used (it used to jump back).
      await config.pickModel('code-pro');
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(cfg().inspect<string>('model')?.globalValue, 'code-pro');
      assert.equal(config.settings.model, 'code-pro');
      assert.equal(config.modelDecision('deep-think'), 'declined');
      // Picking the workspace's model allows it for this workspace; the user settings stay.
      await config.pickModel('deep-think');
      assert.equal(config.settings.model, 'deep-think');
      assert.equal(cfg().inspect<string>('model')?.globalValue, 'code-pro');
    } finally {
      config.dispose();
      await cfg().update('model', undefined, vscode.ConfigurationTarget.Workspace);
      await cfg().update('model', before, vscode.ConfigurationTarget.Global);
    }
  });

  it('an unusable user aiChat.baseUrl is reported and no client is made for it (not the default address)', async () => {
    const before = cfg().inspect<string>('baseUrl')?.globalValue;
    await cfg().update('baseUrl', 'localhost:8787', vscode.ConfigurationTarget.Global);
    const config = new ConfigService(memento());
    const keys = new ApiKeyStore(secrets());
    const address = new ServiceAddress(config, keys, silent);
    const clients = new ClientProvider(config, address, silent, 'test');
    try {
      assert.equal(config.baseUrlChoice.invalid?.level, 'user');
      assert.notEqual(config.settings.baseUrl, 'https://chat.muffinscorp.com/api/public');
      assert.throws(() => clients.get(), /aiChat\.baseUrl \("localhost:8787"\) cannot be used/);
    } finally {
      clients.dispose();
      address.dispose();
      keys.dispose();
      config.dispose();
      await cfg().update('baseUrl', before, vscode.ConfigurationTarget.Global);
    }
  });

  it('declares the service address, model, system prompt and the user\'s own rules for tasks as restricted in untrusted workspaces', () => {
    const pkg = vscode.extensions.getExtension('ai-chat-assistant.ai-chat-assistant')?.packageJSON as {
      capabilities?: { untrustedWorkspaces?: { supported?: unknown; restrictedConfigurations?: string[] } };
    };
    assert.equal(pkg.capabilities?.untrustedWorkspaces?.supported, 'limited');
    assert.deepEqual(pkg.capabilities?.untrustedWorkspaces?.restrictedConfigurations?.sort(), [
      'aiChat.baseUrl',
      'aiChat.commitMessage.instructions',
      'aiChat.editSelection.instructions',
      'aiChat.fix.instructions',
      'aiChat.instructionsFile',
      'aiChat.model',
      'aiChat.systemPrompt',
    ]);
  });

  it('the key is kept in memory only after SecretStorage stored it', async () => {
    const store = secrets();
    const keys = new ApiKeyStore(store);
    try {
      await keys.set('sk-first-1111111', 'https://a.example');
      store.failWrites = true;
      await assert.rejects(keys.set('sk-second-2222222', 'https://b.example'), /keychain locked/);
      assert.equal(await keys.get(), 'sk-first-1111111');
      assert.deepEqual(keys.knownSecrets(), ['sk-first-1111111']);
      assert.equal((await keys.getBinding()).bound, 'https://a.example');
    } finally {
      keys.dispose();
    }
  });

  for (const echo of ['during', 'late'] as const) {
    it(`setting or clearing the key is one change, however SecretStorage echoes it (${echo === 'during' ? 'during' : 'after'} the write)`, async () => {
      const store = secrets(echo);
      const keys = new ApiKeyStore(store);
      const seen: Array<string | undefined> = [];
      keys.onDidChange(() => seen.push(keys.knownSecrets()[0]));
      try {
        assert.equal(await keys.get(), undefined);
        await keys.set('sk-once-5555555', 'https://a.example');
        await settle();
        assert.deepEqual(seen, ['sk-once-5555555'], 'one set, one change (a second one makes the balance reload)');
        await keys.clear();
        await settle();
        assert.deepEqual(seen, ['sk-once-5555555', undefined]);
        // Another window sets a key: one change, with that key.
        store.external('aiChat.apiKey', 'sk-other-6666666');
        await settle();
        assert.deepEqual(seen, ['sk-once-5555555', undefined, 'sk-other-6666666']);
        assert.equal(await keys.get(), 'sk-other-6666666');
      } finally {
        keys.dispose();
      }
    });
  }

  it('the key is bound to the origin it was checked against; an approved origin is remembered beside it', async () => {
    const store = secrets();
    const keys = new ApiKeyStore(store);
    try {
      await keys.set('sk-bound-3333333', 'https://a.example');
      await keys.approve('https://b.example');
      assert.deepEqual(await keys.getBinding(), { bound: 'https://a.example', approved: ['https://a.example', 'https://b.example'] });
      assert.doesNotMatch(JSON.stringify([...store.data.entries()].filter(([k]) => k !== 'aiChat.apiKey')), /sk-bound/);
    } finally {
      keys.dispose();
    }
  });

  it('no client is created after the extension was disposed', () => {
    const config = new ConfigService(memento());
    const keys = new ApiKeyStore(secrets());
    const address = new ServiceAddress(config, keys, silent);
    const clients = new ClientProvider(config, address, silent, 'test');
    clients.get();
    clients.dispose();
    assert.throws(() => clients.get(), /shutting down/);
    assert.throws(() => clients.create({ baseUrl: 'https://a.example', apiKey: () => 'k' }), /shutting down/);
    address.dispose();
    keys.dispose();
    config.dispose();
  });

  it('a key for another origin is not sent once the window is closing', async () => {
    const config = new ConfigService(memento());
    const keys = new ApiKeyStore(secrets());
    const address = new ServiceAddress(config, keys, silent);
    try {
      await keys.set('sk-closing-4444444', 'https://a.example');
      assert.equal(await address.keyFor('https://a.example/api'), 'sk-closing-4444444');
      address.dispose();
      await assert.rejects(address.keyFor('https://b.example/api'), /was not sent to https:\/\/b\.example/);
    } finally {
      keys.dispose();
      config.dispose();
    }
  });
});
