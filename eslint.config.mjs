// ESLint: typescript-eslint's recommended rules with type information, a few rules that catch
// real bugs, and the layer rules of the design (what each folder of src/ may import).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';

/** The feature rooms of src/extension, each named as its pure part's folder in src/core. */
const FEATURES = ['applyToFile', 'changes', 'codebase', 'context', 'editorPrompts', 'export', 'history', 'inlineEdit', 'lightbulb', 'promptFiles', 'rules', 'sourceControl', 'terminal', 'variants'];

/** Folders of src/, whether each may import vscode and Node modules, and the src/ folders it may not import. */
const layers = {
  client: { vscode: false, forbidden: ['core', 'protocol', 'extension', 'webview', 'wording'] },
  // The wording shared by the host and the panel (credits, prices, a reply's figures, how a code
  // block names its file): a leaf that src/core, src/protocol, src/webview and src/extension may import.
  wording: { vscode: false, node: false, forbidden: ['client', 'core', 'protocol', 'extension', 'webview'] },
  protocol: { vscode: false, forbidden: ['client', 'core', 'extension', 'webview'] },
  // A core that knows no webview: the protocol's view types are the extension's to map to (presenter.ts).
  core: { vscode: false, forbidden: ['protocol', 'extension', 'webview'] },
  webview: { vscode: false, node: false, forbidden: ['client', 'core', 'extension'] },
  extension: { vscode: true, forbidden: ['webview'] },
  // The rooms of src/extension (docs/ARCHITECTURE.md, Rooms): the platform serves everyone; the
  // account serves the pipeline, the features and the chat; the pipeline (one turn for every
  // surface) serves the features and the chat; a feature never imports the chat (it reaches the
  // message box through pipeline/chatBox.ts, which extension.ts wires).
  'extension/platform': { vscode: true, forbidden: ['webview', 'account', 'pipeline', 'chat', ...FEATURES] },
  'extension/account': { vscode: true, forbidden: ['webview', 'pipeline', 'chat', ...FEATURES] },
  'extension/pipeline': { vscode: true, forbidden: ['webview', 'chat', ...FEATURES] },
  ...Object.fromEntries(FEATURES.map((feature) => [`extension/${feature}`, { vscode: true, forbidden: ['webview', 'chat'] }])),
  // The pure parts of the rooms (no vscode, so unit-tested directly) live in their common/ folders.
  'extension/chat/common': { vscode: false, forbidden: ['webview'] },
  'extension/platform/common': { vscode: false, forbidden: ['webview', 'account', 'pipeline', 'chat', ...FEATURES] },
  'extension/pipeline/common': { vscode: false, forbidden: ['webview', 'chat', ...FEATURES] },
  // The native adapters translate between VS Code's chat APIs and the one turn pipeline
  // (pipeline/turnService.ts): no key, charge or client of their own.
  'extension/chat/native': { vscode: true, forbidden: ['webview', 'account', 'platform/clientProvider'] },
};

/** The one stream loop (design.md, The chat path): only it assembles a reply in src/core and src/extension. */
const TURN_LOOP = 'src/core/chat/turn.ts';
const oneStreamLoop = {
  selector: "NewExpression[callee.name='ReplyAssembler']",
  message: `Only ${TURN_LOOP} (runTurn, the one stream loop of every surface) builds a ReplyAssembler: run the turn through it.`,
};

/** A relative import specifier that reaches src/<folder> (`../core`, `../../core/x`, `../../src/core`). */
const reaching = (folders) => `^(\\.\\./)+(src/)?(${folders.join('|')})(/|$)`;

// Everywhere in src/: `import { z } from 'zod'` bundles all of zod's locales; the namespace
// import does not (no-restricted-imports would flag both, hence a syntax rule).
const zodNamedImport = {
  selector: "ImportDeclaration[source.value='zod'][importKind!='type'] > ImportSpecifier[imported.name='z'][importKind!='type']",
  message: "Use `import * as z from 'zod'` (the named import bundles all of zod's locales).",
};

function layerRules(folder, { vscode, node = true, forbidden: own }) {
  // src never imports test/ (its fixtures, such as the in-memory storage, live in test/support).
  const forbidden = [...own, 'test'];
  const paths = [];
  if (!vscode) paths.push({ name: 'vscode', message: `src/${folder} must not import vscode (design.md, Layers).` });
  if (folder === 'client') {
    paths.push({
      name: 'undici',
      allowTypeImports: true,
      message: "Import undici's parts from ./undici (the package entry bundles fetch, WebSocket and more).",
    });
  }
  const patterns = [
    { regex: reaching(forbidden), message: `src/${folder} must not import from src/{${forbidden.join(',')}} (design.md, Layers).` },
  ];
  const dynamic = [reaching(forbidden)];
  if (!vscode) dynamic.push('^vscode$');
  if (!node) {
    patterns.push({ regex: '^node:', message: `src/${folder} runs in the browser: no Node modules.` });
    dynamic.push('^node:');
  }
  const syntax = (extra) => [
    'error',
    zodNamedImport,
    ...extra,
    ...dynamic.map((regex) => ({
      selector: `ImportExpression[source.value=/${regex.replaceAll('/', '\\/')}/]`,
      message: `src/${folder} may not import this module (design.md, Layers).`,
    })),
  ];
  const files = [`src/${folder}/**/*.ts`];
  const imports = { 'no-restricted-imports': 'off', '@typescript-eslint/no-restricted-imports': ['error', { paths, patterns }] };
  if (!/^(core|extension)(\/|$)/.test(folder)) return [{ files, rules: { ...imports, 'no-restricted-syntax': syntax([]) } }];
  // In src/core and src/extension, a reply is assembled only by the one stream loop.
  return [
    { files, ignores: [TURN_LOOP], rules: { ...imports, 'no-restricted-syntax': syntax([oneStreamLoop]) } },
    ...(TURN_LOOP.startsWith(`src/${folder}/`) ? [{ files: [TURN_LOOP], rules: { ...imports, 'no-restricted-syntax': syntax([]) } }] : []),
  ];
}

export default tseslint.config(
  {
    ignores: ['test/fixtures/lint/**', 'dist/**', 'media/dist/**', 'node_modules/**', '.cache/**', 'test/e2e/.cache/**', '.vscode-test/**', '**/*.vsix'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Rules of real value beyond the recommended set.
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      // A variable read by a handler installed before its one assignment stays `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      'no-throw-literal': 'off',
      '@typescript-eslint/only-throw-error': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Off: async methods without await are how in-memory stores and fakes implement async
      // interfaces; control characters in regexes here are deliberate (sanitizing, escaping);
      // `unknown | undefined` documents that a read may find nothing.
      '@typescript-eslint/require-await': 'off',
      'no-control-regex': 'off',
      '@typescript-eslint/no-redundant-type-constituents': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: {
      globals: { require: 'readonly', module: 'writable', process: 'readonly', console: 'readonly', __dirname: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  ...Object.entries(layers).flatMap(([folder, layer]) => layerRules(folder, layer)),
  {
    // No import circles in src: a module that imports itself through others cannot be understood,
    // tested or loaded on its own. (test/fixtures/lint/cycle: the circle the lint tests show it rejects.)
    files: ['src/**/*.ts', 'test/fixtures/lint/cycle/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [importX.createNodeResolver({ extensions: ['.ts', '.js', '.json'] })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // The one module allowed to load undici's parts directly, and the types of those parts.
    files: ['src/client/undici.ts', 'src/client/undici-modules.d.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [{ name: 'vscode', message: 'src/client must not import vscode (design.md, Layers).' }] },
      ],
    },
  },
);
