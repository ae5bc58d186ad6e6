// What a Marketplace or Open VSX listing needs from the manifest, the VS Code version the engine
// names against the API the code calls, and what the .vsix holds (`vsce ls`).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(__dirname, '..', '..', '..');

interface Manifest {
  version: string;
  icon?: string;
  galleryBanner?: { color?: string; theme?: string };
  keywords?: string[];
  repository?: { type?: string; url?: string } | string;
  bugs?: { url?: string } | string;
  homepage?: string;
  engines: { vscode: string };
  scripts: Record<string, string>;
}
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as Manifest;
const REPOSITORY = 'https://github.com/ai-chat-assistant/ai-chat-assistant';

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5]
    .map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
};

describe('manifest: the Marketplace listing', () => {
  it('has a 128×128 PNG icon that is packaged', () => {
    assert.equal(pkg.icon, 'media/icon.png');
    const png = readFileSync(path.join(root, pkg.icon));
    assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG signature');
    assert.equal(png.subarray(12, 16).toString('latin1'), 'IHDR');
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [128, 128]);
    assert.match(readFileSync(path.join(root, '.vscodeignore'), 'utf8'), /^!media\/icon\.png$/m);
  });

  it('names its repository, where to report bugs and its home page; the package script no longer allows a missing repository', () => {
    const repo = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
    assert.equal(repo?.replace(/\.git$/, ''), REPOSITORY);
    const bugs = typeof pkg.bugs === 'string' ? pkg.bugs : pkg.bugs?.url;
    assert.equal(bugs, `${REPOSITORY}/issues`);
    assert.ok(pkg.homepage?.startsWith(REPOSITORY), `homepage ${pkg.homepage}`);
    assert.doesNotMatch(pkg.scripts.package, /--allow-missing-repository/);
  });

  it('has keywords (at most 30, no repeats) and a gallery banner whose text stays readable', () => {
    const keywords = pkg.keywords ?? [];
    assert.ok(keywords.length > 0 && keywords.length <= 30, `${keywords.length} keywords`);
    assert.equal(new Set(keywords.map((k) => k.toLowerCase())).size, keywords.length);
    const { color, theme } = pkg.galleryBanner ?? {};
    assert.match(color ?? '', /^#[0-9a-f]{6}$/i);
    assert.ok(theme === 'dark' || theme === 'light', `theme ${theme}`);
    // The Marketplace writes the banner's text in white on a dark banner and in black on a light one.
    const ratio = contrast(color!, theme === 'dark' ? '#ffffff' : '#000000');
    assert.ok(ratio >= 4.5, `banner text ${ratio.toFixed(2)}:1`);
  });

  it('the version is the newest release of the changelog, which is dated', () => {
    const changelog = readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8');
    const releases = [...changelog.matchAll(/^## (\d+\.\d+\.\d+)(.*)$/gm)];
    assert.ok(releases.length > 0, 'the changelog has release headings');
    const [, version, rest] = releases[0];
    assert.equal(version, pkg.version, 'the first release heading is the manifest version');
    assert.match(rest, /^ \(\d{4}-\d{2}-\d{2}\)$/, `${version} has a date: "${rest}"`);
  });
});

// ---- engines.vscode against @types/vscode -------------------------------------------------

/**
 * API members the code may use that @types/vscode first typed in a version an engine has named:
 * each is absent from the index.d.ts of the version before (1.90: compared with @types/vscode
 * 1.89.0). When the code uses none of the engine's version, the engine can be lowered.
 */
const FIRST_TYPED_IN: Record<string, string[]> = {
  '1.90': [
    'chat', 'lm', 'ChatRequestTurn', 'ChatResponseTurn', 'ChatResultFeedbackKind', 'ChatResponseMarkdownPart', 'ChatResponseFileTreePart',
    'ChatResponseAnchorPart', 'ChatResponseProgressPart', 'ChatResponseReferencePart', 'ChatResponseCommandButtonPart',
    'LanguageModelChatMessageRole', 'LanguageModelChatMessage', 'LanguageModelError', 'DebugThread', 'DebugStackFrame',
    'debug.activeStackItem', 'debug.onDidChangeActiveStackItem',
  ],
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? sourceFiles(p) : /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [p] : [];
  });
}

interface ApiUse {
  /** `window.showQuickPick`, `Uri.joinPath`, `ChatRequestTurn`: at most two levels under the module. */
  member: string;
  file: string;
}
interface CastUse {
  member: string;
  file: string;
  /** The text of the function that reads it. */
  body: string;
  variable?: string;
}

/**
 * The values of the `vscode` module the extension's code reads: a value read straight from the
 * module (`vscode.window.tabGroups`, `instanceof vscode.ChatRequestTurn`), unless the same file
 * checks it with `typeof`; and a member read through a cast of the module (`(vscode as …).lm`),
 * which is how code reaches API its engine's types lack. Types (annotations, `implements`) are
 * not values and are left out.
 */
function apiUses(): { direct: ApiUse[]; cast: CastUse[] } {
  const direct: ApiUse[] = [];
  const cast: CastUse[] = [];
  for (const file of sourceFiles(path.join(root, 'src'))) {
    const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    let alias: string | undefined;
    for (const st of sf.statements) {
      if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier) || st.moduleSpecifier.text !== 'vscode') continue;
      const bindings = st.importClause?.namedBindings;
      assert.ok(!bindings || ts.isNamespaceImport(bindings), `${path.relative(root, file)}: imports vscode as a namespace (the scan reads vscode.X)`);
      if (!st.importClause?.isTypeOnly && bindings) alias = bindings.name.text;
    }
    if (!alias) continue;
    const rel = path.relative(root, file);
    const guarded = new Set<string>();
    const found: ApiUse[] = [];
    const memberOf = (node: ts.PropertyAccessExpression) => {
      const parent = node.parent;
      return ts.isPropertyAccessExpression(parent) && parent.expression === node ? `${node.name.text}.${parent.name.text}` : node.name.text;
    };
    const inImplements = (node: ts.Node) => {
      for (let n: ts.Node | undefined = node; n; n = n.parent) {
        if (ts.isHeritageClause(n)) return n.token === ts.SyntaxKind.ImplementsKeyword || ts.isInterfaceDeclaration(n.parent);
      }
      return false;
    };
    const visit = (node: ts.Node): void => {
      if (ts.isPropertyAccessExpression(node)) {
        if (ts.isIdentifier(node.expression) && node.expression.text === alias && !inImplements(node)) {
          const member = memberOf(node);
          if (ts.isTypeOfExpression(node.parent) || ts.isTypeOfExpression(node.parent.parent)) guarded.add(member);
          found.push({ member, file: rel });
        }
        let target: ts.Expression = node.expression;
        let casted = false;
        while (ts.isParenthesizedExpression(target) || ts.isAsExpression(target)) {
          casted ||= ts.isAsExpression(target);
          target = target.expression;
        }
        if (casted && ts.isIdentifier(target) && target.text === alias) {
          let fn: ts.Node = node;
          while (fn.parent && !ts.isFunctionLike(fn)) fn = fn.parent;
          const decl = node.parent;
          cast.push({ member: node.name.text, file: rel, body: fn.getText(sf), variable: ts.isVariableDeclaration(decl) && ts.isIdentifier(decl.name) ? decl.name.text : undefined });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
    direct.push(...found.filter((u) => !guarded.has(u.member) && !guarded.has(u.member.split('.')[0])));
  }
  return { direct, cast };
}

/** The values `declare module 'vscode'` exports, each with its own members (a namespace's exports, a class's statics, an enum's members). */
function typedApi(dts: string): Map<string, Set<string>> {
  const sf = ts.createSourceFile('index.d.ts', dts, ts.ScriptTarget.Latest, true);
  const api = new Map<string, Set<string>>();
  const add = (name: string, member?: string) => {
    if (!api.has(name)) api.set(name, new Set());
    if (member) api.get(name)!.add(member);
  };
  const vscodeModule = sf.statements.find((s): s is ts.ModuleDeclaration => ts.isModuleDeclaration(s) && s.name.text === 'vscode');
  assert.ok(vscodeModule?.body && ts.isModuleBlock(vscodeModule.body), "@types/vscode declares module 'vscode'");
  for (const d of vscodeModule.body.statements) {
    if (ts.isClassDeclaration(d) && d.name) {
      add(d.name.text);
      for (const m of d.members) {
        if (m.name && ts.isIdentifier(m.name) && ts.getModifiers(m as ts.HasModifiers)?.some((x) => x.kind === ts.SyntaxKind.StaticKeyword)) add(d.name.text, m.name.text);
      }
    } else if (ts.isEnumDeclaration(d)) {
      add(d.name.text);
      for (const m of d.members) if (ts.isIdentifier(m.name)) add(d.name.text, m.name.text);
    } else if (ts.isModuleDeclaration(d) && d.body && ts.isModuleBlock(d.body)) {
      add(d.name.text);
      for (const s of d.body.statements) {
        if ((ts.isFunctionDeclaration(s) || ts.isClassDeclaration(s) || ts.isEnumDeclaration(s) || ts.isModuleDeclaration(s)) && s.name && ts.isIdentifier(s.name)) add(d.name.text, s.name.text);
        if (ts.isVariableStatement(s)) for (const v of s.declarationList.declarations) if (ts.isIdentifier(v.name)) add(d.name.text, v.name.text);
      }
    } else if (ts.isFunctionDeclaration(d) && d.name) {
      add(d.name.text);
    } else if (ts.isVariableStatement(d)) {
      for (const v of d.declarationList.declarations) if (ts.isIdentifier(v.name)) add(v.name.text);
    }
  }
  return api;
}

/** Whether `member` is a value of the API: a top-level value, or one of its members (a namespace's variable's own properties are not listed, so `env.clipboard` is looked up as `env`'s export). */
function typed(api: Map<string, Set<string>>, member: string): boolean {
  const [name, sub] = member.split('.');
  const members = api.get(name);
  if (!members) return false;
  return sub === undefined || members.size === 0 || members.has(sub);
}

describe('manifest: engines.vscode and the API the code calls', () => {
  const typesPkg = JSON.parse(readFileSync(path.join(root, 'node_modules', '@types', 'vscode', 'package.json'), 'utf8')) as { version: string };
  const engine = /^\^(\d+)\.(\d+)\.(\d+)$/.exec(pkg.engines.vscode);
  const api = typedApi(readFileSync(path.join(root, 'node_modules', '@types', 'vscode', 'index.d.ts'), 'utf8'));
  const { direct, cast } = apiUses();

  it('the types the code is checked against are those of the engine\'s oldest VS Code', () => {
    assert.ok(engine, `engines.vscode ${pkg.engines.vscode} is ^major.minor.patch`);
    const [major, minor] = typesPkg.version.split('.');
    assert.equal(`${major}.${minor}`, `${engine[1]}.${engine[2]}`, `@types/vscode ${typesPkg.version} against engines.vscode ${pkg.engines.vscode}`);
  });

  it('the scan finds what the code reads from the vscode module', () => {
    // A few reads the extension cannot do without: if the scan misses these it misses others.
    const members = new Set(direct.map((u) => u.member));
    for (const m of ['commands.registerCommand', 'window.registerWebviewViewProvider', 'Uri.joinPath', 'l10n.t', 'EventEmitter']) assert.ok(members.has(m), m);
    assert.ok(direct.length > 100, `${direct.length} reads`);
  });

  it('every member read without a feature check is typed in the engine\'s VS Code', () => {
    const missing = [...new Set(direct.filter((u) => !typed(api, u.member)).map((u) => `${u.member} (${u.file})`))];
    assert.deepEqual(missing, [], `not in @types/vscode ${typesPkg.version}`);
  });

  it('the engine is no older than it must be: the code reads API first typed in the engine\'s version', () => {
    assert.ok(engine);
    const newest = FIRST_TYPED_IN[`${engine[1]}.${engine[2]}`];
    assert.ok(newest, `FIRST_TYPED_IN lists what ${engine[1]}.${engine[2]} added`);
    const used = [...new Set(direct.map((u) => u.member).filter((m) => newest.includes(m) || newest.includes(m.split('.')[0])))];
    assert.ok(used.length > 0, `nothing first typed in ${engine[1]}.${engine[2]} is read without a check: the engine can be lowered`);
  });

  it('API reached through a cast of the module is checked with typeof … "function" before use', () => {
    assert.ok(cast.length > 0, 'the scan finds the casts');
    for (const use of cast) {
      assert.ok(use.variable, `${use.file}: (vscode as …).${use.member} is kept in a variable that is checked`);
      const check = new RegExp(`typeof ${use.variable}\\b[\\w?.]*\\s*[!=]==\\s*'function'`);
      assert.match(use.body, check, `${use.file}: ${use.variable} (vscode.${use.member}) is checked with typeof`);
    }
  });
});

// ---- what the .vsix holds -------------------------------------------------------------------

/** The files of the working tree that git knows of or would add. */
function projectFiles(): string[] {
  return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter((f) => f && existsSync(path.join(root, f)));
}

/** What a build and a test run leave in the tree (ignored by git, so missing from projectFiles). */
const BUILT = [
  'dist/extension.js', 'dist/extension.js.map', 'dist/client.js', 'dist/client.js.map', 'dist/codebaseWorker.js', 'dist/codebaseWorker.js.map', 'dist/exportPage.js', 'dist/exportPage.js.map', 'dist/ai-chat-assistant.vsix',
  // The pieces of the extension's bundle (esbuild.js): a room loaded on first use, a shared piece.
  'dist/exportCommands-WSVWUK73.js', 'dist/chunk-YHTVHL5X.js',
  'media/dist/webview.js', 'media/dist/webview.js.map', 'media/dist/languages.js', 'media/dist/codicons/codicon.css', 'media/dist/codicons/codicon.ttf',
  'node_modules/zod/index.js', 'node_modules/zod/index.js.map', '.vscode-test/user-data/state.json', 'test-results/run.log',
  'test/e2e/.cache/storage.json',
];

/** What the package must hold, and all it may hold. */
const REQUIRED = [
  'package.json', 'package.nls.json', 'README.md', 'CHANGELOG.md', 'LICENSE', 'l10n/bundle.l10n.json', 'dist/extension.js', 'dist/client.js', 'dist/codebaseWorker.js', 'dist/exportPage.js',
  'dist/exportCommands-WSVWUK73.js', 'dist/chunk-YHTVHL5X.js', 'media/dist/webview.js', 'media/dist/languages.js', 'media/dist/codicons/codicon.css', 'media/dist/codicons/codicon.ttf', 'media/chat-icon.svg', 'media/icon.png',
  'media/chat.css', 'media/render.css',
];
const ALLOWED = [...REQUIRED.map((f) => new RegExp(`^${f.replace(/[.]/g, '\\.')}$`)), /^media\/[^/]+\.css$/, /^media\/walkthrough\/[^/]+\.md$/];

describe('package: .vscodeignore as `vsce ls` reads it', function () {
  this.timeout(60_000);
  let listed: string[] = [];
  let tree: string[] = [];
  let dir = '';

  // A copy of the tree (every file empty but the ones vsce reads) with a build's output beside
  // it, so the check does not depend on whether dist/ was built here.
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'aichat-vsce-ls-'));
    tree = [...new Set([...projectFiles(), ...BUILT])];
    const real = new Set(['package.json', 'package.nls.json', '.vscodeignore', 'README.md', 'CHANGELOG.md', 'LICENSE']);
    for (const f of tree) {
      mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
      writeFileSync(path.join(dir, f), real.has(f) ? readFileSync(path.join(root, f)) : '');
    }
    const vsce = path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
    listed = execFileSync(process.execPath, [vsce, 'ls', '--no-dependencies'], { cwd: dir, encoding: 'utf8' })
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
  });
  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('the tree it reads holds sources, tests, source maps and fixtures', () => {
    assert.ok(tree.some((f) => f.startsWith('src/') && f.endsWith('.ts')));
    assert.ok(tree.some((f) => f.startsWith('test/') && f.includes('fixtures')));
    assert.ok(tree.filter((f) => f.endsWith('.map')).length >= 3);
  });

  it('lists no sources, tests, benchmarks, scripts, source maps, fixtures, screenshots or dependencies', () => {
    const bad = listed.filter(
      (f) =>
        /^(src|test|bench|scripts|\.ci|\.github|\.vscode|\.vscode-test|test-results|node_modules|media\/screenshots)\//.test(f) ||
        /\.(ts|map|vsix|log)$/.test(f) ||
        /fixture/i.test(f) ||
        /^(tsconfig|eslint|esbuild|\.mocharc|\.vscode-test\.)/.test(f),
    );
    assert.deepEqual(bad, []);
  });

  it('lists only what the extension needs at run time and on its listing, and all of it', () => {
    assert.deepEqual(listed.filter((f) => !ALLOWED.some((re) => re.test(f))), [], 'files outside the allowed set');
    assert.deepEqual(REQUIRED.filter((f) => !listed.includes(f)), [], 'missing files');
    assert.ok(listed.some((f) => f.startsWith('media/walkthrough/')), 'the walkthrough pages');
  });
});
