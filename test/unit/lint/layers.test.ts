import { strict as assert } from 'node:assert';
import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';

// The layer rules of design.md as eslint.config.mjs enforces them, checked on source text placed
// (virtually) in each folder: every forbidden import is reported, every allowed one passes.
// Type information is switched off here: the layer rules do not need it, and a virtual file is
// in no TypeScript project.
const root = resolve(__dirname, '..', '..', '..');
const eslint = new ESLint({
  cwd: root,
  overrideConfig: [tseslint.configs.disableTypeChecked],
});

const LAYER_RULES = new Set(['@typescript-eslint/no-restricted-imports', 'no-restricted-syntax']);

/** The layer-rule messages ESLint reports for `code` as the file `file` (relative to the root). */
async function layerErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(root, file) });
  const fatal = result.messages.filter((m) => m.fatal);
  assert.deepEqual(fatal, [], 'the fixture parses');
  return result.messages.filter((m) => m.ruleId && LAYER_RULES.has(m.ruleId)).map((m) => m.message);
}

async function rejects(file: string, code: string, mentions: RegExp): Promise<void> {
  const errors = await layerErrors(file, code);
  assert.equal(errors.length, 1, `${file}: ${code} -> ${JSON.stringify(errors)}`);
  assert.match(errors[0], mentions);
}

async function accepts(file: string, code: string): Promise<void> {
  assert.deepEqual(await layerErrors(file, code), [], `${file}: ${code}`);
}

describe('lint: layer rules (eslint.config.mjs)', function () {
  this.timeout(60_000);

  const noVscode = ['src/client/a.ts', 'src/core/a.ts', 'src/protocol/a.ts', 'src/webview/a.ts', 'src/webview/render/a.ts'];
  for (const file of noVscode) {
    it(`${file} may not import vscode (import, re-export, dynamic import)`, async () => {
      await rejects(file, "import * as vscode from 'vscode';\nexport const v = vscode;\n", /vscode/);
      await rejects(file, "export { window } from 'vscode';\n", /vscode/);
      await rejects(file, "export const v = import('vscode');\n", /may not import/);
    });
  }

  it('src/client imports nothing from the other src folders', async () => {
    for (const other of ['core', 'protocol', 'extension', 'webview']) {
      await rejects('src/client/a.ts', `import { x } from '../${other}';\nexport const y = x;\n`, /src\/client must not/);
      await rejects('src/client/a.ts', `import type { X } from '../${other}/index';\nexport type Y = X;\n`, /src\/client must not/);
    }
    await accepts('src/client/a.ts', "import { x } from './errors';\nimport * as z from 'zod';\nexport const y = [x, z];\n");
  });

  it('src/extension/platform and src/extension/account import neither the chat, the pipeline nor a feature', async () => {
    for (const room of ['platform', 'account']) {
      const file = `src/extension/${room}/a.ts`;
      const mustNot = new RegExp(`src/extension/${room} must not`);
      await rejects(file, "import { x } from '../chat/common/controller';\nexport const y = x;\n", mustNot);
      await rejects(file, "import { x } from '../pipeline/turnService';\nexport const y = x;\n", mustNot);
      await rejects(file, "import { x } from '../context/attachments';\nexport const y = x;\n", mustNot);
      await rejects(file, "import { x } from '../inlineEdit/inlineEdit';\nexport const y = x;\n", mustNot);
      await rejects(file, "import { x } from '../../webview/main';\nexport const y = x;\n", mustNot);
      await accepts(file, "import { x } from '../platform/log';\nimport { y } from '../../core';\nexport const z = [x, y];\n");
    }
    await accepts('src/extension/chat/a.ts', "import { x } from '../account/keyStore';\nimport { y } from '../context/attachments';\nexport const z = [x, y];\n");
  });

  it('src/extension/platform does not import the account (the key reaches it through a port)', async () => {
    await rejects('src/extension/platform/a.ts', "import type { ApiKeyStore } from '../account/keyStore';\nexport type K = ApiKeyStore;\n", /src\/extension\/platform must not/);
    await accepts('src/extension/account/a.ts', "import type { Logger } from '../platform/log';\nexport type L = Logger;\n");
  });

  it('the pipeline (one turn for every surface) imports no feature and not the chat', async () => {
    const file = 'src/extension/pipeline/a.ts';
    await rejects(file, "import { x } from '../chat/chatPanel';\nexport const y = x;\n", /src\/extension\/pipeline must not/);
    for (const feature of ['inlineEdit', 'sourceControl', 'terminal', 'promptFiles', 'lightbulb', 'applyToFile', 'history', 'context', 'editorPrompts', 'export']) {
      await rejects(file, `import { x } from '../${feature}/a';\nexport const y = x;\n`, /src\/extension\/pipeline must not/);
    }
    await accepts(file, "import { a } from '../account/keyStore';\nimport { b } from '../platform/log';\nimport { c } from '../../core';\nexport const d = [a, b, c];\n");
  });

  it('a feature does not import the chat: it reaches the message box through pipeline/chatBox.ts', async () => {
    for (const feature of ['inlineEdit', 'sourceControl', 'terminal', 'promptFiles', 'lightbulb', 'applyToFile', 'history', 'context', 'editorPrompts', 'export']) {
      const file = `src/extension/${feature}/a.ts`;
      await rejects(file, "import type { ChatPanelController } from '../chat/chatPanel';\nexport type C = ChatPanelController;\n", new RegExp(`src/extension/${feature} must not`));
      await accepts(file, "import type { ChatBox } from '../pipeline/chatBox';\nimport type { TurnService } from '../pipeline/turnService';\nexport type C = [ChatBox, TurnService];\n");
    }
  });

  it('src/protocol imports nothing from the other src folders', async () => {
    for (const other of ['client', 'core', 'extension', 'webview']) {
      await rejects('src/protocol/a.ts', `import { x } from '../${other}';\nexport const y = x;\n`, /src\/protocol must not/);
    }
    await accepts('src/protocol/a.ts', "import { x } from './wording';\nexport const y = x;\n");
  });

  it('src/core imports itself, src/client and src/wording (all free of vscode), never src/protocol', async () => {
    await accepts(
      'src/core/a.ts',
      "import { x } from '../wording';\nimport { ReplyAssembler } from '../client/reply';\nimport type { T } from '../client';\nexport const y: T = [x, ReplyAssembler];\n",
    );
    await accepts('src/core/chat/a.ts', "import { creditsText } from '../../wording';\nexport const c = creditsText;\n");
    await rejects('src/core/a.ts', "import { x } from '../protocol';\nexport const y = x;\n", /src\/core must not/);
    await rejects('src/core/chat/a.ts', "import type { ErrorView } from '../../protocol';\nexport type E = ErrorView;\n", /src\/core must not/);
    await rejects('src/core/chat/a.ts', "import { creditsText } from '../../protocol/wording';\nexport const c = creditsText;\n", /src\/core must not/);
    await rejects('src/core/a.ts', "export const m = import('../protocol');\n", /may not import/);
    await rejects('src/core/a.ts', "import { x } from '../extension/config';\nexport const y = x;\n", /src\/core must not/);
    await rejects('src/core/a.ts', "import { x } from '../webview/dom';\nexport const y = x;\n", /src\/core must not/);
    await rejects('src/core/a.ts', "export const m = import('../extension/config');\n", /may not import/);
  });

  it('src/wording is a leaf: it imports no other src folder, and the host, the protocol and the panel may import it', async () => {
    for (const other of ['client', 'core', 'protocol', 'extension', 'webview']) {
      await rejects('src/wording/a.ts', `import { x } from '../${other}';\nexport const y = x;\n`, /src\/wording must not/);
    }
    await rejects('src/wording/a.ts', "import * as vscode from 'vscode';\nexport const v = vscode;\n", /vscode/);
    await rejects('src/wording/a.ts', "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n", /no Node modules/);
    await accepts('src/wording/a.ts', "import * as l10n from '@vscode/l10n';\nimport { b } from './b';\nexport const y = [l10n, b];\n");
    for (const file of ['src/core/a.ts', 'src/protocol/a.ts', 'src/webview/a.ts', 'src/extension/a.ts']) {
      await accepts(file, "import { creditsText } from '../wording';\nexport const c = creditsText;\n");
    }
    await rejects('src/client/a.ts', "import { creditsText } from '../wording';\nexport const c = creditsText;\n", /src\/client must not/);
  });

  it('src/webview imports only itself, src/protocol and browser libraries', async () => {
    await accepts(
      'src/webview/render/a.ts',
      "import { x } from '../../protocol';\nimport { y } from '../dom';\nimport MarkdownIt from 'markdown-it';\nexport const z = [x, y, MarkdownIt];\n",
    );
    for (const other of ['client', 'core', 'extension']) {
      await rejects('src/webview/a.ts', `import { x } from '../${other}';\nexport const y = x;\n`, /src\/webview must not/);
      await rejects('src/webview/render/a.ts', `import { x } from '../../${other}/x';\nexport const y = x;\n`, /src\/webview must not/);
    }
    await rejects('src/webview/a.ts', "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n", /no Node modules/);
  });

  it('src/extension may import every layer but the webview', async () => {
    await accepts(
      'src/extension/a.ts',
      "import * as vscode from 'vscode';\nimport { a } from '../client';\nimport { b } from '../core';\nimport { c } from '../protocol';\nexport const d = [vscode, a, b, c];\n",
    );
    await rejects('src/extension/a.ts', "import { x } from '../webview/dom';\nexport const y = x;\n", /src\/extension must not/);
  });

  it("zod is imported as a namespace in src (the named import bundles all of zod's locales)", async () => {
    await rejects('src/core/a.ts', "import { z } from 'zod';\nexport const s = z.string();\n", /import \* as z from 'zod'/);
    await accepts('src/core/a.ts', "import * as z from 'zod';\nexport const s = z.string();\n");
    await accepts('src/client/a.ts', "import type { z } from 'zod';\nexport type S = z.ZodString;\n");
  });

  it("src/client loads undici's parts through ./undici, not the package entry", async () => {
    await rejects('src/client/a.ts', "import { request } from 'undici';\nexport const r = request;\n", /\.\/undici/);
    await accepts('src/client/a.ts', "import type { Dispatcher } from 'undici';\nexport type D = Dispatcher;\n");
    await accepts('src/client/undici.ts', "import Agent from 'undici/lib/dispatcher/agent.js';\nexport const A = Agent;\n");
  });

  it('the common/ folders of src/extension never import vscode (their pure parts are unit-tested without it)', async () => {
    for (const file of ['src/extension/chat/common/a.ts', 'src/extension/platform/common/a.ts']) {
      await rejects(file, "import * as vscode from 'vscode';\nexport const v = vscode;\n", /must not import vscode/);
      await rejects(file, "export const v = import('vscode');\n", /may not import/);
      await accepts(file, "import { x } from '../../../core';\nexport const y = x;\n");
    }
    await rejects('src/extension/platform/common/a.ts', "import { x } from '../../chat/common/controller';\nexport const y = x;\n", /must not import/);
  });

  it("the pipeline's common/ (the one turn pipeline without VS Code) never imports vscode, not even as a type", async () => {
    const file = 'src/extension/pipeline/common/a.ts';
    await rejects(file, "import * as vscode from 'vscode';\nexport const v = vscode;\n", /src\/extension\/pipeline\/common must not import vscode/);
    await rejects(file, "import type * as vscode from 'vscode';\nexport type T = vscode.CancellationToken;\n", /src\/extension\/pipeline\/common must not import vscode/);
    await rejects(file, "export const v = import('vscode');\n", /may not import/);
    await rejects(file, "import { x } from '../../chat/common/controller';\nexport const y = x;\n", /src\/extension\/pipeline\/common must not/);
    await accepts(file, "import { x } from '../../../core';\nimport type { ErrorView } from '../../../protocol';\nexport const y: [unknown, ErrorView?] = [x];\n");
  });

  it('the native adapters (chat/native) reach the key, charges and client only through the turn pipeline', async () => {
    const file = 'src/extension/chat/native/a.ts';
    await rejects(file, "import { ApiKeyStore } from '../../account/keyStore';\nexport const k = ApiKeyStore;\n", /chat\/native must not/);
    await rejects(file, "import { TurnAccounting } from '../../account/turnAccounting';\nexport const t = TurnAccounting;\n", /chat\/native must not/);
    await rejects(file, "import { ClientProvider } from '../../platform/clientProvider';\nexport const c = ClientProvider;\n", /chat\/native must not/);
    await accepts(file, "import * as vscode from 'vscode';\nimport { signalOf } from '../../pipeline/turnService';\nimport type { Logger } from '../../platform/log';\nexport const x: [unknown, unknown, Logger?] = [vscode, signalOf];\n");
  });

  it('only src/core/chat/turn.ts (the one stream loop) assembles a reply in src/core and src/extension', async () => {
    const code = "import { ReplyAssembler } from '../../client/reply';\nexport const r = new ReplyAssembler();\n";
    for (const file of ['src/core/chat/a.ts', 'src/extension/chat/native/a.ts', 'src/extension/inlineEdit/a.ts']) {
      await rejects(file, code.replace('../../client', file.startsWith('src/extension/chat/native') ? '../../../client' : file.startsWith('src/extension') ? '../../client' : '../../client'), /Only src\/core\/chat\/turn\.ts/);
    }
    await accepts('src/core/chat/turn.ts', code);
  });

  it('no import circles: two modules that import each other are rejected', async () => {
    // The fixture lies outside the linted tree (eslint.config.mjs ignores it); linted here on purpose.
    const cycles = new ESLint({ cwd: root, ignore: false, overrideConfig: [tseslint.configs.disableTypeChecked] });
    const results = await cycles.lintFiles(['test/fixtures/lint/cycle/a.ts', 'test/fixtures/lint/cycle/b.ts']);
    for (const result of results) {
      const circles = result.messages.filter((m) => m.ruleId === 'import-x/no-cycle');
      assert.equal(circles.length, 1, `${result.filePath}: ${JSON.stringify(result.messages)}`);
      assert.match(circles[0].message, /cycle/i);
    }
  });

  it('src never imports test/ (test/support holds the fixtures, such as the in-memory storage)', async () => {
    await rejects('src/core/storage/a.ts', "import { MemoryConversationStorage } from '../../../test/support/memoryStorage';\nexport const m = MemoryConversationStorage;\n", /must not import/);
    await rejects('src/extension/chat/a.ts', "import { makeSession } from '../../../test/support/session';\nexport const m = makeSession;\n", /must not import/);
  });
});
